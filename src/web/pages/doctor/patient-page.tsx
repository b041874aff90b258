import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { useSignals } from '@preact/signals-react/runtime';
import type { MedicalRecordJson, PatientDetailJson } from '../../../domain/records/records-shapes.ts';
import { user } from '../../auth.ts';
import { RequestAdmissionDialog } from '../../components/admission-dialogs.tsx';
import { Alert } from '../../components/alert.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useLoaded, useSavedOver } from '../../components/use-fetched.ts';
import { BreakGlassForm } from '../../components/break-glass-form.tsx';
import { PatientOverview } from '../../components/patient-overview.tsx';
import { endpoints, routes, withId } from '../../paths.ts';

export default function DoctorPatientPage() {
  const { id } = useParams<{ id: string }>();
  useSignals();
  const { loaded, retry } = useLoaded<PatientDetailJson>(endpoints.doctor.patient(id), 'patient');
  const [patient, setEdited] = useSavedOver(loaded.state === 'loaded' ? loaded.value : null);
  // The record's first version was written by its doctor: only they (or an admin) may amend it.
  const wroteIt = (record: MedicalRecordJson) => record.history[0]?.written_by.id === user.value?.id;
  const { alert, setAlert, dismiss } = useAlert();
  const [admitting, setAdmitting] = useState(false);

  return (
    <>
      <PageHeader title="Patient Overview">
        <Link href={routes.doctor.myPatients} className="button button-small">
          Patient List
        </Link>
        <Link href={withId(routes.doctor.patientResults, id)} className="button button-small">
          Lab results
        </Link>
        {patient && (
          <button type="button" className="button button-small button-primary" onClick={() => setAdmitting(true)}>
            Request admission
          </button>
        )}
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {/* A patient outside the doctor's care team answers 404, as a missing one does: the doctor may break the glass. */}
      {loaded.state === 'failed' && <BreakGlassForm patientId={id} onOpened={retry} />}
      {patient && (
        <PatientOverview
          patient={patient}
          editAllergies
          amend={{
            allowed: wroteIt,
            done: (amended, message) => {
              setEdited(amended);
              setAlert(message);
            },
          }}
        />
      )}
      {patient && admitting && (
        <RequestAdmissionDialog
          patient={{ id: patient.id, name: patient.name || 'the patient' }}
          onClose={() => setAdmitting(false)}
          onDone={(message) => {
            setAdmitting(false);
            setAlert(message);
          }}
        />
      )}
    </>
  );
}
