import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openPglite } from '../db/embedded/pglite.ts';
import { openPostgres, runOnConnection } from '../db/postgres.ts';
import type { Db } from '../db/db.ts';
import { sqlState } from '../db/sql-errors.ts';
import { migrate, readMigrations, type Migration } from '../db/migrate.ts';
import { TEST_TZ } from './test-app.ts';
import { sealAll } from './audit-sealing.ts';

export interface OpenedTestDatabase {
  db: Db;
  /** The PostgreSQL database's own URL, for a second connection pool or a `medora` process. */
  url?: string;
  /**
   * Through PgBouncer (TEST_DATABASE_POOLER_URL): another pool as `db` was opened, for a second instance of the
   * server on the same database; closed by `drop`.
   */
  anotherInstance?(): Promise<Db>;
  /** Closes the database and removes it. */
  drop(): Promise<void>;
}

/** A copy of a template in a temporary DATA_DIR, and how to remove it. */
export interface DataDirCopy {
  dataDir: string;
  remove(): Promise<void>;
}

export interface TestDatabase {
  name: string;
  /** A migrated, empty database of its own. */
  open(): Promise<OpenedTestDatabase>;
}

/**
 * The databases a test file runs on. `both`, for what the two engines do differently (drivers, SQL, races, LISTEN,
 * dumps): PGlite always, and the PostgreSQL server too when TEST_DATABASE_URL is set. `one`, for behaviour above
 * the database (HTTP, the CLI, mail): the server when it is set, PGlite otherwise, since opening PGlite costs a
 * file seconds. With TEST_DATABASE_POOLER_URL (PgBouncer in transaction mode in front of TEST_DATABASE_URL's server,
 * as scripts/test-infra starts it), the server's databases are reached through it. Each open() copies a database that was migrated once (per version of the migrations) instead of
 * migrating anew: creating and migrating an embedded database takes seconds, copying one a fraction of that.
 */
export function testDatabases(engines: 'both' | 'one'): TestDatabase[] {
  const embedded: TestDatabase = { name: 'pglite', open: openEmbedded };
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return [embedded];
  const server: TestDatabase = { name: 'postgres', open: () => openOnServer(url) };
  return engines === 'both' ? [embedded, server] : [server];
}

/**
 * For a file on both engines, `test` (its `it`) for the tests that do not depend on the engine: registered only on
 * the database testDatabases('one') gives, so the other engine runs only the tests of what the engines do
 * differently (races settled by the database, locks, LISTEN, drivers) and the file opens it for those alone.
 */
export function onOneDatabase<T extends (...args: never[]) => unknown>(target: TestDatabase, test: T): T {
  if (target.name === testDatabases('one')[0]?.name) return test;
  return (() => undefined) as unknown as T;
}

/** Builds the templates ahead of a parallel run, so test files do not all build them at once. */
export async function prepareTemplates(): Promise<void> {
  await pgliteTemplate();
  // The demo clinic is seeded by the built CLI; a run that builds none (scripts/test-infra) copies no demo.
  if (existsSync(CLI_BUNDLE)) await demoTemplate();
  const url = process.env.TEST_DATABASE_URL;
  if (url) await (await openOnServer(url)).drop();
}

// PGlite starts in a time that grows with its buffer pool, 128 MB by default; a test's database is small.
const PGLITE_TEST_SETTINGS = 'shared_buffers = 16MB';

/**
 * Names a template after the migrations applied to it, the code applying them (it makes schema_migrations) and
 * PGlite's release, whose data folder format may change.
 */
function templateKey(migrations: Migration[]): string {
  const hash = createHash('sha1');
  for (const migration of migrations) hash.update(`${migration.name}\0${migration.sql}\0`);
  hash.update(readFileSync(fileURLToPath(import.meta.resolve('../db/migrate.ts'))));
  const pglitePackage = join(dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '../package.json');
  hash.update(JSON.parse(readFileSync(pglitePackage, 'utf8')).version);
  hash.update(PGLITE_TEST_SETTINGS);
  return hash.digest('hex').slice(0, 12);
}

