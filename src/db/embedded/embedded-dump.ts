import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';
import { BackupError } from '../backup-error.ts';
import { CUSTOM_FORMAT_MAGIC } from '../pg-tools.ts';
import type { SharedBackend } from './shared-backend.ts';

const DUMP_COMPLETE = '-- PostgreSQL database dump complete';

/**
 * A consistent, gzipped SQL dump of the embedded database, taken by pg_dump (WebAssembly, @electric-sql/pglite-tools)
 * on PGlite's own backend during one turn, so the server's transactions wait for it and none is half in it.
 * pg_dump runs synchronously, on the embedded database's thread under `medora serve` (embedded-worker.ts): the
 * server's requests needing the database wait their turn meanwhile (a second or two for a clinic's data).
 */
export async function dumpEmbedded(backend: SharedBackend): Promise<Buffer> {
  const release = await backend.takeTurn();
  const session = backend.newSession();
  try {
    // Multi-row INSERTs: PGlite takes the dump back with one exec(), and 500 rows a statement restore quickly.
    const file = await pgDump({
      pg: dumpingClient(backend),
      args: ['--no-owner', '--no-privileges', '--rows-per-insert=500'],
    });
    const sql = Buffer.from(await file.arrayBuffer());
    if (!sql.toString('utf8', Math.max(0, sql.length - 200)).includes(DUMP_COMPLETE))
      throw new BackupError('pg_dump stopped before the end of the dump');
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

/** The SQL of an embedded backup, refused when it is something else or was cut short. */
export function readEmbeddedBackup(file: string): string {
  return embeddedBackupSql(readFileSync(file), file);
}

/** The SQL of an embedded backup's bytes, `file` naming them in the errors. */
export function embeddedBackupSql(data: Buffer, file: string): string {
  if (data.subarray(0, CUSTOM_FORMAT_MAGIC.length).toString('latin1') === CUSTOM_FORMAT_MAGIC) {
    throw new BackupError(
      `${file} is a backup of a PostgreSQL server (pg_dump custom format); restore it with DATABASE_URL set`,
    );
  }
  let sql: string;
  try {
    sql = gunzipSync(data).toString('utf8');
  } catch {
    throw new BackupError(`${file} is not a Medora backup (expected a gzipped SQL dump)`);
  }
  if (!sql.includes(DUMP_COMPLETE))
    throw new BackupError(`${file} is incomplete: it does not end where pg_dump ends a dump`);
  return sql;
}
