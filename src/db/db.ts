/** A row whose shape the query did not name: each column must be checked before use. */
export type Row = Record<string, unknown>;

/**
 * `waitsAsWrite`: a read made for a write request (the session lookup of a booking) waits for a pooled connection as
 * long as the write will (DATABASE_WRITE_ACQUIRE_TIMEOUT_MS), so the request is not refused before its write queues.
 */
export interface QueryOptions {
  waitsAsWrite?: boolean;
}

/**
 * What a store needs: run one statement, or several without parameters.
 * `T` names the columns the statement selects; neither driver checks it, so it sits beside the SQL it describes.
 */
export interface Queryable {
  query<T extends object = Row>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
  exec(sql: string): Promise<void>;
}

/** The Db port: PGlite in a data folder, or a pg Pool against a PostgreSQL server. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'pg';
  /** All or nothing: `fn` gets a handle bound to one transaction. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Hears NOTIFY on `channel` until `close()`; see NoticeListener for when notices may have been missed. */
  listen(channel: string, listener: NoticeListener): Promise<void>;
  /** Whether the database answers `select 1` within `timeoutMs`, without queueing behind the requests' connections. */
  ready(timeoutMs: number): Promise<boolean>;
  /**
   * For a bounded shutdown: from now on nothing commits and no statement starts, and statements under way are
   * cancelled, so their transactions roll back.
   */
  interrupt(): Promise<void>;
  close(): Promise<void>;
}

export interface NoticeListener {
  /** Listening has begun: every notice committed from now on arrives. */
  live(): void;
  /** The listening connection was lost; notices may be missed until `live` is called again. */
  lost(): void;
  notice(payload: string): void;
}
