import { Validator, asRecord } from './validate.ts';

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

/** Reads q, page and per_page (default 50, max 200) from a query; bad numbers are a 422 naming the field. */
export function pageRequest(query: Record<string, unknown>, defaults: { perPage?: number } = {}): PageRequest {
  const input = asRecord(query);
  const v = new Validator(input);
  const q = v.text('q', { optional: true, max: 200 });
  const page = v.id('page', { optional: true }) ?? 1;
  const perPage = v.id('per_page', { optional: true }) ?? defaults.perPage ?? DEFAULT_PER_PAGE;
  if (perPage > MAX_PER_PAGE) v.fail('per_page', `must be at most ${MAX_PER_PAGE}`);
  v.done();
  return { q, page, perPage };
}

export const offsetOf = (req: PageRequest) => (req.page - 1) * req.perPage;

/** A LIKE pattern matching `q` anywhere, with LIKE's own wildcards taken literally. */
export const containsPattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
