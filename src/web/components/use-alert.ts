import { useState } from 'react';
import { ApiError } from '../api.ts';
import { failure, type AlertMessage } from './alert.tsx';

/** A page's one message, plus the text of a failure: a refused (409) action's own reason, else `fallback`. */
export function useAlert() {
  const [alert, setAlert] = useState<AlertMessage | null>(null);
  return { alert, setAlert, dismiss: () => setAlert(null) };
}

export function failureFor(error: unknown, fallback: string): AlertMessage {
  if (error instanceof ApiError && error.status === 409) return failure(`${fallback}: ${error.message}`);
  return failure(fallback);
}

/** All rows of a list endpoint for a select (the server answers at most 200 a page). */
export const ALL = { q: '', page: 1, per_page: 200 };
