import type { BreakGlassJson } from '../../../domain/care/care-shapes.ts';
import { listAt } from '../../api.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { endpoints } from '../../paths.ts';
import { formatDateTime } from '../../format.ts';

const columns: Column<BreakGlassJson>[] = [
  { header: 'Opened', cell: (a) => formatDateTime(a.opened_at) },
  { header: 'Doctor', text: (a) => `${a.doctor.name} (#${a.doctor.id})` },
  { header: 'Patient', text: (a) => `${a.patient.name} (#${a.patient.id})` },
  { header: 'Reason', text: (a) => a.reason },
  { header: 'Until', cell: (a) => formatDateTime(a.expires_at), priority: 2 },
];

const loadAccesses = listAt<BreakGlassJson>(endpoints.admin.breakGlass, 'accesses');

/** Access outside the care team: every record a doctor opened by breaking the glass, with their reason. */
export default function AdminBreakGlassPage() {
  return (
    <>
      <PageHeader title="Access outside the care team" />
      <DataTable
        label="Access outside the care team"
        columns={columns}
        load={loadAccesses}
        rowKey={(a) => a.id}
        pageSize={20}
        emptyText="No doctor has opened a record outside their care team."
      />
    </>
  );
}
