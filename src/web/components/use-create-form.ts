import { useState, type FormEvent } from 'react';
import { ApiError } from '../api.ts';
import type { FieldErrors } from '../api-types.ts';
import { failure, success, type AlertMessage } from './alert.tsx';

interface CreateFormOptions {
  /** What the form creates, singular and lower case: "disease", "doctor". */
  noun: string;
  createdText: string;
  send: () => Promise<unknown>;
  setAlert: (message: AlertMessage) => void;
  onCreated: () => void;
}

/** A create form's submit: busy while `send` runs; on failure the server's field errors and a failure alert. */
export function useCreateForm({ noun, createdText, send, setAlert, onCreated }: CreateFormOptions) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await send();
      setAlert(success(createdText));
      onCreated();
    } catch (error) {
      console.error(`${noun} create failed`, error);
      if (error instanceof ApiError) setErrors(error.errors);
      setAlert(failure(`Failed to create ${noun}`));
    } finally {
      setBusy(false);
    }
  };

  return { errors, busy, create };
}
