import { useEffect, useRef, useState } from 'react';
import { useLatestRequest } from './use-latest-request.ts';

export interface Request<T> {
  /** The last answer, or null while none has come or the last request failed. */
  answer: T | null;
  /** The last answer boxed, so an answer that is itself null reads as come; null as `answer` is. */
  last: { value: T } | null;
  loading: boolean;
  failed: boolean;
  /** Asks again after a failure. */
  retry: () => void;
}

/**
 * What `send` answers, asked for again whenever `key` changes; only the newest request counts. A failure drops
 * the stale answer, so a screen that could not load never reads as an empty one. `accept` may refuse an answer
 * (e.g. a list page emptied by a delete) while the caller asks for another.
 */
export function useRequest<T>(
  what: string,
  key: string,
  send: (signal: AbortSignal) => Promise<T>,
  accept: (answer: T) => boolean = () => true,
): Request<T> {
  const [last, setLast] = useState<{ value: T } | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const sendRef = useRef(send);
  sendRef.current = send;
  const acceptRef = useRef(accept);
  acceptRef.current = accept;
  const latest = useLatestRequest();

  useEffect(() => {
    setLoading(true);
    latest.start(
      (signal) => sendRef.current(signal),
      (value) => {
        if (!acceptRef.current(value)) return;
        setLast({ value });
        setFailed(false);
        setLoading(false);
      },
      (error) => {
        console.error(`${what}: loading failed`, error);
        setLast(null);
        setFailed(true);
        setLoading(false);
      },
    );
  }, [latest, what, key, attempt]);

  return {
    answer: last?.value ?? null,
    last,
    loading,
    failed,
    retry: () => {
      setFailed(false);
      setAttempt((n) => n + 1);
    },
  };
}
