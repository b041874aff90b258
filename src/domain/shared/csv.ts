/**
 * One CSV record (RFC 4180, CRLF-terminated). Text a spreadsheet would run as a formula — starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return — is prefixed with `'` (OWASP "CSV Injection"); numbers are left as they are.
 */
export function csvRecord(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
