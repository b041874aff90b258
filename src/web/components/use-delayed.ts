import { useEffect, useRef } from 'react';

/** Calls `apply` with `value` once it has stopped changing for `delayMs` (not for the initial value). */
export function useDelayed<T>(value: T, delayMs: number, apply: (value: T) => void): void {
  const applyRef = useRef(apply);
  applyRef.current = apply;
  const initial = useRef(value);
  useEffect(() => {
    if (Object.is(value, initial.current)) return;
    initial.current = value;
    const timer = setTimeout(() => applyRef.current(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
}
