/** The midnight census: per ward and day who was in a bed, admissions, discharges, transfers and occupancy, with totals. */
import { useCallback, useState } from 'react';
import type { Census, CensusDay, CensusWardTotal } from '../../../domain/inpatient/inpatient-shapes.ts';
import { apiGet, type ListQuery, type Query } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Field } from '../../components/field.tsx';
import { FilterForm, useFilteredList } from '../../components/list-filters.tsx';
import { localPage } from '../../components/local-page.ts';
import { NamedSelect } from '../../components/named-select.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useAllRows } from '../../components/use-all-rows.ts';
import { formatDate } from '../../format.ts';
import { endpoints } from '../../paths.ts';
import type { Department } from '../../../domain/catalogue/catalogue-shapes.ts';

const CENSUS_FILTERS = ['from', 'to', 'department_id'] as const;

const percent = (value: number | null) => (value === null ? '—' : `${value}%`);

const DAY_COLUMNS: Column<CensusDay>[] = [
  { header: 'Date', text: (d) => formatDate(d.date) },
  { header: 'Ward', text: (d) => d.department },
  { header: 'Beds', cell: (d) => d.beds, priority: 2 },
  { header: 'In bed at midnight', cell: (d) => d.in_bed_at_midnight },
  { header: 'Admissions', cell: (d) => d.admissions, priority: 2 },
  { header: 'Discharges', cell: (d) => d.discharges, priority: 2 },
  { header: 'Transfers', cell: (d) => d.transfers, priority: 3 },
  { header: 'Occupancy', text: (d) => percent(d.occupancy_percent) },
];

const TOTAL_COLUMNS: Column<CensusWardTotal>[] = [
  { header: 'Ward', text: (w) => w.department },
  { header: 'Patient nights', cell: (w) => w.patient_nights },
  { header: 'Bed nights', cell: (w) => w.bed_nights, priority: 2 },
  { header: 'Admissions', cell: (w) => w.admissions, priority: 2 },
  { header: 'Discharges', cell: (w) => w.discharges, priority: 2 },
  { header: 'Transfers', cell: (w) => w.transfers, priority: 3 },
  { header: 'Occupancy', text: (w) => percent(w.occupancy_percent) },
  {
    header: 'Average stay (nights)',
    text: (w) => (w.average_length_of_stay === null ? '—' : String(w.average_length_of_stay)),
  },
];

export default function CensusPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [census, setCensus] = useState<Census | null>(null);
  const wards = useAllRows<Department>(endpoints.admin.departments, 'departments');

  // The census is one answer, not paged: each page of the days table asks for it, and the totals read the last one.
  const loadDays = useCallback(async (query: ListQuery & Query, signal: AbortSignal) => {
    const { from, to, department_id } = query;
    const answer = await apiGet<Census>(endpoints.admin.census, { from, to, department_id }, signal);
    setCensus(answer);
    return localPage(answer.days, query);
  }, []);
  const list = useFilteredList({
    names: CENSUS_FILTERS,
    load: loadDays,
    csvPath: endpoints.admin.censusCsv,
    what: 'census',
    setAlert,
  });
  const loadTotals = useCallback(
    (query: ListQuery) => Promise.resolve(localPage(census?.wards ?? [], query)),
    [census],
  );

  return (
    <>
      <PageHeader title="Census" />
      <Alert message={alert} onDismiss={dismiss} />
      <FilterForm label="Census period and ward" list={list}>
        {(draft, set) => (
          <>
            <Field label="From" errors={list.errors.from}>
              {(control) => (
                <input {...control} type="date" value={draft.from} onChange={(e) => set('from', e.target.value)} />
              )}
            </Field>
            <Field label="To" errors={list.errors.to}>
              {(control) => (
                <input {...control} type="date" value={draft.to} onChange={(e) => set('to', e.target.value)} />
              )}
            </Field>
            <Field label="Ward" errors={list.errors.department_id}>
              {(control) => (
                <NamedSelect
                  control={control}
                  placeholder="All wards"
                  options={wards}
                  value={draft.department_id ?? ''}
                  onChange={(id) => set('department_id', id)}
                />
              )}
            </Field>
          </>
        )}
      </FilterForm>
      <p className="muted census-period">
        {census ? `${formatDate(census.from)} to ${formatDate(census.to)}: who` : 'Who'} was in a bed at each midnight
        {census ? ` (${census.time_zone})` : ''}.
      </p>
      <DataTable
        label="Census per day and ward"
        columns={DAY_COLUMNS}
        load={list.load}
        rowKey={(d) => `${d.date} ${d.department_id}`}
        searchable={false}
        filterKey={list.filterKey}
        emptyText="No ward has beds."
      />
      {/* The totals come with the census, below everything else, so a days table shorter than its skeleton moves nothing. */}
      {census && (
        <>
          <h2>Totals per ward</h2>
          <DataTable
            label="Census totals per ward"
            columns={TOTAL_COLUMNS}
            load={loadTotals}
            rowKey={(w) => w.department_id}
            searchable={false}
            filterKey={JSON.stringify(census)}
            emptyText="No ward has beds."
          />
        </>
      )}
    </>
  );
}
