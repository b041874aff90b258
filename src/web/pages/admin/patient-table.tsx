/** The admin's searchable patient list (dashboard and Patients page): View opens the patient overview. */
import { Link } from 'wouter';
import type { PatientRow } from '../../../domain/patients/ports.ts';
import { listAt } from '../../api.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { capitalize } from '../../format.ts';
import { endpoints, routes, withId } from '../../paths.ts';

const loadPatients = listAt<PatientRow>(endpoints.admin.patients, 'patients');

const columns: Column<PatientRow>[] = [
  { header: 'ID', cell: (p) => p.id, priority: 2 },
  { header: 'Name', text: (p) => p.name },
  { header: 'Email', text: (p) => p.email, priority: 2 },
  { header: 'Phone', cell: (p) => p.phone ?? '', priority: 3 },
  { header: 'Gender', cell: (p) => (p.gender ? capitalize(p.gender) : ''), priority: 3 },
  { header: 'Birth Date', cell: (p) => p.birthdate ?? '', priority: 3 },
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
