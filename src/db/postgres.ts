import pg from 'pg';
import type { Db, Queryable } from './db.ts';
import { DEFAULT_TIMEOUTS, type DbTimeouts } from './timeouts.ts';
import { DomainError } from '../domain/shared/errors.ts';
import {
  asUnavailable,
  databaseBusy,
  databaseUnavailable,
  isTransactionConflict,
  shuttingDown,
  sqlState,
} from './sql-errors.ts';
import { asNumber, asText, DATE_OID, INT8_OID, NUMERIC_OID } from './pg-types.ts';
import { listenOnOwnConnection, type NoticeConnection } from './pg-notices.ts';
import { preparedOnce } from './prepared-statements.ts';
import { readsOnly } from './reads-only.ts';

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
      getTypeParser: (oid, format) => {
        if (oid === DATE_OID) return asText;
        if (oid === INT8_OID || oid === NUMERIC_OID) return asNumber;
        return pg.types.getTypeParser(oid, format);
      },
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
  // A read waits readLockMs for a lock, a write lockMs. A connection starts at the reads' wait (the connection
  // string's); a transaction raises its own with `set local`, sent with its begin, and a statement that writes on
  // its own raises the connection's until a read lowers it again.
  const lockTimeouts = new WeakMap<pg.PoolClient, number>();
  const lockTimeoutFor = async (client: pg.PoolClient, wanted: number) => {
    if ((lockTimeouts.get(client) ?? timeouts.readLockMs) === wanted) return;
    await client.query(`set lock_timeout = ${wanted}`);
    lockTimeouts.set(client, wanted);
  };
  const beginWrites =
    timeouts.lockMs === timeouts.readLockMs ? 'begin' : `begin; set local lock_timeout = ${timeouts.lockMs}`;

  /**
   * Runs `fn` on a client of its own, waiting `lockMs` for a lock; a broken client is discarded rather than returned
   * to the pool.
   */
  const withClient = async <T>(
    lockMs: number | 'transaction',
    fn: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> => {
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
      if (lockMs !== 'transaction') {
        await lockTimeoutFor(client, lockMs).catch((error) => {
          throw driverFailure(error);
        });
      }
      return await fn(client);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'database_unavailable') broken = error;
      throw error;
    } finally {
      checkedOut.delete(client);
      client.release(lost.get(client) ?? broken);
    }
  };
  const wrap = (client: pg.PoolClient): Queryable => {
    // A client runs one statement at a time. Statements asked for at once on it (a transaction's Promise.all) wait
    // here for the one before to end: pg's own queue for them is deprecated and goes in pg 9.
    let last: Promise<unknown> = Promise.resolve();
    const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
      const turn = last.then(run, run);
      last = turn.catch(() => {});
      return turn;
    };
    return {
      query: <T extends object>(sql: string, params?: unknown[]) =>
        inTurn(async () => {
          try {
            return (await client.query(preparedOnce(sql, params))).rows as T[];
          } catch (error) {
            // Cancelled at shutdown (interrupt): the request is told Medora is restarting, to try again.
            throw interrupted ? shuttingDown() : driverFailure(error);
          }
        }),
      exec: (sql: string) =>
        inTurn(async () => {
          try {
            await client.query(sql);
          } catch (error) {
            throw interrupted ? shuttingDown() : driverFailure(error);
          }
        }),
    };
  };
  const listening = new Set<NoticeConnection>();
  return {
    kind: 'pg',
    query: (sql, params) =>
      withClient(readsOnly(sql) ? timeouts.readLockMs : timeouts.lockMs, (client) => wrap(client).query(sql, params)),
    exec: (sql) => withClient(timeouts.lockMs, (client) => wrap(client).exec(sql)),
    // A deadlock or a serialization failure rolled the whole transaction back: it runs once more, on a fresh
    // snapshot; a second one is answered 503 (asUnavailable), never 500.
    transaction: async (fn) => {
      const attempt = () =>
        withClient('transaction', async (client) => {
          const tx = wrap(client);
          await tx.exec(beginWrites);
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
        });
      try {
        return await attempt();
      } catch (error) {
        if (!isTransactionConflict(error) || interrupted) throw error;
        return attempt();
      }
    },
    listen: async (channel, listener) => {
      const notices = listenOnOwnConnection(connection, channel, listener);
      listening.add(notices);
      await notices.started;
    },
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
    `-c lock_timeout=${timeouts.readLockMs}`,
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
  await onConnection(connection, 1000, (client) =>
    client.query('select pg_cancel_backend(pid) from unnest($1::int[]) as pid', [pids]),
  ).catch((error) => console.error(`database: could not cancel statements at shutdown: ${(error as Error).message}`));
}

async function onConnection<T>(
  connection: pg.ClientConfig,
  timeoutMs: number,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({
    ...connection,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await fn(client);
  } finally {
    void client.end().catch(() => {});
  }
}

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
