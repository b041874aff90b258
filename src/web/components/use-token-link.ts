/** A page an e-mail link opens: its one-time token, what the server says the link is for, and the outcome. */
import { useEffect, useState } from 'react';
import { ApiError, apiPost } from '../api.ts';
import { tokenFromAddress } from '../token-link.ts';
import { failure, type AlertMessage } from './alert.tsx';

export const linkFailure = (error: unknown) =>
  failure(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.');

/** Asks `previewPath` what the link's token is for, before anything changes; a refused or incomplete link is the outcome. */
export function useTokenLink<T>(previewPath: string) {
  const [token] = useState(tokenFromAddress);
  const [preview, setPreview] = useState<T | null>(null);
  const [outcome, setOutcome] = useState<AlertMessage | null>(token ? null : failure('This link is incomplete.'));
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!token) return;
    apiPost<T>(previewPath, { token })
      .then(setPreview)
      .catch((error: unknown) => setOutcome(linkFailure(error)));
  }, [token]);

  return { token, preview, outcome, setOutcome, done, setDone };
}
