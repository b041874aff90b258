import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { closeSync, createWriteStream, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { basename, dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import type { Queryable } from './db.ts';
import { listenPrivately } from './embedded-socket.ts';
import { BackupError } from './backup-error.ts';
import type { SharedBackend } from './shared-backend.ts';

/** A backup or restore that cannot be done, with a message for the operator. */

/** The embedded server's socket for backups, next to its database socket. */
export const BACKUP_SOCKET_FILE = 'medora.sock';
// A backup of a clinic's database takes seconds; one that takes longer than this is stuck.
const BACKUP_REQUEST_TIMEOUT_MS = 10 * 60_000;
const DUMP_COMPLETE = '-- PostgreSQL database dump complete';
const CUSTOM_FORMAT_MAGIC = 'PGDMP';

/**
 * A consistent, gzipped SQL dump of the embedded database, taken by pg_dump (WebAssembly, @electric-sql/pglite-tools)
 * on PGlite's own backend during one turn, so the server's transactions wait for it and none is half in it.
 * pg_dump runs synchronously: the server answers nothing else meanwhile (a second or two for a clinic's data).
 */
export async function dumpEmbedded(backend: SharedBackend): Promise<Buffer> {
  const release = await backend.takeTurn();
  const session = backend.newSession();
  try {
    // Multi-row INSERTs: PGlite takes the dump back with one exec(), and 500 rows a statement restore quickly.
    const file = await pgDump({ pg: dumpingClient(backend), args: ['--no-owner', '--no-privileges', '--rows-per-insert=500'] });
    const sql = Buffer.from(await file.arrayBuffer());
    if (!sql.toString('utf8', Math.max(0, sql.length - 200)).includes(DUMP_COMPLETE)) throw new BackupError('pg_dump stopped before the end of the dump');
    return gzipSync(sql);
  } finally {
    try {
      // pg_dump leaves its read-only transaction open and its settings and prepared statements behind.
      await backend.end(session, [], true);
    } finally {
      release();
    }
  }
}

/**
 * pgDump talks to PGlite through these three methods only. Its DEALLOCATE ALL afterwards would drop other
 * clients' prepared statements too, so it is skipped: `backend.end` deallocates the dump's own.
 */
function dumpingClient(backend: SharedBackend): PGlite {
  const client = {
    query: async (sql: string) => ({ rows: await backend.query(sql), fields: [] }),
    exec: async (sql: string) => {
      if (!/^\s*deallocate\s+all\b/i.test(sql)) await backend.query(sql);
      return [];
    },
    execProtocolRawStream: (message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }) =>
      backend.pglite.execProtocolRawStream(message, options),
  };
  return client as unknown as PGlite;
}

export interface BackupSocket {
  close(): Promise<void>;
}

/** Serves `POST /backup` on `DATA_DIR/medora.sock` (mode 0600), for `medora backup` in another process. */
export async function serveBackups(dataDir: string, backup: () => Promise<Buffer>, log: (line: string) => void): Promise<BackupSocket> {
  const path = join(dataDir, BACKUP_SOCKET_FILE);
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    backup().then(
      (dump) => res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': dump.length }).end(dump),
      (error: Error) => {
        log(`backup: failed for medora backup: ${error.message}`);
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(error.message);
      },
    );
  });
  // The caller holds the folder's lock, so a socket file here is a dead server's.
  rmSync(path, { force: true });
  await listenPrivately(server, path);
  return { close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Asks the running server in `dataDir` for a backup. */
export function requestBackup(dataDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: join(dataDir, BACKUP_SOCKET_FILE), method: 'POST', path: '/backup', timeout: BACKUP_REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode === 200) resolve(body);
        else reject(new BackupError(`the server could not make a backup: ${body.toString('utf8') || `status ${res.statusCode}`}`));
      });
    });
    req.on('timeout', () => req.destroy(new BackupError(`the server took over ${BACKUP_REQUEST_TIMEOUT_MS / 60_000} minutes to make a backup`)));
    req.on('error', (error) => reject(error instanceof BackupError ? error : new BackupError(`cannot reach the server for a backup: ${error.message}`)));
    req.end();
  });
}

