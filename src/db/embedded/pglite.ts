import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable } from '../db.ts';
import { DEFAULT_TIMEOUTS, type DbTimeouts } from '../timeouts.ts';
import { secureDataDir } from './data-dir-permissions.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { asUnavailable, shuttingDown } from '../sql-errors.ts';
import { asNumber, asText, DATE_OID, INT8_OID, NUMERIC_OID } from '../pg-types.ts';
import { Turns } from './turns.ts';
import { readsOnly } from '../reads-only.ts';

/** The Db port on PGlite, with what the server needs to share it: turns for other clients. */
export interface PgliteDb extends Db {
  /** Resolves once no statement or transaction of this Db runs, nor will until the returned function is called. */
  takeTurn(timeoutMs: number): Promise<() => void>;
}

/** What pgliteDb uses of PGlite: PGlite itself, or PGlite on a thread of its own (embedded-thread.ts). */
export interface PgliteEngine {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
  transaction<T>(fn: (tx: Pick<PgliteEngine, 'query' | 'exec'>) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<unknown>;
  close(): Promise<void>;
}

/** PGlite in `dataDir/pglite` (in memory without one), the folder locked for this process as a command's. */
export async function openPglite(
  dataDir: string | undefined,
  timeouts: DbTimeouts = DEFAULT_TIMEOUTS,
): Promise<PgliteDb> {
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
  const options = {
    parsers: { [DATE_OID]: asText, [INT8_OID]: asNumber, [NUMERIC_OID]: asNumber },
    extensions: { pg_trgm },
  };
  const client = path ? new PGlite(path, options) : new PGlite(options);
  await client.waitReady;
  // PGlite lays out a new cluster, and rewrites its relation cache files on start, with modes of its own (0644).
  if (path) secureDataDir(path);
  return client;
}

/** `turns` is the line this Db's statements wait in; other clients of the same PGlite may share it. */
export function pgliteDb(
  client: PgliteEngine,
  timeouts: DbTimeouts,
  afterClose: () => void,
  turns = new Turns(),
): PgliteDb {
  // PGlite runs one statement at a time and cannot cancel one, so the wait is bounded before a statement is
  // handed to it: a request that gives up has sent nothing that could commit later.
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
  const wrap = (q: Pick<PgliteEngine, 'query' | 'exec'>): Queryable => ({
    query: async <T extends object>(sql: string, params?: unknown[]) => (await q.query<T>(sql, params)).rows,
    exec: async (sql: string) => {
      await q.exec(sql);
    },
  });
  const direct = wrap(client);
  return {
    kind: 'pglite',
    query: (sql, params, queryOpts) =>
      inTurn(readsOnly(sql) && !queryOpts?.waitsAsWrite ? timeouts.acquireMs : timeouts.writeAcquireMs, () =>
        direct.query(sql, params),
      ),
    exec: (sql) => inTurn(timeouts.writeAcquireMs, () => direct.exec(sql)),
    transaction: (fn) =>
      inTurn(timeouts.writeAcquireMs, () =>
        client.transaction(async (tx) => {
          const result = await fn(wrap(tx));
          if (interrupted) throw shuttingDown();
          return result;
        }),
      ),
    // One connection: a notice arrives with the result of the statement that commits it. LISTEN takes its turn
    // too, as inside another client's transaction it would wait for that transaction, or vanish with its rollback.
    listen: async (channel, listener) => {
      await inTurn(timeouts.acquireMs, () => client.listen(channel, (payload) => listener.notice(payload)));
      listener.live();
    },
    takeTurn: (timeoutMs) => turns.take(timeoutMs),
    // One connection, taken in turns: no lock of another connection to wait for.
    ready: (timeoutMs) =>
      inTurn(timeoutMs, () => direct.query('select 1')).then(
        () => true,
        () => false,
      ),
    interrupt: async () => {
      interrupted = true;
    },
    close: async () => {
      await client.close();
      afterClose();
    },
  };
}
