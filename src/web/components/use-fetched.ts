import { useEffect, useState } from 'react';
import { apiGet, type Query } from '../api.ts';

/**
 * What `path` answers, or null until then. A failed fetch is only logged and the screen stays empty
 * (spec §8); an answer for a path (or query) the screen has since left is dropped.
 */
export function useFetched<T>(path: string, what: string, query?: Query): T | null {
  const [value, setValue] = useState<T | null>(null);
  // By value, so a query written inline does not fetch again on every render.
  const queryKey = JSON.stringify(query ?? {});
  useEffect(() => {
    let current = true;
    apiGet<T>(path, query)
      .then((answer) => current && setValue(answer))
      .catch((error: unknown) => console.error(`${what} fetch failed`, error));
    return () => {
      current = false;
    };
  }, [path, queryKey, what]);
  return value;
}
