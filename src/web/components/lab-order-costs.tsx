/** A patient's lab orders as the desk sees them: that each exists and what it costs, never a result. */
import { fetchList, type ListQuery } from '../api.ts';
import { formatDateTime } from '../format.ts';
import { endpoints } from '../paths.ts';
import { DataTable, type Column } from './data-table.tsx';
import type { OrderCostJson } from './lab-labels.ts';

const columns: Column<OrderCostJson>[] = [
  { header: 'Order', text: (o) => o.order_number },
  { header: 'Ordered', text: (o) => formatDateTime(o.ordered_at), priority: 2 },
  { header: 'Doctor', text: (o) => o.doctor, priority: 3 },
  {
    header: 'Tests',
    text: (o) => o.tests.map((t) => `${t.name} $${t.price}${t.voided ? ' (voided)' : ''}`).join(', '),
  },
  { header: 'Total', text: (o) => `$${o.total}` },
  { header: 'Status', text: (o) => (o.cancelled ? 'Cancelled' : 'Ordered'), priority: 2 },
];

export function LabOrderCosts({ patientId }: { patientId: number }) {
  const load = (query: ListQuery, signal: AbortSignal) =>
    fetchList<OrderCostJson>(endpoints.lab.orderCosts, 'orders', { ...query, patient_id: patientId }, signal);
  return (
    <DataTable
      label="The patient's lab orders"
      columns={columns}
      load={load}
      rowKey={(o) => o.id}
      emptyText="No lab orders."
      searchable={false}
    />
  );
}