const execFileAsync = promisify(execFile);
const TEMPLATE_KEY = templateKey(readMigrations());
const MEDORA_BIN = fileURLToPath(new URL('../../bin/medora.js', import.meta.url));
const CLI_BUNDLE = fileURLToPath(new URL('../../dist/cli/medora.js', import.meta.url));
const TEMPLATES = join(tmpdir(), 'medora-test-templates');
const PGLITE_TEMPLATE = join(TEMPLATES, `pglite-${TEMPLATE_KEY}`);
/** The migrated template database on the server, which each test's database is copied from. */
export const POSTGRES_TEMPLATE = `medora_template_${TEMPLATE_KEY}`;

/** An embedded database's DATA_DIR holding a copy of the migrated template, for `openPglite` or a `medora` process. */
export async function embeddedDataDir(): Promise<DataDirCopy> {
  return copyOfTemplate(await pgliteTemplate());
}

/**
 * An embedded database's DATA_DIR holding a copy of the demo clinic as `medora seed --demo` (the built CLI, in
 * TEST_TZ) loads it into the migrated template: for the files about moving, serving and backing up a clinic that
 * has data, which would otherwise each seed one, seconds of CPU time apiece.
 */
export async function demoDataDir(): Promise<DataDirCopy> {
  return copyOfTemplate(await demoTemplate());
}

async function copyOfTemplate(template: string): Promise<DataDirCopy> {
  const dataDir = await mkdtemp(join(tmpdir(), 'medora-test-'));
  await copyFolder(template, join(dataDir, 'pglite'));
  return { dataDir, remove: () => rm(dataDir, { recursive: true, force: true }) };
}

// cp(1) copies a template's thousand files for a fraction of the CPU time node's fs.cp takes.
const copyFolder = (from: string, to: string) =>
  execFileAsync('cp', ['-R', from, to], { timeout: 120_000, killSignal: 'SIGKILL' });

async function openEmbedded(): Promise<OpenedTestDatabase> {
  const { dataDir, remove } = await embeddedDataDir();
  const db = await openPglite(dataDir);
  return {
    db,
    drop: async () => {
      await db.close();
      await remove();
    },
  };
}

/** The migrated PGlite data folder. */
function pgliteTemplate(): Promise<string> {
  return migratedTemplate(PGLITE_TEMPLATE, readMigrations());
}

/**
 * An embedded database's DATA_DIR holding a copy of a database with the migrations before `version` applied, from
 * a template built once per those migrations: for the tests of what a migration does to the rows written before it.
 */
export async function embeddedDataDirBefore(version: number): Promise<DataDirCopy> {
  const migrations = readMigrations().filter((m) => m.version < version);
  return copyOfTemplate(await migratedTemplate(join(TEMPLATES, `pglite-${templateKey(migrations)}`), migrations));
}

/** The PGlite data folder `template`: a copy of the new cluster with `migrations` applied. */
async function migratedTemplate(template: string, migrations: Migration[]): Promise<string> {
  const cluster = await clusterTemplate();
  return builtOnce(template, async (building) => {
    await copyFolder(cluster, join(building, 'pglite'));
    const db = await openPglite(building);
    try {
      await migrate(db, migrations);
    } finally {
      await db.close();
    }
  });
}

/** A new PGlite cluster, no migration applied: laying one out takes seconds of CPU time, copying it a fraction. */
function clusterTemplate(): Promise<string> {
  return builtOnce(join(TEMPLATES, `cluster-${templateKey([])}`), async (building) => {
    await (await openPglite(building)).close();
    await appendFile(join(building, 'pglite', 'postgresql.conf'), `\n${PGLITE_TEST_SETTINGS}\n`);
  });
}

/**
 * The demo clinic's template: the migrated one with `medora seed --demo` run on it, its audit trail sealed. Named after the migrated
 * template, the built CLI (dist/cli/medora.js, whose seed it ran) and the clinic's date, since the demo's
 * appointments are placed around today.
 */
