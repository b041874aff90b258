/**
 * The admin's filters over a list (appointments, bills, the audit trail), kept in the page's URL query so a reload
 * or a shared link shows the same rows, and a CSV download of exactly those rows, the table's search included.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { FieldErrors } from '../../domain/shared/errors.ts';
import { ApiError, apiGet, downloadFile, type ListPage, type ListQuery, type Query } from '../api.ts';
import { capitalize } from '../format.ts';
import { failure, type AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { NamedSelect } from './named-select.tsx';
import { useAllRows } from './use-all-rows.ts';
import { loadedOf } from './use-fetched.ts';
import { useRequest } from './use-request.ts';
import { endpoints } from '../paths.ts';
import type { Department, Doctor } from '../../domain/catalogue/catalogue-shapes.ts';

/** Filters by their query names; '' for one not set. */
export type Filters = Record<string, string>;

const fromSearch = (search: string, names: readonly string[]): Filters => {
  const params = new URLSearchParams(search);
  return Object.fromEntries(names.map((name) => [name, params.get(name) ?? '']));
};

/** The filters that are set, as query parameters. */
const given = (values: Filters): Filters =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));

interface UrlFilterOptions {
  /** The filters' query names. */
  names: readonly string[];
  csvPath: string;
  /** What the list holds, for the download's failure message: 'appointments'. */
  what: string;
  setAlert: (message: AlertMessage) => void;
}

/** The filters in the URL, applied by changing it, and a download of the rows they filter (`q` as last searched). */
export function useUrlFilters({ names, csvPath, what, setAlert }: UrlFilterOptions) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const applied = fromSearch(search, names);
  const appliedKey = JSON.stringify(given(applied));
  const [errors, setErrors] = useState<FieldErrors>({});
  // The table's search as it last loaded, so the file holds what the table shows.
  const searched = useRef('');

  const apply = (values: Filters) => {
    const params = new URLSearchParams(search);
    for (const name of names) params.delete(name);
    for (const [name, value] of Object.entries(given(values))) params.set(name, value);
    const query = params.toString();
    navigate(query ? `${location}?${query}` : location, { replace: true });
  };

  const download = async (values: Filters) => {
    apply(values);
    try {
      await downloadFile(csvPath, { ...given(values), ...(searched.current ? { q: searched.current } : {}) });
      setErrors({});
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) setErrors(error.errors);
      else setAlert(failure(`The ${what} could not be downloaded. Please try again.`));
    }
  };

  return { applied, filterKey: appliedKey, errors, setErrors, searched, apply, download };
}

/** A refusal of the filters names them by field; any other failure the caller shows itself. */
const fieldErrorsTo =
  (setErrors: (errors: FieldErrors) => void, signal: AbortSignal) =>
  (error: unknown): never => {
    if (!signal.aborted && error instanceof ApiError && error.status === 422) setErrors(error.errors);
    throw error;
  };

/** What `path` answers (a report, not paged) for the filters in the URL; a filter the server refuses is shown by its field. */
export function useFilteredAnswer<T>(path: string, what: string, filters: ReturnType<typeof useUrlFilters>) {
  const { filterKey, setErrors } = filters;
  const { last, failed, retry } = useRequest(what, `${path} ${filterKey}`, (signal) =>
    apiGet<T>(path, JSON.parse(filterKey) as Filters, signal).then(
      (answer) => {
        setErrors({});
        return answer;
      },
      fieldErrorsTo(setErrors, signal),
    ),
  );
  return { loaded: loadedOf(last, failed), retry };
}

interface FilteredListOptions<Row> extends UrlFilterOptions {
  load: (query: ListQuery & Query, signal: AbortSignal) => Promise<ListPage<Row>>;
}

/**
 * The filters in the URL, a DataTable loader that applies them, and a download of the same rows; a filter the
 * server refuses is shown by its field.
 */
