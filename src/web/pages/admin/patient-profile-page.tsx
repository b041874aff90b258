import { Link, useParams } from 'wouter';
import type { PatientDetailJson } from '../../../domain/records/records.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useFetched } from '../../components/use-fetched.ts';
import { PatientOverview } from '../../components/patient-overview.tsx';
import { SignInHelp } from '../../components/sign-in-help.tsx';
import { endpoints, routes } from '../../paths.ts';

export default function AdminPatientProfilePage() {
  const { id } = useParams<{ id: string }>();
  const patient = useFetched<PatientDetailJson>(endpoints.admin.patient(id), 'patient');

  return (
    <>
      <PageHeader title="Patient Overview">
        {patient && <SignInHelp name={patient.name} email={patient.email} />}
        <Link href={routes.admin.patients} className="button button-small">
          Patients
        </Link>
      </PageHeader>
      {patient && <PatientOverview patient={patient} showDescription />}
    </>
  );
}
