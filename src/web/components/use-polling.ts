import { useEffect, useRef } from 'react';

/**
 * Calls `refresh` every `intervalMs` while the page is visible: a hidden tab asks nothing, and showing it again
 * refreshes at once. Stops when the component unmounts.
 */
export function usePolling(refresh: () => void, intervalMs: number): void {
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => clearInterval(timer);
    const start = () => {
      stop();
      timer = setInterval(() => refreshRef.current(), intervalMs);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        refreshRef.current();
        start();
      } else stop();
    };
    if (document.visibilityState === 'visible') start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [intervalMs]);
}
