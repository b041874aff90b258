/**
 * The one table: the server pages, searches and counts (q, page, per_page); this shows one page with a
 * debounced search box, a page-size choice, '{first} - {last} of {total}' and a page jump. A total the server
 * counted only so far shows as '100+'; paging towards it counts further.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { EMPTY_LIST, type ListPage, type ListQuery } from '../api.ts';
import { useDelayed } from './use-delayed.ts';
import { useLatestRequest } from './use-latest-request.ts';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
}

interface DataTableProps<Row> {
  /** The table's caption and accessible name. */
  label: string;
  columns: Column<Row>[];
  load: (query: ListQuery, signal: AbortSignal) => Promise<ListPage<Row>>;
  rowKey: (row: Row) => string | number;
  pageSize?: number;
  emptyText?: string;
  /** Change it to fetch the current page again, e.g. after a row was cancelled or deleted. */
  reloadKey?: number;
  /** The page's own controls beside the search box, such as a status filter. */
  filters?: ReactNode;
  /** Change it when `load` filters differently: the table loads again from the first page. */
  filterKey?: string;
  /** Whether the list has a search box (its endpoint searches `q`). */
  searchable?: boolean;
}

const PAGE_SIZES = [10, 20, 30, 40, 50];
const SEARCH_DELAY_MS = 400;
const PAGE_JUMP_DELAY_MS = 500;

export function DataTable<Row>({
  label,
  columns,
  load,
  rowKey,
  pageSize = 10,
  emptyText = 'No records found.',
  reloadKey = 0,
  filters,
  filterKey = '',
  searchable = true,
}: DataTableProps<Row>) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(pageSize);
  const [jump, setJump] = useState('');
  const [result, setResult] = useState<ListPage<Row>>(EMPTY_LIST);
  const [loading, setLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;
  const latest = useLatestRequest();

  useDelayed(search, SEARCH_DELAY_MS, (text) => {
    setQ(text.trim());
    setPage(1);
  });

  const pageCount = Math.max(1, Math.ceil(result.total / perPage));

  useEffect(() => setPage(1), [filterKey]);

  useDelayed(jump, PAGE_JUMP_DELAY_MS, (text) => {
    const wanted = Number(text);
    if (Number.isInteger(wanted) && wanted >= 1 && wanted <= pageCount) setPage(wanted);
  });

  useEffect(() => {
    setLoading(true);
    latest.start(
      (signal) => loadRef.current({ q, page, per_page: perPage }, signal),
      (next) => {
        // A page emptied by a delete or cancel steps back to the last page that still has rows.
        const lastPage = Math.max(1, Math.ceil(next.total / perPage));
        if (next.rows.length === 0 && page > lastPage) setPage(lastPage);
        else setResult(next);
        setLoading(false);
      },
      (error) => {
        // List fetch failures leave the table empty (spec §8).
        console.error(`${label}: loading failed`, error);
        setResult(EMPTY_LIST);
        setLoading(false);
      },
    );
  }, [latest, q, page, perPage, reloadKey, filterKey, label]);

  const first = result.total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, result.total);
  const sizes = PAGE_SIZES.includes(pageSize) ? PAGE_SIZES : [pageSize, ...PAGE_SIZES].sort((a, b) => a - b);

  return (
    <div className="data-table">
      {(searchable || filters) && (
        <div className="data-table-toolbar">
          {searchable && (
            <>
              <label htmlFor={`${id}-search`}>Search</label>
              <input
                id={`${id}-search`}
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                placeholder="Search…"
              />
            </>
          )}
          {filters}
        </div>
      )}
      <div className="table-scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table aria-busy={loading}>
          <caption id={`${id}-caption`}>{label}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col">
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.header} data-label={column.header}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
            {!loading && result.rows.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="table-empty">
                  {emptyText}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <nav className="data-table-pager" aria-label={`${label} pages`}>
        <p className="page-info" aria-live="polite">
          {first} - {last} of {result.total}
          {result.totalIsLowerBound && '+'}
        </p>
        <div className="pager-group">
          <label htmlFor={`${id}-size`}>Rows per page</label>
          <select
            id={`${id}-size`}
            value={perPage}
            onChange={(event) => {
              setPerPage(Number(event.target.value));
              setPage(1);
            }}
          >
            {sizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <div className="pager-group">
          <button type="button" className="button button-small" onClick={() => setPage(1)} disabled={page <= 1} aria-label="First page">
            «
          </button>
          <button type="button" className="button button-small" onClick={() => setPage(page - 1)} disabled={page <= 1} aria-label="Previous page">
            ‹
          </button>
          <span className="page-number">
            Page {page} of {pageCount}
            {result.totalIsLowerBound && '+'}
          </span>
          <button type="button" className="button button-small" onClick={() => setPage(page + 1)} disabled={page >= pageCount} aria-label="Next page">
            ›
          </button>
          <button type="button" className="button button-small" onClick={() => setPage(pageCount)} disabled={page >= pageCount} aria-label="Last page">
            »
          </button>
        </div>
        <div className="pager-group">
          <label htmlFor={`${id}-jump`}>Go to page</label>
          <input
            id={`${id}-jump`}
            className="page-jump"
            type="number"
            inputMode="numeric"
            min={1}
            max={pageCount}
            value={jump}
            onChange={(event) => setJump(event.target.value)}
          />
        </div>
      </nav>
    </div>
  );
}
