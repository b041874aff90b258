import { connect } from 'node:net';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { secureDataDir } from './data-dir-permissions.ts';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createPglite, openPglite, pgliteDb, type PgliteDb } from './pglite.ts';
import { openPostgres } from '../postgres.ts';
import type { Db } from '../db.ts';
import { DEFAULT_TIMEOUTS, type DbTimeouts } from '../timeouts.ts';
import { acquireDataDirLock, DatabaseLockedError } from './data-dir-lock.ts';
import { SOCKET_FILE } from './embedded-socket.ts';
import { startEmbeddedThread, type EmbeddedThreadOptions } from './embedded-thread.ts';
import { Turns } from './turns.ts';
import { SharedBackend } from './shared-backend.ts';
import { scheduleNightlyBackups } from './nightly-backup.ts';
import { BackupError } from '../backup-error.ts';
import { BACKUP_SOCKET_FILE, requestBackup, serveBackups } from './backup-socket.ts';
import { dumpEmbedded, readEmbeddedBackup } from './embedded-dump.ts';
import { describeCounts, tableCounts, type TableCount } from '../table-counts.ts';
import { rebaseAuditChain } from '../audit.pg.ts';

/** The embedded database as `medora serve` holds it; closing the Db stops its sockets and nightly backups too. */
export interface EmbeddedServer {
  db: Db;
  /** Nightly backups into DATA_DIR/backups (see scheduleNightlyBackups). */
  backUpNightly(opts: { time: string; keep: number; timeZone: string }): void;
}

// A server that has locked the folder opens its socket within seconds, once PGlite has read the folder.
const SERVER_START_WAIT_MS = 30_000;
// Through the server every statement takes its turn on one backend; more connections would only wait in line.
const SOCKET_POOL_SIZE = 2;

/**
 * Opens DATA_DIR for the server, which alone opens the folder, and lets other processes in: PostgreSQL's wire
 * protocol on `DATA_DIR/.s.PGSQL.5432` for the CLI, psql and pg_dump, and backups on `DATA_DIR/medora.sock`.
 * A second server, or a command that opened the folder itself, is refused with the holder's pid. `socket` is for
 * tests: the socket's close grace.
 */
export async function serveEmbedded(
  dataDir: string,
  timeouts: DbTimeouts,
  log: (line: string) => void,
  socket: Pick<EmbeddedThreadOptions, 'closeGraceMs'> = {},
): Promise<EmbeddedServer> {
  const closed = secureDataDir(dataDir);
  if (closed > 0)
    log(
      `${dataDir}: made ${closed} files and folders readable by their owner only; other users of this machine could read them`,
    );
  const lock = await acquireDataDirLock(dataDir, 'server', () => accepts(join(dataDir, SOCKET_FILE)));
  const stops: (() => Promise<void>)[] = [];
  try {
    // PGlite's statements run on a thread of their own, in the line of turns the server's requests wait in with
    // their acquire timeout: while a socket client's long statement runs, requests are refused in time, and
    // whatever needs no database (liveness) answers at once.
    const turns = new Turns();
    const thread = await startEmbeddedThread({
      dataDir,
      turns,
      statementMs: timeouts.statementMs,
      idleInTransactionMs: timeouts.idleInTransactionMs,
      closeGraceMs: socket.closeGraceMs,
      log,
    });
    const inner = pgliteDb(thread, timeouts, () => lock.release(), turns);
    stops.push(() => inner.close());
    const backup = () => thread.backup();
    const control = await serveBackups(dataDir, backup, log);
    stops.unshift(() => control.close());
    const close = async () => {
      for (const stop of stops) await stop();
    };
    const backUpNightly = (opts: { time: string; keep: number; timeZone: string }) => {
      const nightly = scheduleNightlyBackups({ ...opts, dir: join(dataDir, 'backups'), backup, log });
      stops.unshift(() => nightly.stop());
    };
    return { db: { ...inner, close }, backUpNightly };
  } catch (error) {
    for (const stop of stops) await stop().catch(() => {});
    if (stops.length === 0) lock.release();
    throw error;
  }
}

/**
 * For every other command: through the running server when there is one, so the CLI works unchanged while
 * `medora serve` runs; otherwise the folder itself, locked for the command's run.
 */
export async function openEmbedded(dataDir: string, timeouts: DbTimeouts = DEFAULT_TIMEOUTS): Promise<Db> {
  const socketPath = join(dataDir, SOCKET_FILE);
  if (await accepts(socketPath)) return throughServer(dataDir, timeouts);
  try {
    return await openPglite(dataDir, timeouts);
  } catch (error) {
    if (!(error instanceof DatabaseLockedError) || error.holder?.role !== 'server') throw error;
    if (await waitUntilAccepting(socketPath, SERVER_START_WAIT_MS)) return throughServer(dataDir, timeouts);
    throw new DatabaseLockedError(
      dataDir,
      error.holder,
      `The server does not answer on ${socketPath}; stop it and try again.`,
    );
  }
}

