/**
 * The one table: the server pages, searches and counts (q, page, per_page); this shows one page with a
 * debounced search box, a page-size choice, '{first} - {last} of {total}' and a page jump. A total the server
 * counted only so far shows as '100+'; paging towards it counts further. While the first page loads, skeleton
 * rows of the page size hold its place and the pager is not there yet, so nothing moves when the rows arrive.
 * Each row's actions stand last, as two controls at most (see RowActions), with the row's Details: every column's
 * label and value, so a column hidden for want of room, which the caption names, is still one click away.
 */
import { Fragment, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { ListPage, ListQuery } from '../api.ts';
import { Dialog } from './dialog.tsx';
import { LoadFailure, LoadingStatus } from './list-states.tsx';
import { RowActions, type RowAction } from './row-actions.tsx';
import { useDelayed } from './use-delayed.ts';
import { useFittedColumns } from './use-fitted-columns.ts';
import { useListRequest } from './use-list-request.ts';

interface ColumnBase {
  header: string;
  /**
   * 1 (the default): always shown. When the table is too wide for its box, priority 3 columns hide first, then
   * priority 2. Phones show every column, each row as a card.
   */
  priority?: 1 | 2 | 3;
}

/** A column of any content, or of free text cut to one line with the whole of it on hover and focus. */
export type Column<Row> = ColumnBase & ({ cell: (row: Row) => ReactNode } | { text: (row: Row) => string });

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
  /** The row's actions, the main one first; the rest go into its menu. */
  actions?: (row: Row) => RowAction[];
  /** Names the row to its menu and details; by default its first text column. */
  rowName?: (row: Row) => string;
  /** What stands before the row's actions, such as the status of a visit that has none left. */
  actionsNote?: (row: Row) => ReactNode;
  /** Compact rows and toolbar, for a list a desk wants many of on one screen. */
  dense?: boolean;
  /** A class of the row's own, such as a marker drawn above it. */
  rowClass?: (row: Row) => string | undefined;
  /** What stands below the table, shown with its first rows: standing earlier, it would move when they arrive. */
  after?: ReactNode;
}

