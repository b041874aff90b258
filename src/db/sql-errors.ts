import { DomainError, conflict } from '../domain/shared/errors.ts';
import { sqlState, constraintName } from './db.ts';

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Runs a statement and turns a unique violation into a conflict with the caller's code and field,
 * keyed by SQLSTATE and constraint name, never by message text.
 */
export async function onUnique<T>(
  run: () => Promise<T>,
  byConstraint: Record<string, { code: string; field: string; message: string }>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const known = sqlState(error) === UNIQUE_VIOLATION ? byConstraint[constraintName(error) ?? ''] : undefined;
    if (known) throw conflict(known.code, known.message, { [known.field]: [known.message] });
    throw error;
  }
}

/** A foreign key refused: the row is still used elsewhere (delete) or points at nothing (insert). */
export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === FOREIGN_KEY_VIOLATION;
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