async function demoTemplate(): Promise<string> {
  const migrated = await pgliteTemplate();
  const cli = createHash('sha1').update(readFileSync(CLI_BUNDLE)).digest('hex').slice(0, 12);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TEST_TZ }).format(new Date());
  const template = join(dirname(PGLITE_TEMPLATE), `demo-${TEMPLATE_KEY}-${cli}-${today}`);
  return builtOnce(template, async (building) => {
    await copyFolder(migrated, join(building, 'pglite'));
    const { DATABASE_URL: _url, ...inherited } = process.env;
    await execFileAsync(process.execPath, [MEDORA_BIN, 'seed', '--demo'], {
      env: { ...inherited, DATA_DIR: building, CLINIC_TZ: TEST_TZ },
      timeout: 300_000,
      killSignal: 'SIGKILL',
    });
    // Its audit trail sealed, as a running server's sealer leaves it: the copies are used long after the seeding,
    // and `medora audit verify` rightly fails on rows that waited minutes for a sealer.
    const db = await openPglite(building);
    try {
      await sealAll(db);
    } finally {
      await db.close();
    }
  });
}

/**
 * The data folder `template`, built once in the temporary directory: in a folder of its own, then renamed into
 * place, so a test file never copies half a template and a concurrent builder's work is merely discarded.
 */
async function builtOnce(template: string, build: (building: string) => Promise<void>): Promise<string> {
  if (existsSync(template)) return template;
  await mkdir(dirname(template), { recursive: true });
  const building = await mkdtemp(join(dirname(template), 'building-'));
  try {
    await build(building);
    await rename(join(building, 'pglite'), template).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST' && error.code !== 'ENOTEMPTY') throw error;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  return template;
}

const withDatabase = (url: string, name: string) => {
  const copy = new URL(url);
  copy.pathname = `/${name}`;
  return copy.toString();
};

/**
 * The migrated template database on the server at `url`, built under a temporary name and renamed when complete.
 * A database per test file, rather than a schema, also keeps one file's NOTIFYs from reaching another's
 * listeners when files run in parallel.
 */
export async function migratedTemplateOn(url: string): Promise<void> {
  const building = `medora_building_${randomBytes(6).toString('hex')}`;
  await runOnConnection(url, `create database ${building}`);
  try {
    const db = await openPostgres(withDatabase(url, building), { max: 1 });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await runOnConnection(url, `alter database ${building} rename to ${POSTGRES_TEMPLATE}`);
  } catch (error) {
    await runOnConnection(url, `drop database if exists ${building}`);
    // 42P04: another test file finished the template first.
    if (sqlState(error) !== '42P04') throw error;
  }
}

async function openOnServer(url: string): Promise<OpenedTestDatabase> {
  const name = `medora_test_${randomBytes(6).toString('hex')}`;
  const create = () => runOnConnection(url, `create database ${name} template ${POSTGRES_TEMPLATE}`);
  await create().catch(async (error) => {
    // 3D000: no template yet for these migrations.
    if (sqlState(error) !== '3D000') throw error;
    await migratedTemplateOn(url);
    await create();
  });
  const databaseUrl = withDatabase(url, name);
  const pooler = process.env.TEST_DATABASE_POOLER_URL;
  const open = () =>
    pooler
      ? openPostgres(withDatabase(pooler, name), {
          pooler: 'transaction',
          directUrl: databaseUrl,
          setRoleDefaults: true,
        })
      : openPostgres(databaseUrl);
  const db = await open();
  const instances: Db[] = [];
  return {
    db,
    url: databaseUrl,
    anotherInstance: pooler
      ? async () => {
          const another = await open();
          instances.push(another);
          return another;
        }
      : undefined,
    drop: async () => {
      for (const another of instances) await another.close();
      await db.close();
      await runOnConnection(url, `drop database ${name} with (force)`);
    },
  };
}
