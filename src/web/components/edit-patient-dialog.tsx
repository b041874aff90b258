import { useState, type FormEvent } from 'react';
import type { PatientJson } from '../../domain/patients/patients-shapes.ts';
import type { Gender } from '../../domain/shared/actor.ts';
import { apiPut } from '../api.ts';
import { Alert, failure, success, type AlertMessage } from './alert.tsx';
import { Dialog } from './dialog.tsx';
import { PatientFields, patientContact, type PatientContact } from './patient-fields.tsx';
import { useAlert } from './use-alert.ts';
import { hasFieldErrors, useSubmit } from './use-submit.ts';

interface EditedPatient {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  birthdate: string | null;
  gender: Gender | null;
}

interface EditPatientDialogProps {
  patient: EditedPatient;
  /** The staff route that saves it: the admin's or the desk's. */
  path: string;
  onSaved: (changed: PatientJson, message: AlertMessage) => void;
  onClose: () => void;
}

/** Staff correct a patient's contact details, checked by the rules of the patient's own profile form. */
export function EditPatientDialog({ patient, path, onSaved, onClose }: EditPatientDialogProps) {
  const [values, setValues] = useState<PatientContact>(patientContact(patient));
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('patient update');

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        const changed = (await apiPut<{ patient: PatientJson }>(path, values)).patient;
        onSaved(changed, success(savedText(values.email, patient.email, changed)));
      },
      (error) => setAlert(hasFieldErrors(error) ? null : failure('Failed to update the patient')),
    );
  };

  return (
    <Dialog open title={`Edit ${patient.name}`} onClose={onClose}>
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={save} aria-label="Patient details">
        <PatientFields
          values={values}
          onChange={setValues}
          errors={errors}
          own={false}
          emailOptional={patient.email === null}
        />
        <button type="submit" className="button button-primary" disabled={busy}>
          Save details
        </button>
      </form>
    </Dialog>
  );
}

/** What staff are told: a new address waits for the patient's confirmation, and the one in use (if any) stays in use. */
function savedText(entered: string, was: string | null, saved: PatientJson): string {
  const waiting = saved.pending_email;
  if (!entered || waiting === null || waiting.toLowerCase() !== entered.trim().toLowerCase())
    return 'Patient details updated';
  if (was === null) {
    return `Patient details updated. A link to confirm ${waiting} was sent to that address; once the patient follows it, they can choose a password through "Forgot password".`;
  }
  return `Patient details updated. A verification was sent to ${waiting}; the old address ${was} stays in use until the patient confirms it with their password.`;
}
