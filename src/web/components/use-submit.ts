import { useState } from 'react';
import type { FieldErrors } from '../../domain/shared/errors.ts';
import { ApiError } from '../api.ts';

/**
 * A form's or button's submit: busy while its action runs; a failure is logged as "`what` failed", its field
 * problems are kept for the fields, and it is handed to `onFailure` for the page's alert.
 */
export function useSubmit(what: string) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});

  const run = async (action: () => Promise<void>, onFailure: (error: unknown) => void) => {
    setBusy(true);
    setErrors({});
    try {
      await action();
    } catch (error) {
      console.error(`${what} failed`, error);
      if (error instanceof ApiError) setErrors(error.errors);
      onFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return { busy, errors, setErrors, run };
}

/** The server named the fields at fault: they say it by the fields, so no alert is needed. */
export const hasFieldErrors = (error: unknown) => error instanceof ApiError && Object.keys(error.errors).length > 0;
