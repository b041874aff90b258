import { PageHeader } from '../../components/page-header.tsx';

// The page body comes with issue 7 (Web UI, part 2).
export default function AdminPatientsPage() {
  return <PageHeader title="Patients" />;
}
