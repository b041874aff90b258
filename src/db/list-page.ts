import { containsPattern, offsetOf, type Page, type PageRequest } from '../domain/shared/pagination.ts';
import type { Queryable, Row } from './db.ts';

export interface ListQuery {
  columns: string;
  from: string;
  /** What to count when nothing is searched, when `from` joins only to fetch names (inner joins are never pruned). */
  countFrom?: string;
  /** A condition every row must meet, without parameters. */
  where?: string;
  /** A condition on `$1`, the lower-cased contains-pattern of `q`; applied only when `q` is given. */
  search: string;
  orderBy: string;
}

/**
 * One page of a searched list and its total, both in SQL. The total is its own count so a page past
 * the end still reports how many rows there are.
 */
export async function listPage<T>(db: Queryable, req: PageRequest, list: ListQuery, toItem: (row: Row) => T): Promise<Page<T>> {
  const conditions = [list.where, req.q && `(${list.search})`].filter(Boolean);
  const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
  const params = req.q ? [containsPattern(req.q)] : [];
  const [rows, [{ total }]] = await Promise.all([
    db.query(
      `select ${list.columns} from ${list.from} ${where} order by ${list.orderBy}
       limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, req.perPage, offsetOf(req)],
    ),
    db.query<{ total: number }>(`select count(*)::int as total from ${req.q ? list.from : (list.countFrom ?? list.from)} ${where}`, params),
  ]);
  return { items: rows.map(toItem), total, page: req.page, perPage: req.perPage };
}
