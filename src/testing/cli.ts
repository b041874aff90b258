import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPglite, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { testDatabases } from './test-db.ts';

const BIN = fileURLToPath(new URL('../../bin/medora.js', import.meta.url));
export const CLI_TZ = 'Europe/Berlin';

/** A migrated, empty database the real `medora` binary reaches through its environment, as an admin's shell would. */
export interface CliDatabase {
  /** DATA_DIR for the embedded database, or DATABASE_URL naming the test's own schema. */
  env: Record<string, string>;
  /** Runs `fn` on the same database; the embedded one is closed after, so the CLI can take its lock. */
  use<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  drop(): Promise<void>;
}

export interface CliTarget {
  name: string;
  open(): Promise<CliDatabase>;
}

/** An embedded database in a temporary DATA_DIR always; a fresh schema on TEST_DATABASE_URL too when set. */
export function cliDatabases(): CliTarget[] {
  return testDatabases().map((target) => ({
    name: target.name,
    open: target.name === 'pglite' ? openEmbedded : () => openSchema(target.open),
  }));
}

async function openEmbedded(): Promise<CliDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'medora-cli-'));
  const use = async <T>(fn: (db: Db) => Promise<T>) => {
    const db = await openPglite(dataDir);
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  };
  await use(migrate);
  return { env: { DATA_DIR: dataDir }, use, drop: () => rm(dataDir, { recursive: true, force: true }) };
}

async function openSchema(open: ReturnType<typeof testDatabases>[number]['open']): Promise<CliDatabase> {
  const database = await open();
  // libpq's `options` parameter, which pg reads from the URL: every connection of the CLI's pool uses the schema.
  const url = new URL(database.url!);
  url.searchParams.set('options', `-c search_path=${database.schema}`);
  return { env: { DATABASE_URL: url.toString() }, use: (fn) => fn(database.db), drop: database.drop };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node bin/medora.js ...args` with stdout and stderr as pipes (not terminals), like cron does. */
export function runCli(args: string[], opts: { env: Record<string, string>; stdin?: string }): Promise<CliRun> {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...inherited, CLINIC_TZ: CLI_TZ, ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(opts.stdin ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
