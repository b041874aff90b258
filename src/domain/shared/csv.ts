import { invalid } from './errors.ts';

/** A CSV export holds at most this many rows; a wider one is refused so one request cannot hold the server for long. */
export const MAX_EXPORT_ROWS = 100_000;

/** Refuses an export of `rows` (read up to one past the limit) that is too big, naming the date range to narrow. */
export function checkExportSize(rows: number, noun: string): void {
  if (rows > MAX_EXPORT_ROWS)
    throw invalid({
      from: [`matches more than ${MAX_EXPORT_ROWS} ${noun}; choose a shorter date range or more filters`],
    });
}

/**
 * One CSV record (RFC 4180, CRLF-terminated): the API's exports and the command line's `--format csv` alike. Text a
 * spreadsheet would run as a formula — starting with `=`, `+`, `-`, `@`, a tab or a carriage return — is prefixed
 * with `'` (OWASP "CSV Injection"); numbers are left as they are; text with a leading or trailing space is quoted,
 * so no reader trims it.
 */
export function csvRecord(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = typeof value !== 'string' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
