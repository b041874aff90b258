import { Link, useParams } from 'wouter';
import type { PatientDetailJson } from '../../../domain/records/records.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useFetched } from '../../components/use-fetched.ts';
import { PatientOverview } from '../../components/patient-overview.tsx';
import { endpoints, routes } from '../../paths.ts';

export default function DoctorPatientPage() {
  const { id } = useParams<{ id: string }>();
  const patient = useFetched<PatientDetailJson>(endpoints.doctor.patient(id), 'patient');

  return (
    <>
      <PageHeader title="Patient Overview">
        <Link href={routes.doctor.myPatients} className="button button-small">
          Patient List
        </Link>
      </PageHeader>
      {patient && <PatientOverview patient={patient} />}
    </>
  );
}