/**
 * Writes `data` under a hidden temporary name beside `path`, flushed to disk, then renames it: a crash at any
 * moment leaves either the complete file or none under `path`.
 */
export function writeAtomically(path: string, data: Uint8Array): void {
  const temporary = partialName(path);
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(path));
}

/** The temporary name a backup is written under until complete. */
export const partialName = (path: string) => join(dirname(path), `.${basename(path)}.partial`);

function syncFolder(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The SQL of an embedded backup, refused when it is something else or was cut short. */
export function readEmbeddedBackup(file: string): string {
  const data = readFileSync(file);
  if (data.subarray(0, CUSTOM_FORMAT_MAGIC.length).toString('latin1') === CUSTOM_FORMAT_MAGIC) {
    throw new BackupError(`${file} is a backup of a PostgreSQL server (pg_dump custom format); restore it with DATABASE_URL set`);
  }
  let sql: string;
  try {
    sql = gunzipSync(data).toString('utf8');
  } catch {
    throw new BackupError(`${file} is not a Medora backup (expected a gzipped SQL dump)`);
  }
  if (!sql.includes(DUMP_COMPLETE)) throw new BackupError(`${file} is incomplete: it does not end where pg_dump ends a dump`);
  return sql;
}

/** PostgreSQL: pg_dump's custom format (compressed; pg_restore picks what to restore), written as `out` once complete. */
export async function backupPostgres(url: string, out: string): Promise<void> {
  const temporary = partialName(out);
  try {
    // One left by a backup that was killed.
    rmSync(temporary, { force: true });
    // For the owner alone: a dump holds password hashes.
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      // Through a pipe, not --file: pg_dump then dies with this process (its next write finds the pipe closed)
      // instead of writing on into a file nobody will use. A dump waits for no lock longer than 30 s: a long
      // migration or a stuck transaction fails the backup instead.
      await runTool('pg_dump', ['--format=custom', '--lock-wait-timeout=30s', `--dbname=${url}`], createWriteStream(temporary, { fd, autoClose: false }));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, out);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(out));
}

/** Restores a custom-format dump, replacing what the dump holds, all or nothing. */
export async function restorePostgres(url: string, file: string): Promise<void> {
  const head = readFileSync(file).subarray(0, CUSTOM_FORMAT_MAGIC.length).toString('latin1');
  if (head !== CUSTOM_FORMAT_MAGIC) {
    throw new BackupError(`${file} is not a pg_dump custom-format backup of PostgreSQL${head.startsWith('\x1f\x8b') ? ' but of an embedded database; restore it with DATABASE_URL unset' : ''}`);
  }
  await runTool('pg_restore', ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', `--dbname=${url}`, file]);
}

/** Runs a PostgreSQL client tool; what it writes to stdout goes to `output`, when given. */
function runTool(command: string, args: string[], output?: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', output ? 'pipe' : 'ignore', 'pipe'] });
    const written = output && child.stdout ? pipeline(child.stdout, output) : Promise.resolve();
    written.catch(reject);
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(`${command} is not installed; install PostgreSQL's client tools of your server's version (Debian: apt-get install postgresql-client)`)
          : error,
      ),
    );
    child.on('close', (code) => (code === 0 ? written.then(resolve, reject) : reject(new BackupError(`${command} failed: ${stderr.trim() || `exit code ${code}`}`))));
  });
}

export interface TableCount {
  table: string;
  rows: number;
}

/** Row counts of the tables that hold data (schema_migrations aside), for saying what a restore replaces. */
export async function tableCounts(db: Queryable): Promise<TableCount[]> {
  const tables = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables
     where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'
     order by table_name`,
  );
  if (tables.length === 0) return [];
  const counts = await db.query<TableCount>(
    tables.map(({ name }) => `select '${name.replaceAll("'", "''")}' as "table", count(*)::int as rows from "${name.replaceAll('"', '""')}"`).join(' union all '),
  );
  return counts.filter((count) => count.rows > 0);
}

export const describeCounts = (counts: TableCount[]) => counts.map(({ table, rows }) => `${rows} ${table}`).join(', ');
