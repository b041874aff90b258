import type { ReactNode } from 'react';
import type { AppointmentJson } from '../../domain/scheduling/scheduling-shapes.ts';
import type { ListPage, ListQuery } from '../api.ts';
import { DataTable, type Column } from './data-table.tsx';
import type { RowAction } from './row-actions.tsx';

interface AppointmentTableProps<A extends AppointmentJson> {
  label: string;
  columns: Column<A>[];
  load: (query: ListQuery, signal: AbortSignal) => Promise<ListPage<A>>;
  pageSize: number;
  reloadKey?: number;
  /** Change it when `load` filters differently: the table loads again from the first page. */
  filterKey?: string;
  actions?: (appointment: A) => RowAction[];
  /** Compact rows, for a list a desk wants many of on one screen. */
  dense?: boolean;
  rowClass?: (appointment: A) => string | undefined;
  /** What stands before the row's actions, such as the status of a visit that has none left. */
  actionsNote?: (appointment: A) => ReactNode;
  /** What stands below the table, shown with its first rows (see DataTable). */
  after?: ReactNode;
}

/** A role's appointments as a server-paged table. */
export function AppointmentTable<A extends AppointmentJson>({
  label,
  columns,
  load,
  pageSize,
  reloadKey,
  filterKey,
  actions,
  dense,
  rowClass,
  actionsNote,
  after,
}: AppointmentTableProps<A>) {
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
      actions={actions}
      dense={dense}
      rowClass={rowClass}
      actionsNote={actionsNote}
      after={after}
    />
  );
}