export function useFilteredList<Row>({ load, ...options }: FilteredListOptions<Row>) {
  const { searched, setErrors, ...filters } = useUrlFilters(options);
  const appliedKey = filters.filterKey;

  // A filter the server refuses is shown by its field; any other failure the table shows itself, with Retry.
  const filteredLoad = useCallback(
    (query: ListQuery, signal: AbortSignal) => {
      searched.current = query.q;
      return load({ ...query, ...(JSON.parse(appliedKey) as Filters) }, signal).then(
        (page) => {
          setErrors({});
          return page;
        },
        fieldErrorsTo(setErrors, signal),
      );
    },
    [load, appliedKey, searched, setErrors],
  );

  return { ...filters, load: filteredLoad };
}

/** The query names of the filters `ListFilters` offers. */
export const VISIT_FILTERS = ['from', 'to', 'doctor_id', 'department_id', 'status'] as const;

type FilteredList = Pick<ReturnType<typeof useFilteredList>, 'applied' | 'apply' | 'download' | 'errors'>;

interface FilterFormProps {
  /** The form's accessible name: 'Filter appointments'. */
  label: string;
  list: FilteredList;
  /** The fields, given the draft and its setter. */
  children: (draft: Filters, set: (name: string, value: string) => void) => ReactNode;
}

/** A filter form holding a draft of the applied filters, with Apply, Clear and Download CSV. */
export function FilterForm({ label, list, children }: FilterFormProps) {
  const [draft, setDraft] = useState<Filters>(list.applied);
  const appliedKey = JSON.stringify(list.applied);

  // The URL changed under the form (back, forward): the form shows what the list shows.
  useEffect(() => setDraft(JSON.parse(appliedKey) as Filters), [appliedKey]);

  const set = (name: string, value: string) => setDraft((was) => ({ ...was, [name]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    list.apply(draft);
  };
  const clear = () => {
    const none = Object.fromEntries(Object.keys(draft).map((name) => [name, '']));
    setDraft(none);
    list.apply(none);
  };

  return (
    <form className="list-filters" aria-label={label} onSubmit={submit}>
      {children(draft, set)}
      <div className="list-filter-actions">
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        <button type="button" className="button" onClick={clear}>
          Clear
        </button>
        <button type="button" className="button" onClick={() => void list.download(draft)}>
          Download CSV
        </button>
      </div>
    </form>
  );
}

interface ListFiltersProps extends Omit<FilterFormProps, 'children'> {
  statuses: readonly string[];
}

/** The date range, doctor, department and status of a list of appointments or bills. */
export function ListFilters({ statuses, ...form }: ListFiltersProps) {
  const { errors } = form.list;
  const doctors = useAllRows<Doctor>(endpoints.admin.doctors, 'doctors');
  const departments = useAllRows<Department>(endpoints.admin.departments, 'departments');

  return (
    <FilterForm {...form}>
      {(draft, set) => (
        <>
          <Field label="From" errors={errors.from}>
            {(control) => (
              <input
                {...control}
                name="from"
                type="date"
                value={draft.from}
                onChange={(e) => set('from', e.target.value)}
              />
            )}
          </Field>
          <Field label="To" errors={errors.to}>
            {(control) => (
              <input {...control} name="to" type="date" value={draft.to} onChange={(e) => set('to', e.target.value)} />
            )}
          </Field>
          <Field label="Doctor" errors={errors.doctor_id}>
            {(control) => (
              <NamedSelect
                control={control}
                placeholder="All doctors"
                options={doctors}
                value={draft.doctor_id ?? ''}
                onChange={(id) => set('doctor_id', id)}
              />
            )}
          </Field>
          <Field label="Department" errors={errors.department_id}>
            {(control) => (
              <NamedSelect
                control={control}
                placeholder="All departments"
                options={departments}
                value={draft.department_id ?? ''}
                onChange={(id) => set('department_id', id)}
              />
            )}
          </Field>
          <Field label="Status" errors={errors.status}>
            {(control) => (
              <select {...control} name="status" value={draft.status} onChange={(e) => set('status', e.target.value)}>
                <option value="">Any status</option>
                {statuses.map((status) => (
                  <option key={status} value={status}>
                    {capitalize(status)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      )}
    </FilterForm>
  );
}
