import { useState } from 'react';
import { ApiError } from '../api.ts';
import { failure, type AlertMessage } from './alert.tsx';

/** A page's one message, perhaps one to show from the start. */
export function useAlert(initial: AlertMessage | null = null) {
  const [alert, setAlert] = useState<AlertMessage | null>(initial);
  return { alert, setAlert, dismiss: () => setAlert(null) };
}

/** The text of a failure: a refused (409) action's own reason after `fallback`, else `fallback` alone. */
export function failureFor(error: unknown, fallback: string): AlertMessage {
  if (error instanceof ApiError && error.status === 409) return failure(`${fallback}: ${error.message}`);
  return failure(fallback);
}

/** The server's own words for a failure, or `fallback` when it gave none (the network failed). */
export const serverFailure = (error: unknown, fallback: string) =>
  failure(error instanceof ApiError ? error.message : fallback);

/** All rows of a list endpoint for a select (the server answers at most 200 a page). */
export const ALL = { q: '', page: 1, per_page: 200 };
