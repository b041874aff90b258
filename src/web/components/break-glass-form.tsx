import { useState, type FormEvent } from 'react';
import type { BreakGlassJson } from '../../domain/care/care-shapes.ts';
import { ApiError, apiPost } from '../api.ts';
import { Alert, failure, type AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { hasFieldErrors, useSubmit } from './use-submit.ts';
import { endpoints } from '../paths.ts';

/**
 * Where a patient's record answered 404 to a doctor: outside their care team (or no such patient). The doctor may
 * open it for the rest of the day by stating why; admins and the patient are shown the reason.
 */
export function BreakGlassForm({ patientId, onOpened }: { patientId: string | number; onOpened: () => void }) {
  const [reason, setReason] = useState('');
  const [alert, setAlert] = useState<AlertMessage | null>(null);
  const { busy, errors, run } = useSubmit('break the glass');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    return run(
      async () => {
        await apiPost<{ access: BreakGlassJson }>(endpoints.doctor.breakGlass(patientId), { reason });
        onOpened();
      },
      (error: unknown) => {
        if (!hasFieldErrors(error))
          setAlert(failure(error instanceof ApiError ? error.message : 'The record could not be opened.'));
      },
    );
  };

  return (
    <section className="card account-section" aria-labelledby="break-glass-heading">
      <h2 id="break-glass-heading">Break the glass</h2>
      <p>
        This patient is not in your care team, so their record is closed to you. If you must open it, say why: it stays
        open to you until the end of the day, and the patient and the administrators see who opened it and why.
      </p>
      <Alert message={alert} onDismiss={() => setAlert(null)} />
      <form className="form" onSubmit={onSubmit}>
        <Field label="Reason" errors={errors.reason}>
          {(control) => (
            <textarea
              {...control}
              name="reason"
              required
              maxLength={1000}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="button button-primary" disabled={busy}>
          Break the glass
        </button>
      </form>
    </section>
  );
}
