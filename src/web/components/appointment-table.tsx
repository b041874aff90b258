import type { AppointmentJson } from '../../domain/scheduling/scheduling.ts';
import type { ListPage, ListQuery } from '../api.ts';
import { DataTable, type Column } from './data-table.tsx';

interface AppointmentTableProps {
  label: string;
  columns: Column<AppointmentJson>[];
  load: (query: ListQuery, signal: AbortSignal) => Promise<ListPage<AppointmentJson>>;
  pageSize: number;
  reloadKey?: number;
}

/** A role's appointments as a server-paged table. */
export function AppointmentTable({ label, columns, load, pageSize, reloadKey }: AppointmentTableProps) {
  return <DataTable label={label} columns={columns} load={load} rowKey={(a) => a.id} pageSize={pageSize} emptyText="No appointments found." reloadKey={reloadKey} />;
}