/** A gzipped SQL dump: made by the running server, or from the folder itself when none runs. */
export async function backupEmbedded(dataDir: string): Promise<Buffer> {
  const backupSocket = join(dataDir, BACKUP_SOCKET_FILE);
  if (await accepts(backupSocket)) return requestBackup(dataDir);
  if (!existsSync(join(dataDir, 'pglite')))
    throw new BackupError(`There is no embedded database in ${dataDir} to back up`);
  try {
    return await withFolder(dataDir, (pglite, db) => dumpEmbedded(new SharedBackend(pglite, db)));
  } catch (error) {
    if (!(error instanceof DatabaseLockedError) || error.holder?.role !== 'server') throw error;
    if (await waitUntilAccepting(backupSocket, SERVER_START_WAIT_MS)) return requestBackup(dataDir);
    throw error;
  }
}

export interface EmbeddedRestore {
  replaced: TableCount[];
  restored: TableCount[];
  /** Where the replaced database was moved, when there was one with data. */
  keptAt?: string;
}

/**
 * Restores an embedded backup into DATA_DIR, which no server may be using. The dump is loaded into a new folder
 * beside the database, which takes its place only once complete; a database with data is replaced only with
 * `force`, and is kept beside it rather than deleted.
 */
export async function restoreEmbedded(
  dataDir: string,
  file: string,
  opts: { force: boolean },
): Promise<EmbeddedRestore> {
  const sql = readEmbeddedBackup(file);
  if (await accepts(join(dataDir, SOCKET_FILE))) {
    throw new BackupError(
      `A Medora server is running on ${dataDir}; stop it first, as a restore replaces the database it serves`,
    );
  }
  secureDataDir(dataDir);
  const lock = await acquireDataDirLock(dataDir, 'command');
  try {
    const current = join(dataDir, 'pglite');
    const replaced = existsSync(current) ? await countsIn(current) : [];
    if (replaced.length > 0 && !opts.force) {
      throw new BackupError(
        `The embedded database in ${dataDir} is not empty (${describeCounts(replaced)}); add --force to replace it`,
      );
    }
    const incoming = join(dataDir, 'pglite.restoring');
    rmSync(incoming, { recursive: true, force: true });
    const db = pgliteDb(await createPglite(incoming), DEFAULT_TIMEOUTS, () => {});
    let restored: TableCount[];
    try {
      await db.exec(sql);
      // The dump empties search_path for its own statements.
      await db.exec('reset all');
      // A new cluster: its transaction ids start below those the backup's audit rows carry.
      await db.transaction((tx) => rebaseAuditChain(tx));
      restored = await tableCounts(db);
    } catch (error) {
      await db.close();
      rmSync(incoming, { recursive: true, force: true });
      throw new BackupError(
        `${file} could not be restored, and the database in ${dataDir} is as it was: ${(error as Error).message}`,
      );
    }
    await db.close();
    let keptAt: string | undefined;
    if (replaced.length > 0) {
      keptAt = join(dataDir, `pglite.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      renameSync(current, keptAt);
    } else {
      rmSync(current, { recursive: true, force: true });
    }
    renameSync(incoming, current);
    return { replaced, restored, keptAt };
  } finally {
    lock.release();
  }
}

async function countsIn(path: string): Promise<TableCount[]> {
  const db = pgliteDb(await createPglite(path), DEFAULT_TIMEOUTS, () => {});
  try {
    return await tableCounts(db);
  } finally {
    await db.close();
  }
}

async function withFolder<T>(dataDir: string, fn: (pglite: PGlite, db: PgliteDb) => Promise<T>): Promise<T> {
  secureDataDir(dataDir);
  const lock = await acquireDataDirLock(dataDir, 'command');
  try {
    const pglite = await createPglite(join(dataDir, 'pglite'));
    const db = pgliteDb(pglite, DEFAULT_TIMEOUTS, () => {});
    try {
      return await fn(pglite, db);
    } finally {
      await db.close();
    }
  } finally {
    lock.release();
  }
}

function throughServer(dataDir: string, timeouts: DbTimeouts): Promise<Db> {
  // A host that is a directory is a Unix socket directory to pg, as to libpq.
  return openPostgres(`postgres://postgres@${encodeURIComponent(resolve(dataDir))}/postgres`, {
    max: SOCKET_POOL_SIZE,
    timeouts,
  });
}

function accepts(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect(path);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      answer(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitUntilAccepting(path: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await accepts(path)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}
