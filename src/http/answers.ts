import type { Page } from '../domain/shared/pagination.ts';
import type { Answer } from './router.ts';

export const ok = (body: unknown): Answer => ({ body });
export const created = (body: unknown): Answer => ({ status: 201, body });
export const noContent = (): Answer => ({ status: 204 });

/** A page of a list in the API's one list shape: `{<items>: [...], total, page, per_page}`. */
export const listOf = <T>(name: string, page: Page<T>): Answer => ({
  body: {
    [name]: page.items,
    total: page.total,
    total_is_lower_bound: page.totalIsLowerBound,
    page: page.page,
    per_page: page.perPage,
  },
});
