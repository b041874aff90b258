import { useState } from 'react';
import { apiGet, type Query } from '../api.ts';
import { useRequest } from './use-request.ts';

/** Where a screen's data stands: on its way, failed to come, or here. */
export type Loaded<T> = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; value: T };

/**
 * What `path` answers, with its loading and failed states and a retry. An answer for a path (or query) the screen
 * has since left is dropped; while a new path loads, the last answer stays on screen.
 */
export function useLoaded<T>(
  path: string,
  what: string,
  query?: Query,
  /** Change it to fetch again, e.g. after a step changed what the path answers. */
  reloadKey = 0,
): { loaded: Loaded<T>; retry: () => void } {
  // By value, so a query written inline does not fetch again on every render.
  const key = `${path} ${JSON.stringify(query ?? {})} ${reloadKey}`;
  const { last, failed, retry } = useRequest(what, key, (signal) => apiGet<T>(path, query, signal));
  return { loaded: loadedOf(last, failed), retry };
}

/** A request's state as a screen shows it. */
export const loadedOf = <T>(last: { value: T } | null, failed: boolean): Loaded<T> =>
  last ? { state: 'loaded', value: last.value } : failed ? { state: 'failed' } : { state: 'loading' };

/** What `path` answers, or null until then (and when it failed, which is only logged: spec §8). */
export function useFetched<T>(path: string, what: string, query?: Query): T | null {
  const { loaded } = useLoaded<T>(path, what, query);
  return loaded.state === 'loaded' ? loaded.value : null;
}

/**
 * A fetched item as the screen shows it: what the screen saved of it stands for the fetched one until another item
 * (another id) is fetched. Returns the item shown and the setter for what was saved.
 */
export function useSavedOver<T extends { id: number }>(fetched: T | null): [T | null, (saved: T) => void] {
  const [saved, setSaved] = useState<T | null>(null);
  return [saved && saved.id === fetched?.id ? saved : fetched, setSaved];
}
