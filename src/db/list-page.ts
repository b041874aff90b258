import { containsPattern, offsetOf, type Page, type PageRequest } from '../domain/shared/pagination.ts';
import type { Queryable, Row } from './db.ts';

/**
 * Counting stops this many pages past the one asked for. A search that matches 50,000 rows would
 * otherwise visit every one of them on every page; beyond the limit the total is a lower bound ("200+").
 */
export const PAGES_COUNTED_AHEAD = 10;

export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * One page and its total, queried side by side. `rowsOf` is the `from … where …` that is counted; the
 * total is its own count so a page past the end still reports how many rows there are.
 */
export async function pageWithTotal<T>(
  db: Queryable,
  req: PageRequest,
  page: Statement,
  rowsOf: Statement,
  toItem: (row: Row) => T,
): Promise<Page<T>> {
  const countLimit = offsetOf(req) + req.perPage * PAGES_COUNTED_AHEAD;
  const [rows, [{ counted }]] = await Promise.all([
    db.query(page.sql, page.params),
    db.query<{ counted: number }>(
      `select count(*)::int as counted from (select 1 ${rowsOf.sql} limit $${rowsOf.params.length + 1}) up_to_limit`,
      [...rowsOf.params, countLimit + 1],
    ),
  ]);
  const totalIsLowerBound = counted > countLimit;
  return { items: rows.map(toItem), total: totalIsLowerBound ? countLimit : counted, totalIsLowerBound, page: req.page, perPage: req.perPage };
}

export interface ListQuery {
  columns: string;
  from: string;
  /** What to count when `from` joins only to fetch names (inner joins are never pruned): always when nothing is searched. */
  countFrom?: string;
  /** `search` reads only the tables of `countFrom`, so a searched count needs no joins either. */
  searchWithinCountFrom?: boolean;
  /** A condition every row must meet, without parameters. */
  where?: string;
  /** A condition on `$1`, the lower-cased contains-pattern of `q`; applied only when `q` is given. */
  search: string;
  orderBy: string;
}

/** One page of a searched list and its total, both in SQL. */
export function listPage<T>(db: Queryable, req: PageRequest, list: ListQuery, toItem: (row: Row) => T): Promise<Page<T>> {
  const conditions = [list.where, req.q && `(${list.search})`].filter(Boolean);
  const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
  const params = req.q ? [containsPattern(req.q)] : [];
  return pageWithTotal(
    db,
    req,
    {
      sql: `select ${list.columns} from ${list.from} ${where} order by ${list.orderBy}
            limit $${params.length + 1} offset $${params.length + 2}`,
      params: [...params, req.perPage, offsetOf(req)],
    },
    { sql: `from ${req.q && !list.searchWithinCountFrom ? list.from : (list.countFrom ?? list.from)} ${where}`, params },
    toItem,
  );
}
