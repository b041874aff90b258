import { onWardSql, reachesSql } from './care.pg.ts';
import type { Scope } from '../domain/fhir/access.ts';
import type { FhirStore, StorePage, StoreQuery } from '../domain/fhir/ports.ts';
import type { FhirRows, StoredType } from '../domain/fhir/resources.ts';
import type { Criterion } from '../domain/fhir/search-request.ts';
import { invalid } from '../domain/shared/errors.ts';
import type { Queryable, Row } from './db.ts';
import { sqlState } from './sql-errors.ts';

/**
 * One resource type's rows: a select whose columns the search parameters name. `{tz}`, `{from}` and `{to}` in
 * `sql` stand for the clinic's time zone and a Slot search's first and last date, `{scheduleIds}` for the weekly
 * pattern rows a Slot search by `_id` names (null for any other search), `{autoRelease}` for
 * RESULTS_AUTO_RELEASE_DAYS (null: never), `{now}` for the clock's now.
 */
export interface FhirTable<R> {
  sql: string;
  /** Each search parameter's column and its SQL type, as `column::type` (`_id` and `_lastUpdated` too). */
  columns: Record<string, string>;
  /**
   * Criteria that no one column answers, each a condition on `r` in which `{values}` stands for the values asked:
   * $everything's `patient` of a Location (the beds a patient's stays were in).
   */
  subqueries?: Record<string, string>;
  /** The column with the patient whose compartment a row is in; none for the clinic's directory. */
  patientColumn?: string;
  /** A result's column: from when its patient may see it (null: not yet); a patient reads only what it has passed. */
  releasedColumn?: string;
  toRow(raw: Row): R;
}

/** The id, change time and version counter every stored resource's select names. */
export interface VersionedSql {
  id: number;
  updated_at: Date;
  version: number;
}

export const versioned = (r: VersionedSql) => ({ id: r.id, updatedAt: r.updated_at, version: Number(r.version) });

export type FhirTables = { [T in StoredType]: FhirTable<FhirRows[T]> };

/**
 * The pattern rows of the Slots a search by `_id` asks for (a Slot's id is `<schedule id>-<date>`), so the Slot
 * select starts from those rows by key instead of every pattern row over every day; null for any other search.
 */
function slotScheduleIds(query: StoreQuery): number[] | null {
  const byId = query.criteria.find((c) => c.param === '_id' && c.kind === 'in');
  if (byId?.kind !== 'in') return null;
  return byId.values.map((id) => Number.parseInt(id, 10)).filter(Number.isSafeInteger);
}

/** The FhirStore over `tables`: criteria, scope and keyset cursor become one statement's where clause. */
export function fhirStore(
  db: Queryable,
  tables: FhirTables,
  timeZone: string,
  autoReleaseDays: number | null,
  now: () => Date,
): FhirStore {
  return {
    async search<T extends StoredType>(type: T, query: StoreQuery): Promise<StorePage<FhirRows[T]>> {
      const table: FhirTable<FhirRows[T]> = tables[type];
      const params: unknown[] = [];
      const bind = (value: unknown) => `$${params.push(value)}`;
      const source = table.sql
        .replaceAll('{tz}', () => `${bind(timeZone)}::text`)
        .replaceAll('{from}', () => `${bind(query.dates?.from)}::date`)
        .replaceAll('{to}', () => `${bind(query.dates?.to)}::date`)
        .replaceAll('{scheduleIds}', () => `${bind(slotScheduleIds(query))}::int[]`)
        .replaceAll('{autoRelease}', () => `${bind(autoReleaseDays)}::int`)
        .replaceAll('{now}', () => `${bind(now())}::timestamptz`);
      const conditions = [
        ...query.criteria.map((c) => criterionSql(table, c, bind)),
        ...scopeSql(table, query.scope, bind),
      ];
      const countParams = params.length;
      const total = query.total
        ? (
            await db.query<{ n: number }>(
              `select count(*)::int as n from (${source}) r where ${conditions.join(' and ') || 'true'}`,
              params.slice(0, countParams),
            )
          )[0]?.n
        : undefined;
      if (query.count === 0) return { rows: [], total };
      const [sortColumn, sortType] = column(table, query.sort.key === '_id' ? '_id' : query.sort.key);
      const [idColumn, idType] = column(table, '_id');
      const direction = query.sort.descending ? 'desc' : 'asc';
      if (query.cursor !== undefined) {
        const [key, id] = decodeCursor(query.cursor);
        const after = query.sort.descending ? '<' : '>';
        conditions.push(
          sortColumn === idColumn
            ? `r.${idColumn} ${after} ${bind(id)}::${idType}`
            : `(r.${sortColumn}, r.${idColumn}) ${after} (${bind(key)}::${sortType}, ${bind(id)}::${idType})`,
        );
      }
      const raw = await db
        .query<Row & { cursor_key: string; cursor_id: string }>(
          `select r.*, r.${sortColumn}::text as cursor_key, r.${idColumn}::text as cursor_id from (${source}) r
         where ${conditions.join(' and ') || 'true'}
         order by r.${sortColumn} ${direction}${sortColumn === idColumn ? '' : `, r.${idColumn} ${direction}`}
         limit ${bind(query.count + 1)}`,
          params,
        )
        .catch((error: unknown) => {
          // A cursor whose key is not of the sort column's type (22xxx, data exception) was not made here.
          throw query.cursor !== undefined && sqlState(error)?.startsWith('22') ? badCursor() : error;
        });
      const page = raw.slice(0, query.count);
      const last = page.at(-1);
      return {
        rows: page.map(table.toRow),
        total,
        next: raw.length > query.count && last ? encodeCursor(last.cursor_key, last.cursor_id) : undefined,
      };
    },
  };
}

