import { useEffect, useState, type FormEvent } from 'react';
import { Link, useParams } from 'wouter';
import type { PatientJson } from '../../../domain/patients/use-cases.ts';
import type { PatientDetailJson } from '../../../domain/records/records.ts';
import { apiPut } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { PatientFields, patientContact, type PatientContact } from '../../components/patient-fields.tsx';
import { useFetched } from '../../components/use-fetched.ts';
import { PatientOverview } from '../../components/patient-overview.tsx';
import { SignInHelp } from '../../components/sign-in-help.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { hasFieldErrors, useSubmit } from '../../components/use-submit.ts';
import { WaitlistForm } from '../../components/waitlist-form.tsx';
import { endpoints, routes } from '../../paths.ts';

export default function AdminPatientProfilePage() {
  const { id } = useParams<{ id: string }>();
  const fetched = useFetched<PatientDetailJson>(endpoints.admin.patient(id), 'patient');
  const [patient, setPatient] = useState<PatientDetailJson | null>(null);
  const [editing, setEditing] = useState(false);
  const { alert, setAlert, dismiss } = useAlert();

  useEffect(() => setPatient(fetched), [fetched]);

  const saved = (was: PatientDetailJson, changed: PatientJson) => {
    const { name, email, phone, birthdate, gender } = changed;
    setPatient({ ...was, user: { ...was.user, name, email }, name, email, phone, birthdate, gender });
    setEditing(false);
    const newEmail = email.toLowerCase() !== was.email.toLowerCase();
    setAlert(success(newEmail ? `Patient details updated. A link to confirm ${email} was sent to that address.` : 'Patient details updated'));
  };

  return (
    <>
      <PageHeader title="Patient Overview">
        {patient && (
          <>
            <button type="button" className="button button-small button-primary" onClick={() => setEditing(true)}>
              Edit details
            </button>
            <SignInHelp name={patient.name} email={patient.email} />
          </>
        )}
        <Link href={routes.admin.patients} className="button button-small">
          Patients
        </Link>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {patient && <PatientOverview patient={patient} showDescription />}
      {patient && editing && <EditPatientDialog patient={patient} onSaved={(changed) => saved(patient, changed)} onClose={() => setEditing(false)} />}
      {patient && (
        <WaitlistForm
          title="Add to a waitlist"
          path={endpoints.waitlist}
          fields={{ patient_id: patient.id }}
          joinedText={`${patient.name} is on the waitlist. If a time frees up, they get an e-mail.`}
        />
      )}
    </>
  );
}

/** The patient's contact details, checked by the rules of the patient's own profile form. */
function EditPatientDialog({ patient, onSaved, onClose }: { patient: PatientDetailJson; onSaved: (changed: PatientJson) => void; onClose: () => void }) {
  const [values, setValues] = useState<PatientContact>(patientContact(patient));
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('patient update');

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => onSaved((await apiPut<{ patient: PatientJson }>(endpoints.admin.patient(patient.id), values)).patient),
      (error) => setAlert(hasFieldErrors(error) ? null : failure('Failed to update the patient')),
    );
  };

  return (
    <Dialog open title={`Edit ${patient.name}`} onClose={onClose}>
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={save} aria-label="Patient details">
        <PatientFields values={values} onChange={setValues} errors={errors} own={false} />
        <button type="submit" className="button button-primary" disabled={busy}>
          Save details
        </button>
      </form>
    </Dialog>
  );
}
