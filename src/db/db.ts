import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { DEFAULT_TIMEOUTS, type DbTimeouts } from './timeouts.ts';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DomainError, unavailable } from '../domain/shared/errors.ts';
import { secureDataDir } from './data-dir-permissions.ts';
import { asUnavailable, databaseBusy, databaseUnavailable, sqlState } from './sql-errors.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';

/** A row whose shape the query did not name: each column must be checked before use. */
export type Row = Record<string, unknown>;

/**
 * What a store needs: run one statement, or several without parameters.
 * `T` names the columns the statement selects; neither driver checks it, so it sits beside the SQL it describes.
 */
export interface Queryable {
  query<T extends object = Row>(sql: string, params?: unknown[]): Promise<T[]>;
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
   * Runs `fn`, a read request, with the short lock wait of reads (DbTimeouts.readLockMs): one that meets a locked
   * table answers 503 at once rather than holding a connection every other read is waiting for.
   */
  reading<T>(fn: () => Promise<T>): Promise<T>;
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

// Dates stay yyyy-MM-dd strings and int8 (counts, cents) becomes a number, on both drivers.
const DATE_OID = 1082;
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const asNumber = (v: string) => Number(v);
const asText = (v: string) => v;

const shuttingDown = () => unavailable('shutting_down', 'Medora is restarting. Please try again in a moment.');

/** The Db port on PGlite, with what the server needs to share it: turns for other clients, and their NOTIFYs. */
export interface PgliteDb extends Db {
  /** Resolves once no statement or transaction of this Db runs, nor will until the returned function is called. */
  takeTurn(timeoutMs: number): Promise<() => void>;
  deliverNotice(channel: string, payload: string): void;
}

/** PGlite in `dataDir/pglite` (in memory without one), the folder locked for this process as a command's. */
export async function openPglite(dataDir: string | undefined, timeouts: DbTimeouts = DEFAULT_TIMEOUTS): Promise<PgliteDb> {
  if (!dataDir) return pgliteDb(await createPglite(undefined), timeouts, () => {});
  secureDataDir(dataDir);
  const lock = await acquireDataDirLock(dataDir, 'command');
  try {
    return pgliteDb(await createPglite(join(dataDir, 'pglite')), timeouts, () => lock.release());
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** PGlite in the folder `path` (PGDATA), or in memory without one. */
export async function createPglite(path: string | undefined): Promise<PGlite> {
  const options = { parsers: { [DATE_OID]: asText, [INT8_OID]: asNumber, [NUMERIC_OID]: asNumber }, extensions: { pg_trgm } };
  const client = path ? new PGlite(path, options) : new PGlite(options);
  await client.waitReady;
  // PGlite lays out a new cluster, and rewrites its relation cache files on start, with modes of its own (0644).
  if (path) secureDataDir(path);
  return client;
}

export function pgliteDb(client: PGlite, timeouts: DbTimeouts, afterClose: () => void): PgliteDb {
  // PGlite runs one statement at a time and cannot cancel one, so the wait is bounded before a statement is
  // handed to it: a request that gives up has sent nothing that could commit later.
  const turns = new Turns();
  let interrupted = false;
  const inTurn = async <T>(timeoutMs: number, fn: () => Promise<T>): Promise<T> => {
    if (interrupted) throw shuttingDown();
    const done = await turns.take(timeoutMs);
    try {
      if (interrupted) throw shuttingDown();
      return await fn();
    } catch (error) {
      // A full disk or no memory is a 503 here as on a PostgreSQL server; SQL errors keep their SQLSTATE.
      throw asUnavailable(error);
    } finally {
      done();
    }
  };
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <T extends object>(sql: string, params?: unknown[]) => (await q.query<T>(sql, params as any[])).rows,
    exec: async (sql: string) => {
      await q.exec(sql);
    },
  });
  const direct = wrap(client);
  const listeners = new Map<string, NoticeListener[]>();
  return {
    kind: 'pglite',
    query: (sql, params) => inTurn(timeouts.acquireMs, () => direct.query(sql, params)),
    exec: (sql) => inTurn(timeouts.acquireMs, () => direct.exec(sql)),
    transaction: (fn) =>
      inTurn(timeouts.acquireMs, () =>
        client.transaction(async (tx) => {
          const result = await fn(wrap(tx as any));
          if (interrupted) throw shuttingDown();
          return result;
        }),
      ),
    // One connection in this process: a notice arrives with the result of the statement that commits it.
    listen: async (channel, listener) => {
      await client.listen(channel, (payload) => listener.notice(payload));
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      listener.live();
    },
    takeTurn: async (timeoutMs) => {
      const done = await turns.take(timeoutMs);
      // PGlite's own transaction mutex too, which LISTEN takes without a turn of ours.
      return new Promise((granted, failed) => {
        client
          ._runExclusiveTransaction(() => new Promise<void>((release) => granted(() => (release(), done()))))
          .catch((error) => (done(), failed(error)));
      });
    },
    deliverNotice: (channel, payload) => {
      for (const listener of listeners.get(channel) ?? []) listener.notice(payload);
    },
    // One connection, taken in turns: no lock of another connection to wait for.
    reading: (fn) => fn(),
    ready: (timeoutMs) => inTurn(timeoutMs, () => direct.query('select 1')).then(() => true, () => false),
    interrupt: async () => {
      interrupted = true;
    },
    close: async () => {
      await client.close();
      afterClose();
    },
  };
}

/** A first-come queue for the embedded database's one connection, where a waiter gives up after its timeout. */
class Turns {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with the function that ends this turn, or rejects 503 when the turn does not come in time. */
  take(timeoutMs: number): Promise<() => void> {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => ended);
    return new Promise((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        end(); // the queue moves on past this waiter once its predecessor is done
        reject(databaseBusy());
      }, timeoutMs);
      void previous.then(() => {
        clearTimeout(timer);
        if (!gaveUp) resolve(end);
      });
    });
  }
}

