/** The front desk's end-of-day takings: one day's payments per method and their total, with the same as CSV. */
import { useCallback, useState } from 'react';
import type { TakingsJson } from '../../../domain/billing/billing-shapes.ts';
import { apiGet, type ListQuery, type Query } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { FilterForm, useFilteredList } from '../../components/list-filters.tsx';
import { localPage } from '../../components/local-page.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { METHOD_NAMES } from '../../components/pay-dialog.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { formatDate, usd } from '../../format.ts';
import { endpoints } from '../../paths.ts';

type TakingsRow = TakingsJson['methods'][number] | { method: 'total'; payments: number; amount_cents: number };

const COLUMNS: Column<TakingsRow>[] = [
  { header: 'Method', text: (row) => (row.method === 'total' ? 'Total' : METHOD_NAMES[row.method]) },
  { header: 'Payments', cell: (row) => row.payments },
  { header: 'Amount', cell: (row) => usd(row.amount_cents) },
];

export default function TakingsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [takings, setTakings] = useState<TakingsJson | null>(null);

  const load = useCallback(async (query: ListQuery & Query, signal: AbortSignal) => {
    const answer = await apiGet<TakingsJson>(endpoints.desk.takings, { date: query.date }, signal);
    setTakings(answer);
    const total: TakingsRow = { method: 'total', payments: answer.payments, amount_cents: answer.total_cents };
    return localPage<TakingsRow>([...answer.methods, total], query);
  }, []);
  const list = useFilteredList({
    names: ['date'],
    load,
    csvPath: endpoints.desk.takingsCsv,
    what: 'takings',
    setAlert,
  });

  return (
    <>
      <PageHeader title="Takings" />
      <Alert message={alert} onDismiss={dismiss} />
      <FilterForm label="Takings day" list={list}>
        {(draft, set) => (
          <Field label="Day" errors={list.errors.date}>
            {(control) => (
              <input {...control} type="date" value={draft.date} onChange={(e) => set('date', e.target.value)} />
            )}
          </Field>
        )}
      </FilterForm>
      <p className="muted">
        {takings
          ? `Payments taken on ${formatDate(takings.date)} (${takings.time_zone}), per method.`
          : 'Payments taken today, per method.'}
      </p>
      <DataTable
        label="Takings per method"
        columns={COLUMNS}
        load={list.load}
        rowKey={(row) => row.method}
        searchable={false}
        filterKey={list.filterKey}
        emptyText="No payments."
      />
    </>
  );
}
