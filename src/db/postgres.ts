import pg from 'pg';
import type { Db, Queryable, QueryOptions } from './db.ts';
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
import { pollNotices } from './pg-notice-poll.ts';
import { listenOnOwnConnection, type NoticeConnection } from './pg-notices.ts';
import { preparedOnce } from './prepared-statements.ts';
import { readsOnly } from './reads-only.ts';
import { findPrimary, hostList } from './pg-hosts.ts';
import { cancelRequest } from './cancel-request.ts';
import { limitsBegin, type SessionLimits, roleDefaultsMatch, serverDefaults } from './session-limits.ts';

/**
 * `none`: the URL reaches PostgreSQL itself (or a pooler in session mode), so a connection is a session of its own.
 * `transaction`: a transaction pooler (PgBouncer's pool_mode=transaction) hands each transaction, or each statement
 * outside one, to whichever server connection is free: nothing may rely on a session.
 */
export type Pooler = 'none' | 'transaction';

export interface PostgresOptions {
  schema?: string;
  max?: number;
  timeouts?: DbTimeouts;
  pooler?: Pooler;
  /** The server itself, past the pooler, for LISTEN; without it a pooled Db hears nothing (listen never goes live). */
  directUrl?: string;
  /**
   * Under a pooler, first makes the timeouts the defaults of this role in this database (`alter role … in database
   * … set`), so statements outside a transaction carry them on whichever server connection they land: the servers
   * do, the command line (whose reports wait longer) does not.
   */
  setRoleDefaults?: boolean;
}