export interface PostgresOptions {
  schema?: string;
  max?: number;
  timeouts?: DbTimeouts;
}

export async function openPostgres(url: string, opts: PostgresOptions = {}): Promise<Db> {
  const timeouts = opts.timeouts ?? DEFAULT_TIMEOUTS;
  const connection = connectionConfig(url, timeouts, opts.schema);
  const pool = new pg.Pool({
    ...connection,
    max: opts.max ?? 10,
    connectionTimeoutMillis: timeouts.acquireMs,
    types: {
      getTypeParser: ((oid: number, format?: any) => {
        if (oid === DATE_OID) return asText;
        if (oid === INT8_OID || oid === NUMERIC_OID) return asNumber;
        return pg.types.getTypeParser(oid, format);
      }) as any,
    },
  });
  // An idle client's error would otherwise crash the process; the pool drops it and the next query reconnects.
  pool.on('error', (error) => console.error(`database: idle connection lost: ${error.message}`));
  // Every client hears its own `error` (the server ended the connection) from birth, not only while checked out:
  // the message ending it can arrive in the very packet that completes its connection, before a caller could
  // listen. The error then fails the one request using that client, never the process.
  const lost = new WeakMap<pg.PoolClient, Error>();
  pool.on('connect', (client) => client.on('error', (error) => lost.set(client, error)));
  let interrupted = false;
  const checkedOut = new Set<pg.PoolClient>();
  const reads = new AsyncLocalStorage<true>();
  // A connection's lock_timeout when a read changed it; the connection string's otherwise.
  const lockTimeouts = new WeakMap<pg.PoolClient, number>();
  const lockTimeoutFor = async (client: pg.PoolClient) => {
    const wanted = reads.getStore() ? timeouts.readLockMs : timeouts.lockMs;
    if ((lockTimeouts.get(client) ?? timeouts.lockMs) === wanted) return;
    await client.query(`set lock_timeout = ${wanted}`);
    lockTimeouts.set(client, wanted);
  };

  /** Runs `fn` on a client of its own; a broken client is discarded rather than returned to the pool. */
  const withClient = async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    if (interrupted) throw shuttingDown();
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      // pg-pool's own wait for a free connection ends in an error without a code.
      throw sqlState(error) ? driverFailure(error) : databaseBusy();
    }
    // A request that waited for a connection past the interrupt at shutdown gets none: its client is told it failed.
    if (interrupted) {
      client.release();
      throw shuttingDown();
    }
    let broken: Error | undefined;
    checkedOut.add(client);
    try {
      await lockTimeoutFor(client).catch((error) => {
        throw driverFailure(error);
      });
      return await fn(client);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'database_unavailable') broken = error;
      throw error;
    } finally {
      checkedOut.delete(client);
      client.release(lost.get(client) ?? broken);
    }
  };
  const wrap = (client: pg.PoolClient): Queryable => ({
    query: async <T extends object>(sql: string, params?: unknown[]) => {
      try {
        return (await client.query(preparedOnce(sql, params))).rows as T[];
      } catch (error) {
        throw driverFailure(error);
      }
    },
    exec: async (sql: string) => {
      try {
        await client.query(sql);
      } catch (error) {
        throw driverFailure(error);
      }
    },
  });
  const listening = new Set<NoticeConnection>();
  return {
    kind: 'pg',
    query: (sql, params) => withClient((client) => wrap(client).query(sql, params)),
    exec: (sql) => withClient((client) => wrap(client).exec(sql)),
    transaction: (fn) =>
      withClient(async (client) => {
        const tx = wrap(client);
        await tx.exec('begin');
        try {
          const result = await fn(tx);
          // A request abandoned at shutdown must not commit after its client was told it failed.
          if (interrupted) throw shuttingDown();
          await tx.exec('commit');
          return result;
        } catch (error) {
          await client.query('rollback').catch(() => {});
          throw error;
        }
      }),
    listen: async (channel, listener) => {
      const notices = listenOnOwnConnection(connection, channel, listener);
      listening.add(notices);
      await notices.started;
    },
    reading: (fn) => reads.run(true, fn),
    ready: (timeoutMs) => answersWithin(connection, timeoutMs),
    interrupt: async () => {
      interrupted = true;
      const pids = [...checkedOut].map(backendPid).filter((pid) => pid > 0);
      if (pids.length > 0) await cancelBackends(connection, pids);
    },
    close: async () => {
      await Promise.all([...listening].map((notices) => notices.stop()));
      await pool.end();
    },
  };
}

