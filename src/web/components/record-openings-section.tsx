import type { RecordOpeningJson } from '../../domain/care/care-shapes.ts';
import { listAt } from '../api.ts';
import { DataTable, type Column } from './data-table.tsx';
import { endpoints } from '../paths.ts';
import { formatDateTime } from '../format.ts';

const ROLE_NAMES: Record<string, string> = { doctor: 'Doctor', admin: 'Administrator' };

const columns: Column<RecordOpeningJson>[] = [
  { header: 'When', cell: (o) => formatDateTime(o.at) },
  { header: 'Who', text: (o) => o.by.name ?? 'A former member of staff' },
  { header: 'Role', text: (o) => ROLE_NAMES[o.by.role] ?? o.by.role, priority: 2 },
  { header: 'What', text: (o) => o.what },
  { header: 'Reason', text: (o) => o.reason ?? '' },
];

const loadOpenings = listAt<RecordOpeningJson>(endpoints.patient.recordOpenings, 'openings');

/** Who opened my record: every clinical read of the patient's record by staff, and each break of the glass with its reason. */
export function RecordOpeningsSection() {
  return (
    <section className="card account-section" aria-labelledby="record-openings-heading">
      <h2 id="record-openings-heading">Who opened my record</h2>
      <DataTable
        label="Openings of my record by staff"
        columns={columns}
        load={loadOpenings}
        rowKey={(o) => o.id}
        pageSize={10}
        searchable={false}
        emptyText="No one on the staff has opened your record yet."
      />
    </section>
  );
}
