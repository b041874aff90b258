import { invalid } from '../shared/errors.ts';

export type ImportFormat = 'csv' | 'json';

/** One row of an import file: its fields by column, and where it is for error messages ("line 7", "item 3"). */
export interface ImportRow {
  where: string;
  fields: Record<string, string>;
}

/** The format a file's name implies: `.json` is JSON, anything else CSV. */
export const formatOf = (filename: string): ImportFormat => (/\.json$/i.test(filename) ? 'json' : 'csv');

/** "Department Name" and "department-name" both become the column `department_name`. */
const columnName = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * Rows of a CSV file with a header row, or of a JSON array of objects.
 * A CSV row is named by the file line it starts on (the header is line 1), a JSON row as "item N" from 1.
 * Columns outside `columns` are refused, so a misspelt header cannot silently drop a field.
 */
export function parseImport(text: string, format: ImportFormat, columns: readonly string[]): ImportRow[] {
  const rows = format === 'json' ? jsonRows(text) : csvRows(text);
  const unknown = [...new Set(rows.flatMap((row) => Object.keys(row.fields)))].filter((c) => !columns.includes(c));
  if (unknown.length > 0) {
    throw invalid({
      file: [`unknown column ${unknown.map((c) => `"${c}"`).join(', ')}; the columns are ${columns.join(', ')}`],
    });
  }
  if (rows.length === 0) throw invalid({ file: ['has no rows to import'] });
  return rows;
}

function jsonRows(text: string): ImportRow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid({ file: [`is not valid JSON: ${(error as Error).message}`] });
  }
  if (!Array.isArray(data)) throw invalid({ file: ['must be a JSON array of objects'] });
  return data.map((item, i) => {
    const where = `item ${i + 1}`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw invalid({ [where]: ['must be an object'] });
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(item)) {
      if (value === null || value === undefined) continue;
      if (typeof value === 'object') throw invalid({ [`${where}: ${columnName(key)}`]: ['must be text'] });
      fields[columnName(key)] = String(value);
    }
    return { where, fields };
  });
}

function csvRows(text: string): ImportRow[] {
  const [header, ...records] = csvRecords(text.replace(/^\uFEFF/, ''));
  if (!header) return [];
  const columns = header.values.map(columnName);
  const duplicate = columns.find((c, i) => columns.indexOf(c) !== i);
  if (duplicate) throw invalid({ 'line 1': [`the column "${duplicate}" appears twice`] });
  return records
    .filter((record) => record.values.some((v) => v.trim() !== ''))
    .map((record) => {
      const where = `line ${record.line}`;
      if (record.values.length > columns.length) {
        throw invalid({
          [where]: [`has ${record.values.length} values but the header names ${columns.length} columns`],
        });
      }
      const fields: Record<string, string> = {};
      columns.forEach((column, i) => {
        if (column && record.values[i] !== undefined && record.values[i] !== '') fields[column] = record.values[i];
      });
      return { where, fields };
    });
}

/** RFC 4180: commas, double quotes doubled inside quoted values, line breaks (CRLF or LF) inside quotes. */
function csvRecords(text: string): { line: number; values: string[] }[] {
  const records: { line: number; values: string[] }[] = [];
  let values: string[] = [];
  let value = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const endValue = () => {
    values.push(value);
    value = '';
  };
  const endRecord = () => {
    endValue();
    records.push({ line: recordLine, values });
    values = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        value += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        if (c === '\n') line++;
        value += c;
      }
    } else if (c === '"' && value === '') {
      quoted = true;
    } else if (c === ',') {
      endValue();
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      value += c;
    }
  }
  if (quoted) throw invalid({ [`line ${recordLine}`]: ['has a quoted value that is never closed'] });
  if (value !== '' || values.length > 0) endRecord();
  return records;
}
