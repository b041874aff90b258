import { DomainError, conflict, unavailable } from '../domain/shared/errors.ts';

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

/** A database error with its SQLSTATE (or a socket error with its code), for adapters to translate — never by message text. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}

export function constraintName(error: unknown): string | undefined {
  return (error as { constraint?: string })?.constraint;
}

// deadlock_detected, serialization_failure: the transaction was rolled back and may simply run again.
const TRANSACTION_CONFLICTS = new Set(['40P01', '40001']);
const QUERY_CANCELED = '57014'; // statement_timeout, or a cancel at shutdown
const LOCK_NOT_AVAILABLE = '55P03'; // lock_timeout
// admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, and read_only_sql_transaction: a write
// on a server that became a standby (a failover moved the primary away; the next connection looks for it)
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
// insufficient_resources: disk_full, out_of_memory and the rest of class 53; the server stays up and may recover.
const DISK_FULL = '53100';
const OUT_OF_MEMORY = '53200';
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'ENOENT',
]);

export const databaseUnavailable = () =>
  unavailable('database_unavailable', 'The database is not reachable right now. Please try again in a moment.');
export const databaseBusy = () =>
  unavailable('database_busy', 'The database is busy right now. Please try again in a moment.');
export const transactionConflict = () =>
  unavailable('database_conflict', 'Another change to the same data got in the way. Please try again in a moment.');
export const shuttingDown = () => unavailable('shutting_down', 'Medora is restarting. Please try again in a moment.');

/**
 * The one decision of which database failures mean "try again later" (503) rather than a bug: a deadlock or a
 * serialization failure (which the transaction runner has retried once already), the connection classes of SQLSTATE, the server going away, socket errors, the statement and lock timeouts, and the server out
 * of resources (a full disk, no memory).
 * Anything else is returned as it is, for the adapter's own translation or as a 500.
 */
export function asUnavailable(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const state = sqlState(error);
  if (state && TRANSACTION_CONFLICTS.has(state)) return transactionConflict();
  if (state === QUERY_CANCELED)
    return unavailable('database_timeout', 'The database took too long to answer. Please try again.');
  if (state === LOCK_NOT_AVAILABLE) return databaseBusy();
  if (state === DISK_FULL || state === 'ENOSPC')
    return unavailable(
      'database_disk_full',
      'The database has no room left to write. Nothing was saved; please try again later.',
    );
  if (state === OUT_OF_MEMORY)
    return unavailable(
      'database_out_of_memory',
      'The database is out of memory right now. Please try again in a moment.',
    );
  if (state && (state.startsWith('08') || SERVER_GONE.has(state) || SOCKET_CODES.has(state)))
    return databaseUnavailable();
  if (state?.startsWith('53')) return databaseBusy();
  return error;
}

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

/** A transaction rolled back by a deadlock or a serialization failure, as a driver error or as translated. */
export function isTransactionConflict(error: unknown): boolean {
  if (error instanceof DomainError) return error.code === 'database_conflict';
  return TRANSACTION_CONFLICTS.has(sqlState(error) ?? '');
}
