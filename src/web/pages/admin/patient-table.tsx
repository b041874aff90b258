/** The admin's searchable patient list (dashboard and Patients page): View opens the patient overview. */
import { Link } from 'wouter';
import { fetchList, type ListQuery } from '../../api.ts';
import type { PatientRow } from '../../api-types.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { capitalize } from '../../format.ts';
import { endpoints, routes, withId } from '../../paths.ts';

const loadPatients = (query: ListQuery) => fetchList<PatientRow>(endpoints.admin.patients, 'patients', query);

const columns: Column<PatientRow>[] = [
  { header: 'ID', cell: (p) => p.id },
  { header: 'Name', cell: (p) => p.name },
  { header: 'Email', cell: (p) => p.email },
  { header: 'Phone', cell: (p) => p.phone ?? '' },
  { header: 'Gender', cell: (p) => (p.gender ? capitalize(p.gender) : '') },
  { header: 'Birth Date', cell: (p) => p.birthdate ?? '' },
  {
    header: 'Actions',
    cell: (p) => (
      <Link href={withId(routes.admin.patientProfile, p.id)} className="button button-small" aria-label={`View ${p.name}`}>
        View
      </Link>
    ),
  },
];

export function PatientTable() {
  return <DataTable label="Patients" columns={columns} load={loadPatients} rowKey={(p) => p.id} emptyText="No patients found." />;
}
