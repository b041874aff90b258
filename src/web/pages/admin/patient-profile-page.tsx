import { useState } from 'react';
import { Link, useParams } from 'wouter';
import type { PatientJson } from '../../../domain/patients/patients-shapes.ts';
import type { PatientDetailJson } from '../../../domain/records/records-shapes.ts';
import { Alert, type AlertMessage } from '../../components/alert.tsx';
import { DownloadDataButton } from '../../components/download-data-button.tsx';
import { EditPatientDialog } from '../../components/edit-patient-dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useFetched, useSavedOver } from '../../components/use-fetched.ts';
import { PatientOverview } from '../../components/patient-overview.tsx';
import { SignInHelp } from '../../components/sign-in-help.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { WaitlistForm } from '../../components/waitlist-form.tsx';
import { endpoints, routes } from '../../paths.ts';

export default function AdminPatientProfilePage() {
  const { id } = useParams<{ id: string }>();
  const [patient, setEdited] = useSavedOver(useFetched<PatientDetailJson>(endpoints.admin.patient(id), 'patient'));
  const [editing, setEditing] = useState(false);
  const { alert, setAlert, dismiss } = useAlert();

  const saved = (was: PatientDetailJson, changed: PatientJson, message: AlertMessage) => {
    const { name, email, phone, birthdate, gender } = changed;
    setEdited({ ...was, user: { ...was.user, name, email }, name, email, phone, birthdate, gender });
    setEditing(false);
    setAlert(message);
  };

  return (
    <>
      <PageHeader title="Patient Overview">
        {patient && (
          <>
            <button type="button" className="button button-small button-primary" onClick={() => setEditing(true)}>
              Edit details
            </button>
            {patient.email !== null && <SignInHelp name={patient.name} email={patient.email} />}
            <DownloadDataButton label="Download data" patientId={async () => patient.id} onFailure={setAlert} />
          </>
        )}
        <Link href={routes.admin.patients} className="button button-small">
          Patients
        </Link>
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {patient && (
        <PatientOverview
          patient={patient}
          showDescription
          amend={{
            allowed: () => true,
            done: (amended, message) => {
              setEdited(amended);
              setAlert(message);
            },
          }}
        />
      )}
      {patient && editing && (
        <EditPatientDialog
          patient={patient}
          path={endpoints.admin.patient(patient.id)}
          onSaved={(changed, message) => saved(patient, changed, message)}
          onClose={() => setEditing(false)}
        />
      )}
      {patient && patient.email !== null && (
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
