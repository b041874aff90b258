import { readInput } from './read-fields.ts';
import { id, integer, queryOf, text } from './wire-schema.ts';

export interface PageRequest {
  q: string;
  page: number;
  perPage: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  /** The list has more rows than `total`, which counts only so far (see the adapters' count limit). */
  totalIsLowerBound: boolean;
  page: number;
  perPage: number;
}

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 200;

/** The query parameters of every list (docs/api.md "Lists"). */
export const PageQuery = queryOf({
  q: text(200, { min: 0, description: 'Search text' }),
  page: id('Page number, from 1'),
  per_page: integer({
    minimum: 1,
    maximum: MAX_PER_PAGE,
    default: DEFAULT_PER_PAGE,
    description: `Rows per page (default ${DEFAULT_PER_PAGE}, at most ${MAX_PER_PAGE})`,
  }),
});

/** Reads q, page and per_page (default 50, max 200) from a query; bad numbers are a 422 naming the field. */
export function pageRequest(query: Record<string, unknown>, defaults: { perPage?: number } = {}): PageRequest {
  const { q = '', page = 1, per_page: perPage = defaults.perPage ?? DEFAULT_PER_PAGE } = readInput(PageQuery, query);
  return { q, page, perPage };
}

export const offsetOf = (req: PageRequest) => (req.page - 1) * req.perPage;

/** A LIKE pattern matching `q` anywhere, with LIKE's own wildcards taken literally. */
export const containsPattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