/** A driver error as the app sees it: outages and timeouts become 503s; SQL errors keep their SQLSTATE. */
function driverFailure(error: unknown): unknown {
  const translated = asUnavailable(error);
  if (translated !== error || error instanceof pg.DatabaseError) return translated;
  // pg's own errors ("Connection terminated unexpectedly", "not queryable") carry no code: the connection is gone.
  return databaseUnavailable();
}

/**
 * The connection settings every client of this process uses. libpq's `options` may also come in the URL (a
 * schema's search_path, say); pg lets the URL's win, so ours are added to it rather than set beside it.
 */
function connectionConfig(url: string, timeouts: DbTimeouts, schema?: string): pg.ClientConfig {
  const parsed = new URL(url);
  const fromUrl = parsed.searchParams.get('options');
  parsed.searchParams.delete('options');
  const options = [
    fromUrl,
    // Short OLTP queries only pay for JIT compilation, which the planner may start on big counts.
    '-c jit=off',
    `-c statement_timeout=${timeouts.statementMs}`,
    `-c lock_timeout=${timeouts.lockMs}`,
    `-c idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`,
    schema && `-c search_path=${schema}`,
  ];
  return {
    connectionString: parsed.toString(),
    options: options.filter(Boolean).join(' '),
    application_name: `medora (pid ${process.pid})`,
    keepAlive: true,
  };
}

const backendPid = (client: pg.PoolClient) => (client as unknown as { processID: number | null }).processID ?? 0;

/** `select 1` on a connection of its own, so a full pool cannot make the answer wait. */
async function answersWithin(connection: pg.ClientConfig, timeoutMs: number): Promise<boolean> {
  return onConnection(connection, timeoutMs, (client) => client.query('select 1')).then(
    () => true,
    () => false,
  );
}

/** Asks the server to cancel the statements of these backends; their transactions roll back. */
async function cancelBackends(connection: pg.ClientConfig, pids: number[]): Promise<void> {
  await onConnection(connection, 1000, (client) => client.query('select pg_cancel_backend(pid) from unnest($1::int[]) as pid', [pids])).catch(
    (error) => console.error(`database: could not cancel statements at shutdown: ${(error as Error).message}`),
  );
}

async function onConnection<T>(connection: pg.ClientConfig, timeoutMs: number, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...connection, connectionTimeoutMillis: timeoutMs, statement_timeout: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    return await fn(client);
  } finally {
    void client.end().catch(() => {});
  }
}

interface NoticeConnection {
  /** Settles once the first attempt to listen has succeeded or failed. */
  started: Promise<void>;
  stop(): Promise<void>;
}

const RELISTEN_AFTER_MS = 1000;

/** LISTEN on a client outside the pool, connecting again a second after it is lost, until stopped. */
function listenOnOwnConnection(connection: pg.ClientConfig, channel: string, listener: NoticeListener): NoticeConnection {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const drop = (attempt: pg.Client) => {
    if (client !== attempt) return;
    client = undefined;
    listener.lost();
    if (!stopped) retry = setTimeout(connect, RELISTEN_AFTER_MS).unref();
  };
  const connect = async () => {
    // Named so an operator (and a test) can tell this connection from the pool's in pg_stat_activity.
    const attempt = new pg.Client({ ...connection, application_name: `medora notices (pid ${process.pid})` });
    client = attempt;
    attempt.on('notification', (message) => listener.notice(message.payload ?? ''));
    attempt.on('error', () => drop(attempt));
    attempt.on('end', () => drop(attempt));
    try {
      await attempt.connect();
      await attempt.query(`listen ${channel}`);
      if (client === attempt) listener.live();
    } catch (error) {
      if (!stopped) console.error(`database: cannot listen on ${channel}, trying again: ${(error as Error).message}`);
      drop(attempt);
      await attempt.end().catch(() => {});
    }
  };
  return {
    started: connect(),
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}

/**
 * Every `query` runs as a named prepared statement, parsed once per connection: planning the same few dozen
 * statements again on every request cost more than running them (the doctors page went from 960 to 2,400
 * statements/s in pgbench, the top doctor from 1,000 to 2,200). Statements are constant texts with `$n`
 * parameters, so the names are a small fixed set; PostgreSQL still plans a statement for each execution's
 * values until it finds that a generic plan is as good. Scripts of several statements go through `exec`.
 */
function preparedOnce(sql: string, params: unknown[] | undefined): pg.QueryConfig {
  let name = statementNames.get(sql);
  if (!name) {
    name = `medora_${createHash('sha1').update(sql).digest('hex')}`;
    statementNames.set(sql, name);
  }
  return { name, text: sql, values: params };
}
const statementNames = new Map<string, string>();

/** One statement on a connection of its own, e.g. `create schema` or `drop database` outside any pool. */
export async function runOnConnection(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
