import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_STATEMENT_TIMEOUT_MS } from '../../src/config.ts';
import { openPglite } from '../../src/db/embedded/pglite.ts';
import { openPostgres, runOnConnection } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/db.ts';
import { DEFAULT_TIMEOUTS } from '../../src/db/timeouts.ts';

// Generating a million appointments is one statement per table: on a busy machine it takes longer than a
// request may, so the bench's own handle waits as long as the command line's reports do.
export const GENERATOR_TIMEOUTS = {
  ...DEFAULT_TIMEOUTS,
  statementMs: CLI_STATEMENT_TIMEOUT_MS,
  lockMs: 60_000,
  idleInTransactionMs: 60_000,
};

/** A database made for one bench run: where the servers find it, and how to remove it afterwards. */
export interface BenchDatabase {
  kind: 'pglite' | 'postgres';
  /** What a child server needs in its environment to use this database. */
  env: Record<string, string>;
  open(): Promise<Db>;
  /** PGlite belongs to one process: the bench must close its own handle before a server opens the folder. */
  exclusive: boolean;
  remove(): Promise<void>;
}

/**
 * With a server URL, a new database `bench_medora_<random>` beside the one named (dropped at the end);
 * without, an embedded database in a temporary DATA_DIR.
 */
export async function createBenchDatabase(serverUrl: string | undefined): Promise<BenchDatabase> {
  if (!serverUrl) {
    const dataDir = await mkdtemp(join(tmpdir(), 'medora-bench-'));
    return {
      kind: 'pglite',
      env: { DATA_DIR: dataDir },
      open: () => openPglite(dataDir, GENERATOR_TIMEOUTS),
      exclusive: true,
      remove: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `bench_medora_${randomBytes(5).toString('hex')}`;
  await runOnConnection(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    env: { DATABASE_URL: url.toString() },
    open: () => openPostgres(url.toString(), { timeouts: GENERATOR_TIMEOUTS }),
    exclusive: false,
    remove: () => runOnConnection(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
