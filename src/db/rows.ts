/** Small checks the mappers share when they turn a typed row into a domain value. */
import { conflict, ensure } from '../domain/shared/errors.ts';

/**
 * What a statement answers when what it reads or changes was removed by someone else meanwhile (a schedule
 * deleted while a visit moved onto it): the client reloads and tries again, rather than seeing a 500.
 */
const changedMeanwhile = (what: string) => () =>
  conflict('changed_meanwhile', `${what} was changed or removed meanwhile. Please reload and try again.`);

/**
 * The row a statement returns (an aggregate, an `insert … returning`, an update of a row it names): none means the
 * row went meanwhile (409); several would be a bug.
 */
export function onlyRow<T>(rows: T[], what = 'What this changes'): T {
  if (rows.length > 1) throw new Error(`expected exactly one row, got ${rows.length}`);
  return ensure(rows[0], changedMeanwhile(what));
}

/** A left-joined `{id, name}`: null when the row names none. */
export const namedOrNull = (id: number | null, name: string | null): { id: number; name: string } | null =>
  id === null || name === null ? null : { id, name };

/** What a statement just wrote, read back in the same transaction; missing, it went meanwhile (409). */
export function readBack<T>(value: T | undefined, what: string): T {
  return ensure(value, changedMeanwhile(what));
}

/** `($1, $2, …), ($n+1, …)`: the parameters of `rows` (each the same length), for a multi-row `insert … values`. */
export const valuesOf = (rows: unknown[][]): string => {
  let n = 0;
  return rows.map((row) => `(${row.map(() => `$${++n}`).join(', ')})`).join(', ');
};
