/** The midnight census: per ward and day who was in a bed, admissions, discharges, transfers and occupancy, with totals. */
import type { Census, CensusDay, CensusWardTotal } from '../../../domain/inpatient/inpatient-shapes.ts';
import { Alert } from '../../components/alert.tsx';
import { Field } from '../../components/field.tsx';
import { FilterForm, useFilteredAnswer, useUrlFilters } from '../../components/list-filters.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { NamedSelect } from '../../components/named-select.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useAllRows } from '../../components/use-all-rows.ts';
import { ReportTable, type ReportColumn } from '../../components/report-table.tsx';
import { formatDate } from '../../format.ts';
import { endpoints } from '../../paths.ts';
import type { Department } from '../../../domain/catalogue/catalogue-shapes.ts';

const CENSUS_FILTERS = ['from', 'to', 'department_id'] as const;

const percent = (value: number | null) => (value === null ? '—' : `${value}%`);

const DAY_COLUMNS: ReportColumn<CensusDay>[] = [
  { header: 'Date', cell: (d) => formatDate(d.date) },
  { header: 'Ward', cell: (d) => d.department },
  { header: 'Beds', cell: (d) => d.beds, numeric: true },
  { header: 'In bed at midnight', cell: (d) => d.in_bed_at_midnight, numeric: true },
  { header: 'Admissions', cell: (d) => d.admissions, numeric: true },
  { header: 'Discharges', cell: (d) => d.discharges, numeric: true },
  { header: 'Transfers', cell: (d) => d.transfers, numeric: true },
  { header: 'Occupancy', cell: (d) => percent(d.occupancy_percent), numeric: true },
];

const TOTAL_COLUMNS: ReportColumn<CensusWardTotal>[] = [
  { header: 'Ward', cell: (w) => w.department },
  { header: 'Patient nights', cell: (w) => w.patient_nights, numeric: true },
  { header: 'Bed nights', cell: (w) => w.bed_nights, numeric: true },
  { header: 'Admissions', cell: (w) => w.admissions, numeric: true },
  { header: 'Discharges', cell: (w) => w.discharges, numeric: true },
  { header: 'Transfers', cell: (w) => w.transfers, numeric: true },
  { header: 'Occupancy', cell: (w) => percent(w.occupancy_percent), numeric: true },
  {
    header: 'Average stay (nights)',
    cell: (w) => (w.average_length_of_stay === null ? '—' : String(w.average_length_of_stay)),
    numeric: true,
  },
];

/** The census is one answer, not paged: every day and ward of the period, then the totals per ward, all at once. */
export default function CensusPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const wards = useAllRows<Department>(endpoints.admin.departments, 'departments');
  const filters = useUrlFilters({
    names: CENSUS_FILTERS,
    csvPath: endpoints.admin.censusCsv,
    what: 'census',
    setAlert,
  });
  const { loaded, retry } = useFilteredAnswer<Census>(endpoints.admin.census, 'census', filters);

  return (
    <>
      <PageHeader title="Census" />
      <Alert message={alert} onDismiss={dismiss} />
      <FilterForm label="Census period and ward" list={filters}>
        {(draft, set) => (
          <>
            <Field label="From" errors={filters.errors.from}>
              {(control) => (
                <input {...control} type="date" value={draft.from} onChange={(e) => set('from', e.target.value)} />
              )}
            </Field>
            <Field label="To" errors={filters.errors.to}>
              {(control) => (
                <input {...control} type="date" value={draft.to} onChange={(e) => set('to', e.target.value)} />
              )}
            </Field>
            <Field label="Ward" errors={filters.errors.department_id}>
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
      <PanelBody loaded={loaded} retry={retry} what="The census" skeleton={<div className="card skeleton-visit" />}>
        {(census) => (
          <>
            <p className="muted census-period">
              {formatDate(census.from)} to {formatDate(census.to)}: who was in a bed at each midnight (
              {census.time_zone}).
            </p>
            <ReportTable
              label="Census per day and ward"
              columns={DAY_COLUMNS}
              rows={census.days}
              rowKey={(d) => `${d.date} ${d.department_id}`}
              emptyText="No ward has beds."
            />
            <h2>Totals per ward</h2>
            <ReportTable
              label="Census totals per ward"
              columns={TOTAL_COLUMNS}
              rows={census.wards}
              rowKey={(w) => w.department_id}
              emptyText="No ward has beds."
            />
          </>
        )}
      </PanelBody>
    </>
  );
}
