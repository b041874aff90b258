import type { Page } from '../domain/shared/pagination.ts';
import type { Answer } from './router.ts';

export const ok = (body: unknown): Answer => ({ body });
export const created = (body: unknown): Answer => ({ status: 201, body });
export const noContent = (): Answer => ({ status: 204 });

/** The API's one list shape: a page of items under their own name (`appointments`, `doctors`, …) and the counts. */
export type ListJson<Name extends string, T> = Record<Name, T[]> & {
  total: number;
  total_is_lower_bound: boolean;
  page: number;
  per_page: number;
};

/** A page of a list in the API's one list shape. */
export function listOf<Name extends string, T>(name: Name, page: Page<T>): Answer {
  // TypeScript types a computed key as any string, never as the one name it holds.
  const items = { [name]: page.items } as Record<Name, T[]>;
  const body: ListJson<Name, T> = {
    ...items,
    total: page.total,
    total_is_lower_bound: page.totalIsLowerBound,
    page: page.page,
    per_page: page.perPage,
  };
  return { body };
}
