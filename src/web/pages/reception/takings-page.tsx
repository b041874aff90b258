/**
 * The front desk's end-of-day takings: one day's payments per method and their total, then each payment (time,
 * patient, bill, method, amount, who took it), to print under the letterhead or download as CSV.
 */
import type { TakingsJson } from '../../../domain/billing/billing-shapes.ts';
import { Alert } from '../../components/alert.tsx';
import { Field } from '../../components/field.tsx';
import { FilterForm, useFilteredAnswer, useUrlFilters } from '../../components/list-filters.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { METHOD_NAMES } from '../../components/pay-dialog.tsx';
import { PrintButton } from '../../components/print-button.tsx';
import { PrintHead, useClinic } from '../../components/printout.tsx';
import { ReportTable } from '../../components/report-table.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { formatDate, formatInstantTime, usd } from '../../format.ts';
import { endpoints } from '../../paths.ts';

type MethodRow = TakingsJson['methods'][number];
type PaymentRow = TakingsJson['taken'][number];

export default function TakingsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const filters = useUrlFilters({ names: ['date'], csvPath: endpoints.desk.takingsCsv, what: 'takings', setAlert });
  const { loaded, retry } = useFilteredAnswer<TakingsJson>(endpoints.desk.takings, 'takings', filters);
  const clinic = useClinic();

  return (
    <>
      <PageHeader title="Takings">{loaded.state === 'loaded' && <PrintButton />}</PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      <FilterForm label="Takings day" list={filters}>
        {(draft, set) => (
          <Field label="Day" errors={filters.errors.date}>
            {(control) => (
              <input {...control} type="date" value={draft.date} onChange={(e) => set('date', e.target.value)} />
            )}
          </Field>
        )}
      </FilterForm>
      <PanelBody loaded={loaded} retry={retry} what="The takings" skeleton={<div className="card skeleton-visit" />}>
        {(takings) => (
          <div className="printout takings">
            <div className="print-only">
              <PrintHead
                title="Takings"
                clinic={clinic}
                dated={{ label: 'Day', value: `${formatDate(takings.date)} (${takings.time_zone})` }}
              />
            </div>
            <p className="muted no-print">
              Payments taken on {formatDate(takings.date)} ({takings.time_zone}), per method.
            </p>
            <ReportTable<MethodRow>
              label="Takings per method"
              rows={takings.methods}
              rowKey={(m) => m.method}
              columns={[
                { header: 'Method', cell: (m) => METHOD_NAMES[m.method] },
                { header: 'Payments', cell: (m) => m.payments, numeric: true },
                { header: 'Amount', cell: (m) => usd(m.amount_cents), numeric: true },
              ]}
              footer={['Total', takings.payments, usd(takings.total_cents)]}
            />
            <ReportTable<PaymentRow>
              label="Payments taken"
              rows={takings.taken}
              rowKey={(p) => p.id}
              emptyText="No payments taken on this day."
              columns={[
                { header: 'Time', cell: (p) => formatInstantTime(p.paid_at) },
                { header: 'Patient', cell: (p) => p.patient.name },
                { header: 'Bill', cell: (p) => p.bill_number },
                { header: 'Method', cell: (p) => METHOD_NAMES[p.method] },
                { header: 'Amount', cell: (p) => usd(p.amount_cents), numeric: true },
                { header: 'Taken by', cell: (p) => p.taken_by ?? 'Online' },
              ]}
            />
          </div>
        )}
      </PanelBody>
    </>
  );
}
