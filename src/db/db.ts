import { mkdirSync, openSync, writeFileSync, readFileSync, unlinkSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export type Row = Record<string, any>;

/** What a store needs: run one statement, or several without parameters. */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
}

/** The Db port: PGlite in a data folder, or a pg Pool against a PostgreSQL server. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'pg';
  /** All or nothing: `fn` gets a handle bound to one transaction. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Hears NOTIFY on `channel` until `close()`; see NoticeListener for when notices may have been missed. */
  listen(channel: string, listener: NoticeListener): Promise<void>;
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

export async function openPglite(dataDir: string | undefined): Promise<Db> {
  const options = { parsers: { [DATE_OID]: asText, [INT8_OID]: asNumber, [NUMERIC_OID]: asNumber }, extensions: { pg_trgm } };
  let releaseLock = () => {};
  let client: PGlite;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    releaseLock = acquireDataDirLock(dataDir);
    client = new PGlite(join(dataDir, 'pglite'), options);
  } else {
    client = new PGlite(options);
  }
  try {
    await client.waitReady;
  } catch (error) {
    releaseLock();
    throw error;
  }
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <T extends Row>(sql: string, params?: unknown[]) => (await q.query<T>(sql, params as any[])).rows,
    exec: async (sql: string) => {
      await q.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(client),
    // PGlite is one connection: its transaction() queues every other query until this one ends.
    transaction: (fn) => client.transaction((tx) => fn(wrap(tx as any))),
    // One connection in this process: a notice arrives with the result of the statement that commits it.
    listen: async (channel, listener) => {
      await client.listen(channel, (payload) => listener.notice(payload));
      listener.live();
    },
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

export async function openPostgres(url: string, opts: { schema?: string; max?: number } = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    // Short OLTP queries only pay for JIT compilation, which the planner may start on big counts.
    options: ['-c jit=off', opts.schema && `-c search_path=${opts.schema}`].filter(Boolean).join(' '),
    types: {
      getTypeParser: ((oid: number, format?: any) => {
        if (oid === DATE_OID) return asText;
        if (oid === INT8_OID || oid === NUMERIC_OID) return asNumber;
        return pg.types.getTypeParser(oid, format);
      }) as any,
    },
  });
  // An idle client's error would otherwise crash the process; the next query reconnects.
  pool.on('error', (error) => console.error(`database: idle client error: ${error.message}`));
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    query: async <T extends Row>(sql: string, params?: unknown[]) => (await q.query(preparedOnce(sql, params))).rows as T[],
    exec: async (sql: string) => {
      await q.query(sql);
    },
  });
  const listening = new Set<NoticeConnection>();
  return {
    kind: 'pg',
    ...wrap(pool),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    listen: async (channel, listener) => {
      const connection = listenOnOwnConnection(url, channel, listener);
      listening.add(connection);
      await connection.started;
    },
    close: async () => {
      await Promise.all([...listening].map((connection) => connection.stop()));
      await pool.end();
    },
  };
}

interface NoticeConnection {
  /** Settles once the first attempt to listen has succeeded or failed. */
  started: Promise<void>;
  stop(): Promise<void>;
}

const RELISTEN_AFTER_MS = 1000;

/** LISTEN on a client outside the pool, connecting again a second after it is lost, until stopped. */
function listenOnOwnConnection(url: string, channel: string, listener: NoticeListener): NoticeConnection {
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
    const attempt = new pg.Client({ connectionString: url, application_name: `medora notices (pid ${process.pid})` });
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

export function openDb(config: { databaseUrl?: string; databasePoolSize: number; dataDir: string }): Promise<Db> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, { max: config.databasePoolSize }) : openPglite(config.dataDir);
}

/** A database error with its SQLSTATE, for adapters to translate (never by message text). */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}

export function constraintName(error: unknown): string | undefined {
  return (error as { constraint?: string })?.constraint;
}

/** One process owns an embedded database; a second gets a clear error instead of a corrupted folder. */
export function acquireDataDirLock(dataDir: string): () => void {
  const path = join(dataDir, 'medora.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {}
      };
    } catch (error) {
      if (sqlState(error) !== 'EEXIST') throw error;
      const holder = Number(readFileSync(path, 'utf8'));
      // Our own pid counts too: two PGlite instances on one folder in one process corrupt it just the same.
      if (holder && isAlive(holder)) {
        throw new DatabaseLockedError(dataDir, holder);
      }
      unlinkSync(path); // left behind by a process that has died
    }
  }
  throw new DatabaseLockedError(dataDir, 0);
}

export class DatabaseLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is in use by another Medora process${pid ? ` (pid ${pid}, probably a running server)` : ''}. ` +
        'Stop that process and try again, or set DATABASE_URL to use a PostgreSQL server that several processes can share.',
    );
    this.name = 'DatabaseLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return sqlState(error) === 'EPERM';
  }
}
