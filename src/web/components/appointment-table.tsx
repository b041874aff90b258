import { fetchList, type ListPage, type ListQuery } from '../api.ts';
import type { Appointment } from '../api-types.ts';
import { DataTable, type Column } from './data-table.tsx';

/** The loader of an appointments list endpoint, for `AppointmentTable`. */
export const appointmentsAt = (path: string) => (query: ListQuery) => fetchList<Appointment>(path, 'appointments', query);

interface AppointmentTableProps {
  label: string;
  columns: Column<Appointment>[];
  load: (query: ListQuery) => Promise<ListPage<Appointment>>;
  pageSize: number;
  reloadKey?: number;
}

/** A role's appointments as a server-paged table. */
export function AppointmentTable({ label, columns, load, pageSize, reloadKey }: AppointmentTableProps) {
  return <DataTable label={label} columns={columns} load={load} rowKey={(a) => a.id} pageSize={pageSize} emptyText="No appointments found." reloadKey={reloadKey} />;
}
