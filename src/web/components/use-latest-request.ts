import { useEffect, useState } from 'react';

export interface LatestRequest {
  /** Sends a request in place of the one before; its answer or failure is handled unless a newer one started. */
  start<T>(
    send: (signal: AbortSignal) => Promise<T>,
    onAnswer: (answer: T) => void,
    onFailure: (error: unknown) => void,
  ): void;
  /** Drops the request under way, if any. */
  abort(): void;
}

/**
 * Requests of which only the newest counts (a search typed on, another doctor chosen): starting one aborts the
 * one before, and leaving the page aborts the last, so a late answer never overwrites a newer one.
 */
export function useLatestRequest(): LatestRequest {
  const [latest] = useState(latestRequest);
  useEffect(() => latest.abort, [latest]);
  return latest;
}

function latestRequest(): LatestRequest {
  let current: AbortController | undefined;
  return {
    start(send, onAnswer, onFailure) {
      current?.abort();
      const controller = new AbortController();
      current = controller;
      send(controller.signal).then(
        (answer) => {
          if (!controller.signal.aborted) onAnswer(answer);
        },
        (error: unknown) => {
          if (!controller.signal.aborted) onFailure(error);
        },
      );
    },
    abort: () => current?.abort(),
  };
}
