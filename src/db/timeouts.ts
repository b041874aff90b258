/** Every wait on the database is bounded; each is configurable (README, `loadConfig`). */
export interface DbTimeouts {
  /** A read's wait for a pooled connection (or the embedded database's turn), connecting included. */
  acquireMs: number;
  /**
   * The same for a write (a transaction, or a statement that changes data): longer than a read's, so a burst of
   * writes — patients booking the moment bookings open — waits its turn for the pool instead of being refused at
   * once, and is still answered 503 when the wait is longer than this.
   */
  writeAcquireMs: number;
  statementMs: number;
  lockMs: number;
  /**
   * A read's wait for a lock (a statement that only reads, outside a transaction): short, so reads that meet a locked
   * table give their connection back at once instead of holding the pool from every other read.
   */
  readLockMs: number;
  idleInTransactionMs: number;
}

// A screen that waits longer than a few seconds is a screen a receptionist reloads; say so sooner instead.
export const DEFAULT_TIMEOUTS: DbTimeouts = {
  acquireMs: 3000,
  writeAcquireMs: 15_000,
  statementMs: 5000,
  lockMs: 2000,
  readLockMs: 200,
  idleInTransactionMs: 10_000,
};
