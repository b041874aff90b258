/** Every wait on the database is bounded; each is configurable (README, `loadConfig`). */
export interface DbTimeouts {
  /** Waiting for a pooled connection (or the embedded database's turn), connecting included. */
  acquireMs: number;
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
  statementMs: 5000,
  lockMs: 2000,
  readLockMs: 200,
  idleInTransactionMs: 10_000,
};