export async function openPostgres(url: string, opts: PostgresOptions = {}): Promise<Db> {
  const timeouts = opts.timeouts ?? DEFAULT_TIMEOUTS;
  const pooled = opts.pooler === 'transaction';
  const { hosts, urls } = hostList(url);
  const configs = urls.map((one) => connectionConfig(one, timeouts, pooled, opts.schema));
  const connection = configs[0] ?? connectionConfig(url, timeouts, pooled, opts.schema);
  // With several hosts, the one taken to be the primary; a failure that may mean it moved looks for it again.
  let primary = 0;
  const onPrimary = (): pg.ClientConfig => configs[primary] ?? connection;
  let looking: Promise<void> | undefined;
  const lookForPrimary = () => {
    if (configs.length < 2 || looking) return;
    looking = findPrimary(configs, timeouts.acquireMs)
      .then((found) => {
        if (found !== undefined && found !== primary) {
          console.error(`database: the primary is now ${hosts[found]?.host}:${hosts[found]?.port}`);
          primary = found;
        }
      })
      .finally(() => {
        looking = undefined;
      });
  };
  const hostOf = new WeakMap<pg.Client, number>();
  class PrimaryClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionString: onPrimary().connectionString });
      hostOf.set(this, primary);
    }
  }
  // Under a pooler, statements outside a transaction run with the server connection's defaults: read once (and set,
  // when asked), so those that need other limits than the defaults run in a transaction of their own that sets them.
  let defaults: Promise<SessionLimits | undefined> | undefined;
  const limitsOutside = () => {
    defaults ??= serverDefaults(onPrimary(), timeouts, opts.setRoleDefaults === true).catch((error) => {
      console.error(`database: cannot read the role's default limits: ${(error as Error).message}`);
      defaults = undefined;
      throw driverFailure(error);
    });
    return defaults;
  };
  // The pool waits as long as a write may; a read gives up sooner (connectWithin).
  const poolWaitMs = Math.max(timeouts.acquireMs, timeouts.writeAcquireMs);
  const pool = new pg.Pool({
    ...connection,
    Client: PrimaryClient,
    max: opts.max ?? 10,
    connectionTimeoutMillis: poolWaitMs,
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
  // Directly on the server, a read waits readLockMs for a lock, a write lockMs: a connection starts at the reads' wait
  // (the connection string's); a transaction raises its own with `set local`, sent with its begin, and a statement
  // that writes on its own raises the connection's until a read lowers it again. Under a pooler nothing is set on
  // a connection: a transaction's begin sets every limit with `set local`.
  const lockTimeouts = new WeakMap<pg.PoolClient, number>();
  const lockTimeoutFor = async (client: pg.PoolClient, wanted: number) => {
    if (pooled || (lockTimeouts.get(client) ?? timeouts.readLockMs) === wanted) return;
    await client.query(`set lock_timeout = ${wanted}`);
    lockTimeouts.set(client, wanted);
  };
  const beginWrites = pooled
    ? limitsBegin({ ...timeouts, lockMs: timeouts.lockMs })
    : timeouts.lockMs === timeouts.readLockMs
      ? 'begin'
      : `begin; set local lock_timeout = ${timeouts.lockMs}`;

  /**
   * A pooled connection within `waitMs`. One that waits less than the pool would gives up in time, and the connection
   * that comes for it after is handed straight back (to the next in the queue).
   */
  const connectWithin = (waitMs: number): Promise<pg.PoolClient> => {
    if (waitMs >= poolWaitMs) return pool.connect();
    return new Promise((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        reject(new Error('timeout exceeded when trying to connect'));
      }, waitMs);
      pool.connect().then(
        (client) => {
          clearTimeout(timer);
          if (late) client.release();
          else resolve(client);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (!late) reject(error);
        },
      );
    });
  };

  /**
   * Runs `fn` on a client of its own, got within `waitMs` and waiting `lockMs` for a lock; a broken client, or one on
   * a host that is no longer the primary, is discarded rather than returned to the pool.
   */
  const withClient = async <T>(
    waitMs: number,
    lockMs: number | 'transaction',
    fn: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> => {
    if (interrupted) throw shuttingDown();
    let client: pg.PoolClient;
    try {
      client = await connectWithin(waitMs);
    } catch (error) {
      lookForPrimary();
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
      if (error instanceof DomainError && error.code === 'database_unavailable') {
        broken = error;
        lookForPrimary();
      }
      throw error;
    } finally {
      checkedOut.delete(client);
      const moved = hostOf.get(client) !== primary ? new Error('the primary moved') : undefined;
      client.release(lost.get(client) ?? broken ?? moved);
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
            // A transaction pooler passes unnamed statements only (PgBouncer before 1.21).
            return (await client.query(pooled ? { text: sql, values: params } : preparedOnce(sql, params))).rows as T[];
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
  const inTransaction = <T>(begin: string, fn: (tx: Queryable) => Promise<T>) =>
    withClient(timeouts.writeAcquireMs, 'transaction', async (client) => {
      const tx = wrap(client);
      await tx.exec(begin);
      try {
        const result = await fn(tx);
        // A request abandoned at shutdown must not commit after its client was told it failed.
        if (interrupted) throw shuttingDown();
        await tx.exec('commit');
        return result;
      } catch (error) {
        // In turn too: a statement asked for beside the one that failed may still be running on the client.
        await tx.exec('rollback').catch(() => {});
        throw error;
      }
    });
  /** Under a pooler, a statement whose limits are not the server connection's defaults sets them in a transaction. */
  const pooledQuery = async <T extends object>(
    sql: string,
    params?: unknown[],
    queryOpts?: QueryOptions,
  ): Promise<T[]> => {
    const reads = readsOnly(sql);
    const lockMs = reads ? timeouts.readLockMs : timeouts.lockMs;
    const wanted = { ...timeouts, lockMs };
    if (roleDefaultsMatch(await limitsOutside(), wanted))
      return withClient(
        reads && !queryOpts?.waitsAsWrite ? timeouts.acquireMs : timeouts.writeAcquireMs,
        lockMs,
        (client) => wrap(client).query<T>(sql, params),
      );
    return inTransaction(limitsBegin(wanted), (tx) => tx.query<T>(sql, params));
  };
  const listening = new Set<NoticeConnection>();
  const direct = opts.directUrl ? connectionConfig(opts.directUrl, timeouts, false, opts.schema) : undefined;
  return {
    kind: 'pg',
    query: (sql, params, queryOpts) =>
      pooled
        ? pooledQuery(sql, params, queryOpts)
        : readsOnly(sql)
          ? withClient(
              queryOpts?.waitsAsWrite ? timeouts.writeAcquireMs : timeouts.acquireMs,
              timeouts.readLockMs,
              (client) => wrap(client).query(sql, params),
            )
          : withClient(timeouts.writeAcquireMs, timeouts.lockMs, (client) => wrap(client).query(sql, params)),
    exec: (sql) => withClient(timeouts.writeAcquireMs, timeouts.lockMs, (client) => wrap(client).exec(sql)),
    // A deadlock or a serialization failure rolled the whole transaction back: it runs once more, on a fresh
    // snapshot; a second one is answered 503 (asUnavailable), never 500.
    transaction: async (fn) => {
      try {
        return await inTransaction(beginWrites, fn);
      } catch (error) {
        if (!isTransactionConflict(error) || interrupted) throw error;
        return inTransaction(beginWrites, fn);
      }
    },
    listen: async (channel, listener) => {
      // A pooler's connection is not ours between statements: LISTEN needs the server itself. Without it the
      // notices are read from their log every second instead.
      const notices =
        pooled && !direct
          ? pollNotices(pooledQuery, channel, listener)
          : listenOnOwnConnection(() => direct ?? onPrimary(), channel, listener);
      listening.add(notices);
      await notices.started;
    },
    ready: (timeoutMs) =>
      writableWithin(onPrimary(), timeoutMs).then((ready) => {
        if (!ready) lookForPrimary();
        return ready;
      }),
    interrupt: async () => {
      interrupted = true;
      const clients = [...checkedOut];
      if (pooled) {
        // Through a pooler the backend's pid is the pooler's: the cancel request goes to it, which passes it on.
        await Promise.all(clients.map((client) => cancelRequest(onPrimary(), keysOf(client))));
        return;
      }
      const pids = clients.map((client) => keysOf(client).pid).filter((pid) => pid > 0);
      if (pids.length > 0) await cancelBackends(onPrimary(), pids);
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
 * schema's search_path, say); pg lets the URL's win, so ours are added to it rather than set beside it. A
 * transaction pooler refuses startup options (PgBouncer), or drops them: then none are sent, and the limits come
 * with each transaction and from the role's defaults (session-limits.ts).
 */
function connectionConfig(url: string, timeouts: DbTimeouts, pooled: boolean, schema?: string): pg.ClientConfig {
  const parsed = new URL(url);
  const fromUrl = parsed.searchParams.get('options');
  parsed.searchParams.delete('options');
  const options = pooled
    ? [fromUrl]
    : [
        fromUrl,
        // Short OLTP queries only pay for JIT compilation, which the planner may start on big counts.
        '-c jit=off',
        `-c statement_timeout=${timeouts.statementMs}`,
        `-c lock_timeout=${timeouts.readLockMs}`,
        `-c idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`,
        schema && `-c search_path=${schema}`,
      ];
  const joined = options.filter(Boolean).join(' ');
  return {
    connectionString: parsed.toString(),
    ...(joined ? { options: joined } : {}),
    application_name: `medora (pid ${process.pid})`,
    keepAlive: true,
  };
}

/** The backend a pooled client talks to, as its cancel key names it (a pooler's own numbers behind one). */
const keysOf = (client: pg.PoolClient) => {
  const keys = client as unknown as { processID: number | null; secretKey: number | null };
  return { pid: keys.processID ?? 0, secret: keys.secretKey ?? 0 };
};

/**
 * Whether the database takes writes within `timeoutMs`, on a connection of its own so a full pool cannot make the
 * answer wait: through a pooler the connection to it succeeds while the server is away, so a statement is asked;
 * and a standby (read-only) is not ready, as an old primary come back after a failover is not.
 */
async function writableWithin(connection: pg.ClientConfig, timeoutMs: number): Promise<boolean> {
  return onConnection(connection, timeoutMs, (client) =>
    client.query<{ transaction_read_only: string }>('show transaction_read_only'),
  ).then(
    (answer) => answer.rows[0]?.transaction_read_only === 'off',
    () => false,
  );
}

/** Asks the server to cancel the statements of these backends; their transactions roll back. */
async function cancelBackends(connection: pg.ClientConfig, pids: number[]): Promise<void> {
  await onConnection(connection, 1000, (client) =>
    client.query('select pg_cancel_backend(pid) from unnest($1::int[]) as pid', [pids]),
  ).catch((error) => console.error(`database: could not cancel statements at shutdown: ${(error as Error).message}`));
}

/** A client outside the pool, bounded by `timeoutMs` on our side only (a pooler refuses a startup statement_timeout). */
async function onConnection<T>(
  connection: pg.ClientConfig,
  timeoutMs: number,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ ...connection, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
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
