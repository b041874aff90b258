/** The searchable patient list of the admin (dashboard and Patients page) and the front desk: View opens the patient. */
import type { PatientRow } from '../../../domain/patients/patients-shapes.ts';
import { listAt } from '../../api.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { capitalize, emailOrNone, formatDate } from '../../format.ts';
import { endpoints, routes, withId } from '../../paths.ts';

const columns: Column<PatientRow>[] = [
  { header: 'ID', cell: (p) => p.id, priority: 2 },
  { header: 'Name', text: (p) => p.name },
  { header: 'Email', text: (p) => emailOrNone(p.email), priority: 2 },
  { header: 'Phone', cell: (p) => p.phone ?? '', priority: 2 },
  { header: 'Gender', cell: (p) => (p.gender ? capitalize(p.gender) : ''), priority: 2 },
  { header: 'Birth Date', cell: (p) => (p.birthdate ? formatDate(p.birthdate) : ''), priority: 2 },
  { header: 'No-shows', cell: (p) => p.no_shows, priority: 3 },
];
const actions =
  (profile: string) =>
  (p: PatientRow): RowAction[] => [{ label: 'View', name: `View ${p.name}`, href: withId(profile, p.id) }];

/** The admin's list opens the patient with their records; the desk's opens the desk's page of them. */
const LISTS = {
  admin: {
    load: listAt<PatientRow>(endpoints.admin.patients, 'patients'),
    actions: actions(routes.admin.patientProfile),
  },
  desk: { load: listAt<PatientRow>(endpoints.desk.patients, 'patients'), actions: actions(routes.reception.patient) },
};

export function PatientTable({ of = 'admin', reloadKey }: { of?: keyof typeof LISTS; reloadKey?: number }) {
  const { load, actions: rowActions } = LISTS[of];
  return (
    <DataTable
      label="Patients"
      columns={columns}
      load={load}
      rowKey={(p) => p.id}
      emptyText="No patients found."
      reloadKey={reloadKey}
      actions={rowActions}
    />
  );
}
