import { useEffect, useState } from 'react';
import { apiGet, type Query } from '../api.ts';
import { useLatestRequest } from './use-latest-request.ts';

/**
 * What `path` answers, or null until then. A failed fetch is only logged and the screen stays empty
 * (spec §8); an answer for a path (or query) the screen has since left is dropped.
 */
export function useFetched<T>(path: string, what: string, query?: Query): T | null {
  const [value, setValue] = useState<T | null>(null);
  const latest = useLatestRequest();
  // By value, so a query written inline does not fetch again on every render.
  const queryKey = JSON.stringify(query ?? {});
  useEffect(() => {
    latest.start(
      (signal) => apiGet<T>(path, query, signal),
      setValue,
      (error) => console.error(`${what} fetch failed`, error),
    );
  }, [latest, path, queryKey, what]);
  return value;
}
