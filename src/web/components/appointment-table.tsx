import type { SchemaAppointment as AppointmentJson } from '../api-wire.gen.ts';
import type { ListPage, ListQuery } from '../api.ts';
import { DataTable, type Column } from './data-table.tsx';

interface AppointmentTableProps<A extends AppointmentJson> {
  label: string;
  columns: Column<A>[];
  load: (query: ListQuery, signal: AbortSignal) => Promise<ListPage<A>>;
  pageSize: number;
  reloadKey?: number;
  /** Change it when `load` filters differently: the table loads again from the first page. */
  filterKey?: string;
}

/** A role's appointments as a server-paged table. */
export function AppointmentTable<A extends AppointmentJson>({ label, columns, load, pageSize, reloadKey, filterKey }: AppointmentTableProps<A>) {
  return (
    <DataTable
      label={label}
      columns={columns}
      load={load}
      rowKey={(a) => a.id}
      pageSize={pageSize}
      emptyText="No appointments found."
      reloadKey={reloadKey}
      filterKey={filterKey}
    />
  );
}
