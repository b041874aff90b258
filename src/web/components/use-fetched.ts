import { useEffect, useState } from 'react';
import { apiGet } from '../api.ts';

/**
 * What `path` answers, or null until then. A failed fetch is only logged and the screen stays empty
 * (spec §8); an answer for a path the screen has since left is dropped.
 */
export function useFetched<T>(path: string, what: string): T | null {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    let current = true;
    apiGet<T>(path)
      .then((answer) => current && setValue(answer))
      .catch((error: unknown) => console.error(`${what} fetch failed`, error));
    return () => {
      current = false;
    };
  }, [path, what]);
  return value;
}