function column(table: FhirTable<unknown>, param: string): [string, string] {
  const spec = table.columns[param];
  if (!spec) throw new Error(`no column for the search parameter ${param}`);
  const [name = '', type = 'text'] = spec.split('::');
  return [name, type];
}

/** LIKE patterns for a string search: the start of the text or of any word in it, with LIKE's wildcards taken literally. */
const wordStarts = (values: string[]) =>
  values.flatMap((v) => {
    const escaped = v.replace(/[\\%_]/g, (c) => `\\${c}`);
    return [`${escaped}%`, `% ${escaped}%`];
  });

function criterionSql(table: FhirTable<unknown>, criterion: Criterion, bind: (value: unknown) => string): string {
  const subquery = table.subqueries?.[criterion.param];
  if (subquery !== undefined && criterion.kind === 'in')
    return subquery.replace('{values}', () => bind(criterion.values));
  const [name, type] = column(table, criterion.param);
  switch (criterion.kind) {
    case 'in':
      return `r.${name} = any(${bind(criterion.values)}::${type}[])`;
    case 'prefix':
      return `lower(r.${name}) like any(${bind(wordStarts(criterion.values))}::text[])`;
    case 'range': {
      const bounds = [
        ...(criterion.gte ? [`r.${name} >= ${bind(criterion.gte)}::timestamptz`] : []),
        ...(criterion.lt ? [`r.${name} < ${bind(criterion.lt)}::timestamptz`] : []),
      ];
      const inside = bounds.length ? `(${bounds.join(' and ')})` : 'true';
      return criterion.negate ? `not ${inside}` : inside;
    }
  }
}

function scopeSql(table: FhirTable<unknown>, scope: Scope, bind: (value: unknown) => string): string[] {
  if (scope.kind === 'all') return [];
  if (!table.patientColumn) throw new Error('a scoped search of a type outside the patient compartment');
  if (scope.kind === 'patient')
    return [
      `r.${table.patientColumn} = ${bind(scope.patientId)}::int`,
      ...(table.releasedColumn ? [`r.${table.releasedColumn} <= ${bind(scope.at)}::timestamptz`] : []),
    ];
  // A nurse reads the medicines of the patients in a bed of their ward.
  if (scope.kind === 'ward') return [onWardSql(`${bind(scope.departmentId)}::int`, `r.${table.patientColumn}`)];
  // A doctor reads the compartments of the patients whose care team they are in, or whose record they hold open
  // (the one definition: src/db/care.pg.ts).
  return [reachesSql(`${bind(scope.doctorId)}::int`, `r.${table.patientColumn}`, `${bind(scope.at)}::timestamptz`)];
}

const encodeCursor = (key: string, id: string) => Buffer.from(JSON.stringify([key, id])).toString('base64url');

function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string')
      return [value[0], value[1]];
  } catch {}
  throw badCursor();
}

const badCursor = () => invalid({ _cursor: ['is not a cursor this server made'] });
