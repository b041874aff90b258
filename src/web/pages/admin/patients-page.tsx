import { PageHeader } from '../../components/page-header.tsx';
import { PatientTable } from './patient-table.tsx';

export default function AdminPatientsPage() {
  return (
    <>
      <PageHeader title="Patients" />
      <PatientTable />
    </>
  );
}
