import { useEffect, useRef, useState } from 'react';
import type { ListPage } from '../api.ts';
import { useLatestRequest } from './use-latest-request.ts';

export interface ListRequest<Row> {
  /** The last answer, or null while none has come or the last request failed. */
  list: ListPage<Row> | null;
  loading: boolean;
  failed: boolean;
  /** Asks again after a failure. */
  retry: () => void;
}

/**
 * One page of a list, asked for again whenever `key` changes; only the newest request counts. A failure drops
 * the stale rows, so a list that could not load never reads as an empty one. `accept` may refuse an answer
 * (e.g. a page emptied by a delete) while the caller asks for another.
 */
export function useListRequest<Row>(
  what: string,
  key: string,
  send: (signal: AbortSignal) => Promise<ListPage<Row>>,
  accept: (answer: ListPage<Row>) => boolean = () => true,
): ListRequest<Row> {
  const [list, setList] = useState<ListPage<Row> | null>(null);
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
      (answer) => {
        if (!acceptRef.current(answer)) return;
        setList(answer);
        setFailed(false);
        setLoading(false);
      },
      (error) => {
        console.error(`${what}: loading failed`, error);
        setList(null);
        setFailed(true);
        setLoading(false);
      },
    );
  }, [latest, what, key, attempt]);

  return {
    list,
    loading,
    failed,
    retry: () => {
      setFailed(false);
      setAttempt((n) => n + 1);
    },
  };
}
