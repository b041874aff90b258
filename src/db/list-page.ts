import { containsPattern, offsetOf, type Page, type PageRequest } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { onlyRow } from './rows.ts';

/**
 * Counting stops this many pages past the one asked for. A search that matches 50,000 rows would
 * otherwise visit every one of them on every page; beyond the limit the total is a lower bound ("200+").
 */
export const PAGES_COUNTED_AHEAD = 10;

export interface PagedQuery {
  columns: string;
  /** `from … where …` of the listed rows, on `$1`… of `params`. */
  rowsOf: string;
  /** The same rows with fewer joins, when `rowsOf` joins only to fetch names (inner joins are never pruned). */
  countOf?: string;
  /**
   * Instead of `rowsOf` when the page's keys are cheaper to find on their own (from a covering index, say):
   * `from …` of the page's rows, applying `limit` and `offset` itself.
   */
  pageOf?: (limit: string, offset: string) => string;
  /** The order; `param` binds a value the ordering alone needs. */
  orderBy: string | ((param: (value: unknown) => string) => string);
  params: unknown[];
}

/**
 * One page and its total in one statement: on a loaded server every round trip to the database costs more
 * than a count that stops early. The total rides along as a column, so only an empty page (an empty list, or
 * a page past the end) asks for it again on its own — a page past the end still says how many rows there are.
 */
export async function pageWithTotal<R extends object, T>(
  db: Queryable,
  req: PageRequest,
  query: PagedQuery,
  toItem: (row: R) => T,
): Promise<Page<T>> {
  const countLimit = offsetOf(req) + req.perPage * PAGES_COUNTED_AHEAD;
  const params = [...query.params];
  const param = (value: unknown) => `$${params.push(value)}`;
  const countSql = `select count(*)::int as counted from (select 1 ${query.countOf ?? query.rowsOf} limit ${param(countLimit + 1)}) up_to_limit`;
  const countParams = [...params];
  const orderBy = typeof query.orderBy === 'string' ? query.orderBy : query.orderBy(param);
  const [limit, offset] = [param(req.perPage), param(offsetOf(req))];
  const page = query.pageOf
    ? `${query.pageOf(limit, offset)} order by ${orderBy}`
    : `${query.rowsOf} order by ${orderBy} limit ${limit} offset ${offset}`;
  const rows = await db.query<R & { list_total: number }>(
    `select ${query.columns}, (${countSql}) as list_total ${page}`,
    params,
  );
  const counted = rows[0]?.list_total ?? onlyRow(await db.query<{ counted: number }>(countSql, countParams)).counted;
  const totalIsLowerBound = counted > countLimit;
  return {
    items: rows.map(toItem),
    total: totalIsLowerBound ? countLimit : counted,
    totalIsLowerBound,
    page: req.page,
    perPage: req.perPage,
  };
}

export interface ListQuery {
  columns: string;
  from: string;
  /** What to count, when nothing is searched, if `from` joins only to fetch names (inner joins are never pruned). */
  countFrom?: string;
  /** A condition every row must meet, without parameters. */
  where?: string;
  /** A condition on `$1`, the lower-cased contains-pattern of `q`; applied only when `q` is given. */
  search: string;
  orderBy: string;
  /**
   * Where an unsearched page's keys are found alone — the listed rows and what the order needs, `id` naming the key
   * in `from` too — so the rest of `from` is joined for that page's rows only, not for every row before it.
   */
  keys?: { from: string; id: string };
}

/** One page of a searched list and its total, both in SQL. */
export function listPage<R extends object, T>(
  db: Queryable,
  req: PageRequest,
  list: ListQuery,
  toItem: (row: R) => T,
): Promise<Page<T>> {
  const conditions = [list.where, req.q && `(${list.search})`].filter(Boolean);
  const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
  const params = req.q ? [containsPattern(req.q)] : [];
  const countFrom = req.q ? list.from : (list.countFrom ?? list.from);
  const keys = req.q ? undefined : list.keys;
  const pageOf =
    keys &&
    ((limit: string, offset: string) =>
      `from (select ${keys.id} as page_key from ${keys.from} ${where} order by ${list.orderBy} limit ${limit} offset ${offset}) page
       join ${list.from} on ${keys.id} = page.page_key`);
  return pageWithTotal(
    db,
    req,
    {
      columns: list.columns,
      rowsOf: `from ${list.from} ${where}`,
      countOf: `from ${countFrom} ${where}`,
      pageOf,
      orderBy: list.orderBy,
      params,
    },
    toItem,
  );
}
