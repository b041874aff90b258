import { Option } from 'commander';
import Table from 'cli-table3';
import { csvRecord } from '../domain/shared/csv.ts';
import { formatUsd } from '../domain/shared/money.ts';
import { writeLine, type Output } from './context.ts';

export type Format = 'table' | 'csv' | 'json';

/** One output column: `key` in JSON and CSV, `header` over the table; `money` columns hold integer cents. */
export interface Column {
  key: string;
  header: string;
  money?: boolean;
}

export type Row = Record<string, unknown>;

export const formatOption = () =>
  new Option(
    '--format <format>',
    'output as a table, csv or json (default: table on a terminal, json otherwise)',
  ).choices(['table', 'csv', 'json']);

/** A table for a person at a terminal; JSON when the output goes to a file or another program. */
export const chosenFormat = (format: string | undefined, out: Output): Format =>
  (format as Format | undefined) ?? (out.isTTY ? 'table' : 'json');

/**
 * Prints rows in `format`: a table (USD amounts, an optional total row last), CSV with a header row of the
 * column keys and cents as integers, or `json` (default: the rows themselves) with its keys as given.
 */
export function printRows(
  out: Output,
  rows: readonly object[],
  columns: Column[],
  format: Format,
  opts: { json?: unknown; total?: object } = {},
): void {
  if (format === 'json') writeLine(out, JSON.stringify(opts.json ?? rows, null, 2));
  else if (format === 'csv') out.write(toCsv(rows, columns));
  else {
    const table = new Table({
      head: columns.map((c) => c.header),
      colAligns: columns.map((c) => (c.money ? 'right' : 'left')),
      style: tableStyle(out),
    });
    for (const row of rows) table.push(columns.map((c) => cell((row as Row)[c.key], c)));
    if (opts.total) table.push(columns.map((c, i) => (i === 0 ? 'Total' : cell((opts.total as Row)[c.key], c))));
    writeLine(out, rows.length === 0 && !opts.total ? '(none)' : table.toString());
  }
}

/** Prints one record: a two-column table of header and value, or a one-row CSV, or `json`. */
export function printRecord(
  out: Output,
  record: object,
  columns: Column[],
  format: Format,
  json: unknown = record,
): void {
  if (format !== 'table') {
    printRows(out, [record], columns, format, { json });
    return;
  }
  const table = new Table({ style: tableStyle(out) });
  for (const c of columns) table.push({ [c.header]: cell((record as Row)[c.key], c) });
  writeLine(out, table.toString());
}

function cell(value: unknown, column: Column): string {
  if (value === null || value === undefined) return '';
  return column.money ? formatUsd(Number(value)) : String(value);
}

export function toCsv(rows: readonly object[], columns: Column[]): string {
  const field = (value: unknown) =>
    value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : String(value);
  return (
    csvRecord(columns.map((c) => c.key)) +
    rows.map((row) => csvRecord(columns.map((c) => field((row as Row)[c.key])))).join('')
  );
}

// cli-table3 colours headers and borders; escape codes belong on a terminal, not in a file or a pipe.
const tableStyle = (out: Output) => (out.isTTY ? {} : { head: [], border: [] });
