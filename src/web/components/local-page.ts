import type { ListPage, ListQuery } from '../api.ts';

/** One page of rows the screen already holds whole (an answer the server does not page), for a DataTable. */
export function localPage<Row>(rows: Row[], query: ListQuery): ListPage<Row> {
  const first = (query.page - 1) * query.per_page;
  return { rows: rows.slice(first, first + query.per_page), total: rows.length, totalIsLowerBound: false };
}
