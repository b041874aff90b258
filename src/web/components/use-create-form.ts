import type { FormEvent } from 'react';
import { failure, success, type AlertMessage } from './alert.tsx';
import { useSubmit } from './use-submit.ts';

interface CreateFormOptions {
  /** What the form creates, singular and lower case: "disease", "doctor". */
  noun: string;
  createdText: string;
  send: () => Promise<unknown>;
  setAlert: (message: AlertMessage) => void;
  onCreated: () => void;
}

/** A create form's submit: on success the created alert, on failure the server's field errors and a failure alert. */
export function useCreateForm({ noun, createdText, send, setAlert, onCreated }: CreateFormOptions) {
  const { errors, busy, run } = useSubmit(`${noun} create`);

  const create = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        await send();
        setAlert(success(createdText));
        onCreated();
      },
      () => setAlert(failure(`Failed to create ${noun}`)),
    );
  };

  return { errors, busy, create };
}
