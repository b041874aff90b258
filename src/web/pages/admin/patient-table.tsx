/** The searchable patient list of the admin (dashboard and Patients page) and the front desk: View opens the patient. */
import { Link } from 'wouter';
import type { PatientRow } from '../../../domain/patients/ports.ts';
import { listAt } from '../../api.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { capitalize, emailOrNone } from '../../format.ts';
import { endpoints, routes, withId } from '../../paths.ts';

const columns = (profile: string): Column<PatientRow>[] => [
  { header: 'ID', cell: (p) => p.id, priority: 2 },
  { header: 'Name', text: (p) => p.name },
  { header: 'Email', text: (p) => emailOrNone(p.email), priority: 2 },
  { header: 'Phone', cell: (p) => p.phone ?? '', priority: 3 },
  { header: 'Gender', cell: (p) => (p.gender ? capitalize(p.gender) : ''), priority: 3 },
  { header: 'Birth Date', cell: (p) => p.birthdate ?? '', priority: 3 },
  { header: 'No-shows', cell: (p) => p.no_shows, priority: 2 },
  {
    header: 'Actions',
    cell: (p) => (
      <Link href={withId(profile, p.id)} className="button button-small" aria-label={`View ${p.name}`}>
        View
      </Link>
    ),
  },
];

/** The admin's list opens the patient with their records; the desk's opens the desk's page of them. */
const LISTS = {
  admin: { load: listAt<PatientRow>(endpoints.admin.patients, 'patients'), columns: columns(routes.admin.patientProfile) },
  desk: { load: listAt<PatientRow>(endpoints.desk.patients, 'patients'), columns: columns(routes.reception.patient) },
};

export function PatientTable({ of = 'admin', reloadKey }: { of?: keyof typeof LISTS; reloadKey?: number }) {
  const { load, columns: cols } = LISTS[of];
  return <DataTable label="Patients" columns={cols} load={load} rowKey={(p) => p.id} emptyText="No patients found." reloadKey={reloadKey} />;
}