const SEARCH_DELAY_MS = 400;
/** More placeholder rows than a screen holds would only move what stands below the table when the rows arrive. */
const MAX_SKELETON_ROWS = 20;

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
  actions = () => [],
  rowName,
  actionsNote,
  dense = false,
  rowClass,
  after,
}: DataTableProps<Row>) {
  const id = useId();
  const [details, setDetails] = useState<Row | null>(null);
  const nameOf = rowName ?? defaultRowName(columns, rowKey);
  const withActions: Column<Row>[] = [
    ...columns,
    {
      header: 'Actions',
      cell: (row) => (
        <RowActions
          actions={actions(row)}
          rowName={nameOf(row)}
          onDetails={() => setDetails(row)}
          note={actionsNote?.(row)}
        />
      ),
    },
  ];
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(pageSize);
  const box = useRef<HTMLElement>(null);

  useDelayed(search, SEARCH_DELAY_MS, (text) => {
    setQ(text.trim());
    setPage(1);
  });

  useEffect(() => setPage(1), [filterKey]);

  const { list, loading, failed, retry } = useListRequest(
    label,
    JSON.stringify([q, page, perPage, reloadKey, filterKey]),
    (signal) => load({ q, page, per_page: perPage }, signal),
    (answer) => {
      // A page emptied by a delete or cancel steps back to the last page that still has rows.
      const lastPage = Math.max(1, Math.ceil(answer.total / perPage));
      if (answer.rows.length > 0 || page <= lastPage) return true;
      setPage(lastPage);
      return false;
    },
  );

  const hidden = useFittedColumns(box, list);

  return (
    <div className={dense ? 'data-table data-table-dense' : 'data-table'}>
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
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways takes the focus, so the keyboard can scroll it (WCAG 2.1.1) */}
      <section ref={box} className="table-scroll" aria-labelledby={`${id}-caption`} tabIndex={0}>
        <table
          aria-busy={loading}
          aria-labelledby={`${id}-caption`}
          aria-describedby={hidden.length > 0 ? `${id}-hidden` : undefined}
        >
          <caption>
            <span className="caption-row">
              <span id={`${id}-caption`}>{label}</span>
              {hidden.length > 0 && (
                <span id={`${id}-hidden`} className="hidden-columns">
                  {hidden.length} more {hidden.length === 1 ? 'column' : 'columns'} in each row's Details:{' '}
                  {hidden.join(', ')}
                </span>
              )}
            </span>
          </caption>
          <thead>
            <tr>
              {withActions.map((column) => (
                <th key={column.header} scope="col" className={priorityClass(column)}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {failed ? (
              <WholeRow columns={withActions}>
                <LoadFailure what={label} onRetry={retry} />
              </WholeRow>
            ) : list === null ? (
              <SkeletonRows columns={withActions} count={Math.min(perPage, MAX_SKELETON_ROWS)} />
            ) : list.rows.length === 0 ? (
              <WholeRow columns={withActions}>{emptyText}</WholeRow>
            ) : (
              list.rows.map((row) => (
                <tr key={rowKey(row)} className={rowClass?.(row)}>
                  {withActions.map((column) => (
                    <Cell key={column.header} column={column} row={row} />
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </section>
      {list !== null ? (
        <Pager
          label={label}
          list={list}
          page={page}
          perPage={perPage}
          pageSize={pageSize}
          onPage={setPage}
          onPerPage={(size) => {
            setPerPage(size);
            setPage(1);
          }}
        />
      ) : (
        !failed && <LoadingStatus what={label} />
      )}
      {list !== null && after}
      {details !== null && (
        <RowDetails
          title={`Details of ${nameOf(details)}`}
          columns={columns}
          row={details}
          onClose={() => setDetails(null)}
        />
      )}
    </div>
  );
}

/** The name of a row: its first text column, or its key. */
const defaultRowName =
  <Row,>(columns: Column<Row>[], rowKey: (row: Row) => string | number) =>
  (row: Row): string => {
    const named = columns.find((column) => 'text' in column);
    return named && 'text' in named ? named.text(row) : `#${rowKey(row)}`;
  };

/** Every column's label and value of one row. */
function RowDetails<Row>({
  title,
  columns,
  row,
  onClose,
}: {
  title: string;
  columns: Column<Row>[];
  row: Row;
  onClose: () => void;
}) {
  return (
    <Dialog open title={title} onClose={onClose}>
      <dl className="details">
        {columns.map((column) => (
          <Fragment key={column.header}>
            <dt>{column.header}</dt>
            <dd>{'cell' in column ? column.cell(row) : column.text(row)}</dd>
          </Fragment>
        ))}
      </dl>
    </Dialog>
  );
}

const priorityClass = (column: ColumnBase) =>
  column.priority && column.priority > 1 ? `priority-${column.priority}` : undefined;

function Cell<Row>({ column, row }: { column: Column<Row>; row: Row }) {
  if ('cell' in column) {
    return (
      <td data-label={column.header} className={priorityClass(column)}>
        {column.cell(row)}
      </td>
    );
  }
  const text = column.text(row);
  return (
    <td data-label={column.header} data-full={text} className={priorityClass(column)}>
      <span className="cell-text">{text}</span>
    </td>
  );
}

function WholeRow<Row>({ columns, children }: { columns: Column<Row>[]; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns.length} className="table-empty">
        {children}
      </td>
    </tr>
  );
}

/** Placeholder rows the height of real ones, labelled like them on a phone's cards. */
function SkeletonRows<Row>({ columns, count }: { columns: Column<Row>[]; count: number }) {
  return Array.from({ length: count }, (_, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a placeholder row holds nothing focusable
    <tr key={index} className="skeleton-row" aria-hidden="true">
      {columns.map((column) => (
        <td key={column.header} data-label={column.header} className={priorityClass(column)}>
          <span className="skeleton" />
        </td>
      ))}
    </tr>
  ));
}

const PAGE_SIZES = [10, 20, 30, 40, 50];
const PAGE_JUMP_DELAY_MS = 500;

interface PagerProps {
  label: string;
  list: ListPage<unknown>;
  page: number;
  perPage: number;
  /** The table's own page size, offered beside the usual ones. */
  pageSize: number;
  onPage: (page: number) => void;
  onPerPage: (size: number) => void;
}

function Pager({ label, list, page, perPage, pageSize, onPage, onPerPage }: PagerProps) {
  const id = useId();
  const [jump, setJump] = useState('');
  const pageCount = Math.max(1, Math.ceil(list.total / perPage));
  const first = list.total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(page * perPage, list.total);
  const sizes = PAGE_SIZES.includes(pageSize) ? PAGE_SIZES : [pageSize, ...PAGE_SIZES].sort((a, b) => a - b);
  const more = list.totalIsLowerBound && '+';

  useDelayed(jump, PAGE_JUMP_DELAY_MS, (text) => {
    const wanted = Number(text);
    if (Number.isInteger(wanted) && wanted >= 1 && wanted <= pageCount) onPage(wanted);
  });

  return (
    <nav className="data-table-pager" aria-label={`${label} pages`}>
      <p className="page-info" aria-live="polite">
        {first} - {last} of {list.total}
        {more}
      </p>
      <div className="pager-group">
        <label htmlFor={`${id}-size`}>Rows per page</label>
        <select id={`${id}-size`} value={perPage} onChange={(event) => onPerPage(Number(event.target.value))}>
          {sizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <div className="pager-group">
        <button
          type="button"
          className="button button-small"
          onClick={() => onPage(1)}
          disabled={page <= 1}
          aria-label="First page"
        >
          «
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => onPage(page - 1)}
          disabled={page <= 1}
          aria-label="Previous page"
        >
          ‹
        </button>
        <span className="page-number">
          Page {page} of {pageCount}
          {more}
        </span>
        <button
          type="button"
          className="button button-small"
          onClick={() => onPage(page + 1)}
          disabled={page >= pageCount}
          aria-label="Next page"
        >
          ›
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => onPage(pageCount)}
          disabled={page >= pageCount}
          aria-label="Last page"
        >
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
  );
}
