/** Small checks the mappers share when they turn a typed row into a domain value. */

/** The row a statement always returns (an aggregate, an `insert … returning`); none is a bug, not a user's error. */
export function onlyRow<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined || rows.length > 1) throw new Error(`expected exactly one row, got ${rows.length}`);
  return row;
}

/** A left-joined `{id, name}`: null when the row names none. */
export const namedOrNull = (id: number | null, name: string | null): { id: number; name: string } | null =>
  id === null || name === null ? null : { id, name };

/** What a statement just wrote, read back in the same transaction; missing is a bug, not a user's error. */
export function readBack<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} written just now cannot be read back`);
  return value;
}
