import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { apiGet } from '../../api.ts';
import type { PatientDetail } from '../../api-types.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { PatientOverview } from '../../components/patient-overview.tsx';
import { endpoints, routes } from '../../paths.ts';

export default function AdminPatientProfilePage() {
  const { id } = useParams<{ id: string }>();
  const [patient, setPatient] = useState<PatientDetail | null>(null);
  useEffect(() => {
    apiGet<PatientDetail>(endpoints.admin.patient(id))
      .then(setPatient)
      .catch((error: unknown) => console.error('patient fetch failed', error));
  }, [id]);

  return (
    <>
      <PageHeader title="Patient Overview">
        <Link href={routes.admin.patients} className="button button-small">
          Patients
        </Link>
      </PageHeader>
      {patient && <PatientOverview patient={patient} showDescription />}
    </>
  );
}
