/**
 * A patient's allergies on every clinical banner: "No known allergies" (a recorded statement) shown apart from
 * "Allergies not recorded" (nobody asked yet), and each active allergy with its reaction. Doctors and nurses keep
 * them in the editor.
 */
import { useState, type FormEvent } from 'react';
import type { AllergySeverity, AllergyStatus } from '../../domain/medicines/allergies.ts';
import type { AllergiesJson } from '../../domain/medicines/medicines-shapes.ts';
import { apiGet, apiPost, apiPut } from '../api.ts';
import { endpoints } from '../paths.ts';
import { Alert } from './alert.tsx';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { useAlert } from './use-alert.ts';
import { useRequest } from './use-request.ts';
import { hasFieldErrors, useSubmit } from './use-submit.ts';
import { wardFailure } from './ward.ts';

const TONE: Record<AllergiesJson['statement'], string> = {
  allergies: 'allergy-banner allergy-banner-danger',
  none_known: 'allergy-banner allergy-banner-ok',
  not_asked: 'allergy-banner allergy-banner-unknown',
};

/** The banner's allergies of `patientId`, and (with `editable`) the button that opens the editor. */
export function AllergyBanner({ patientId, editable = false }: { patientId: number; editable?: boolean }) {
  const [reloadKey, setReloadKey] = useState(0);
  const [editing, setEditing] = useState(false);
  const { answer } = useRequest('Allergies', `${patientId} ${reloadKey}`, (signal) =>
    apiGet<AllergiesJson>(endpoints.medicines.allergies(patientId), undefined, signal),
  );
  if (!answer) return <p className="allergy-banner">Allergies: loading…</p>;
  return (
    <div className={TONE[answer.statement]} role="note" aria-label="Allergies">
      <strong>{answer.summary}</strong>
      {editable && (
        <button type="button" className="button button-small no-print" onClick={() => setEditing(true)}>
          Edit allergies
        </button>
      )}
      {editing && (
        <AllergyEditor
          allergies={answer}
          onClose={() => setEditing(false)}
          onChanged={() => setReloadKey((key) => key + 1)}
        />
      )}
    </div>
  );
}

const SEVERITY_LABELS: Record<AllergySeverity, string> = { mild: 'Mild', moderate: 'Moderate', severe: 'Severe' };
const STATUS_LABELS: Record<AllergyStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  resolved: 'Resolved',
  'entered-in-error': 'Entered in error',
};

/** Records an allergy or "no known allergies", and changes the status of those recorded. */
function AllergyEditor({
  allergies,
  onClose,
  onChanged,
}: {
  allergies: AllergiesJson;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('Allergy');
  const [values, setValues] = useState({ substance: '', reaction: '', severity: '' });
  const set = (key: keyof typeof values, value: string) => setValues((was) => ({ ...was, [key]: value }));
  const failed = (error: unknown) =>
    setAlert(hasFieldErrors(error) ? null : wardFailure(error, 'The allergy could not be saved. Please try again.'));
  const send = (body: unknown) =>
    run(async () => {
      await apiPost(endpoints.medicines.allergies(allergies.patient_id), body);
      setValues({ substance: '', reaction: '', severity: '' });
      onChanged();
    }, failed);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send({
      substance: values.substance,
      ...(values.reaction ? { reaction: values.reaction } : {}),
      ...(values.severity ? { severity: values.severity } : {}),
    });
  };
  const setStatus = (id: number, status: string) =>
    run(async () => {
      await apiPut(endpoints.medicines.allergyStatus(id), { status });
      onChanged();
    }, failed);

  return (
    <Dialog open title="Allergies" onClose={onClose} className="dialog-wide">
      <Alert message={alert} onDismiss={dismiss} />
      <p>{allergies.summary}</p>
      {allergies.allergies.length > 0 && (
        <ul className="allergy-list">
          {allergies.allergies.map((a) => (
            <li key={a.id}>
              <span>
                {a.words} <span className="muted">· {a.recorded_by ?? 'unknown'}</span>
              </span>
              <label>
                <span className="visually-hidden">Status of {a.words}</span>
                <select value={a.status} disabled={busy} onChange={(e) => void setStatus(a.id, e.target.value)}>
                  {(Object.keys(STATUS_LABELS) as AllergyStatus[]).map((s) => (
                    <option key={s} value={s}>
                      {STATUS_LABELS[s]}
                    </option>
                  ))}
                </select>
              </label>
            </li>
          ))}
        </ul>
      )}
      <form className="form" onSubmit={submit} aria-label="Record an allergy">
        <Field label="Substance" errors={errors.substance}>
          {(control) => (
            <input
              {...control}
              required
              maxLength={200}
              value={values.substance}
              onChange={(e) => set('substance', e.target.value)}
            />
          )}
        </Field>
        <Field label="Reaction" errors={errors.reaction}>
          {(control) => (
            <input {...control} value={values.reaction} onChange={(e) => set('reaction', e.target.value)} />
          )}
        </Field>
        <Field label="Severity" errors={errors.severity}>
          {(control) => (
            <select {...control} value={values.severity} onChange={(e) => set('severity', e.target.value)}>
              <option value="">Not known</option>
              {(Object.keys(SEVERITY_LABELS) as AllergySeverity[]).map((s) => (
                <option key={s} value={s}>
                  {SEVERITY_LABELS[s]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="submit-row">
          <button type="submit" className="button button-primary" disabled={busy}>
            Record allergy
          </button>
          {allergies.statement !== 'allergies' && allergies.statement !== 'none_known' && (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => void send({ no_known_allergies: true })}
            >
              No known allergies
            </button>
          )}
          <button type="button" className="button" onClick={onClose}>
            Done
          </button>
        </div>
      </form>
    </Dialog>
  );
}
