import { CLI_STATEMENT_TIMEOUT_MS, loadConfig, type Config } from './config.ts';
import { makeApp, type App } from './app.ts';
import { openPostgres } from './db/postgres.ts';
import type { Db } from './db/db.ts';
import { openDb } from './db/open-db.ts';
import { replicaReads } from './db/read-replica.ts';
import { migrate, newerMigrations } from './db/migrate.ts';
import { connectedRole, grantAppRole } from './db/app-role.pg.ts';
import { sqlState } from './db/sql-errors.ts';
import { loadAuditKeys } from './audit-signing.ts';
import { checkpointLine } from './domain/audit/checkpoint.ts';
import { DomainError } from './domain/shared/errors.ts';
import { cliActor } from './domain/shared/actor.ts';
import type { DbTimeouts } from './db/timeouts.ts';
import { systemClock } from './domain/shared/clock.ts';

/** The composed app, and the database it runs on for what the process itself does with it (its role, closing). */
export interface Runtime {
  app: App;
  db: Db;
  config: Config;
  applied: string[];
}

/**
 * Opens the configured database (or takes the one `opened`), brings its schema up to date and composes the app.
 * The command line's reports may run longer than a screen's request (`longStatements`).
 */
export async function openRuntime(
  config: Config = loadConfig(),
  opts: { longStatements?: boolean; opened?: Db } = {},
): Promise<Runtime> {
  const timeouts = opts.longStatements
    ? { ...config.timeouts, statementMs: Math.max(config.timeouts.statementMs, CLI_STATEMENT_TIMEOUT_MS) }
    : config.timeouts;
  const auditKeys = await loadAuditKeys({
    signingKeyFile: config.auditSigningKeyFile,
    verifyKeyFile: config.auditVerifyKeyFile,
  });
  const db = opts.opened ?? (await openDb({ ...config, timeouts, setRoleDefaults: !opts.longStatements }));
  let replica: Db | undefined;
  try {
    const applied = config.databaseOwnerUrl
      ? await migrateAsOwner(config.databaseOwnerUrl, db, timeouts)
      : config.databaseDirectUrl
        ? await migrateDirectly(config.databaseDirectUrl, timeouts)
        : await migrateAsConnected(db);
    const newer = await newerMigrations(db);
    if (newer.length > 0) {
      console.error(
        `warning: the database has migrations this Medora does not know (${newer.join(', ')}): a newer release has run on it.`,
      );
    }
    replica = config.databaseReadUrl
      ? await openPostgres(config.databaseReadUrl, {
          max: config.databasePoolSize,
          timeouts,
          pooler: config.databasePooler,
        })
      : undefined;
    const reads = replica ? replicaReads(db, replica, config.databaseReadMaxLagS) : db;
    const opened = replica ? withReplica(db, replica) : db;
    return { app: makeApp({ db: opened, reads, clock: systemClock, config, auditKeys }), db: opened, config, applied };
  } catch (error) {
    await replica?.close();
    await db.close();
    throw error;
  }
}

/** The primary, whose close also closes the replica its lag-tolerant reads go to. */
function withReplica(db: Db, replica: Db): Db {
  return {
    ...db,
    close: async () => {
      await replica.close();
      await db.close();
    },
  };
}

/** Migrates past the pooler (DATABASE_DIRECT_URL), on a connection of the server's own, as the same role. */
async function migrateDirectly(directUrl: string, timeouts: DbTimeouts): Promise<string[]> {
  const direct = await openPostgres(directUrl, { max: 1, timeouts });
  try {
    return await migrateAsConnected(direct);
  } finally {
    await direct.close();
  }
}

/**
 * Migrates over a connection of the tables' owner (DATABASE_OWNER_URL), then grants the application's role what
 * the new schema needs, so every table a migration adds is usable by it at once.
 */
async function migrateAsOwner(ownerUrl: string, app: Db, timeouts: DbTimeouts): Promise<string[]> {
  const owner = await openPostgres(ownerUrl, { max: 1, timeouts });
  try {
    const applied = await migrate(owner);
    const role = await connectedRole(app);
    // The same role in both URLs, or a superuser: nothing to grant; the server warns at start.
    if (!role.mayAlterTrail) await grantAppRole(owner, role.user);
    return applied;
  } finally {
    await owner.close();
  }
}

async function migrateAsConnected(db: Db): Promise<string[]> {
  try {
    return await migrate(db);
  } catch (error) {
    if (sqlState(error) !== '42501') throw error;
    throw new DomainError(
      'forbidden',
      'migration_not_permitted',
      `DATABASE_URL's role may not migrate the database (${(error as Error).message}): set DATABASE_OWNER_URL to the role that owns Medora's tables`,
    );
  }
}

/** On PostgreSQL, a warning when the server runs as a role that could disable the audit trail's triggers. */
export async function databaseRoleWarning(db: Db, config: Pick<Config, 'databaseUrl'>): Promise<string | undefined> {
  // The embedded database has one role, and its protection is the folder's (owner-only) mode.
  if (!config.databaseUrl) return undefined;
  const role = await connectedRole(db);
  if (!role.mayAlterTrail) return undefined;
  return (
    `warning: Medora runs as the PostgreSQL role "${role.user}", which owns its tables (or is a superuser): it could disable ` +
    `the audit trail's triggers and rewrite it. Run the server as a role of its own, DATABASE_OWNER_URL for migrations ` +
    `(README: "The audit trail").`
  );
}

const DAY_MS = 86_400_000;

/** Runs `task` now and every day after while the server runs; `task` logs its own failure, tried again the next day. */
function daily(task: () => Promise<void>): { stop(): void } {
  void task();
  const timer = setInterval(task, DAY_MS).unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Prunes the audit trail's anonymous sign-in failures now and every day after, while the server runs. Every
 * instance on one database may do it: a second pruning finds nothing left to delete.
 */
export function pruneAuditDaily(app: App, log: (line: string) => void): { stop(): void } {
  return daily(async () => {
    try {
      const { removed, olderThanDays } = await app.audit.pruneAnonymousFailures();
      if (removed > 0) log(`audit: removed ${removed} anonymous failed sign-in(s) older than ${olderThanDays} days`);
    } catch (error) {
      log(`audit: pruning failed: ${(error as Error).message}; trying again tomorrow`);
    }
  });
}

/**
 * Bills every whole week of nights of the stays still in a bed, now and every day after, while the server runs.
 * Every instance on one database may do it: a stay another instance is billing is skipped, and a billed week is
 * never billed again.
 */
export function billInterimStaysDaily(app: App, log: (line: string) => void): { stop(): void } {
  return daily(async () => {
    try {
      const { bills } = await app.inpatient.billInterimWeeks(cliActor('interim-bills'));
      if (bills > 0) log(`ward: ${bills} interim bill(s) for long stays`);
    } catch (error) {
      log(`ward: interim billing failed: ${(error as Error).message}; trying again tomorrow`);
    }
  });
}

const HOUR_MS = 3_600_000;

/**
 * Signs a checkpoint of the audit trail now and every hour after while the server runs, unless the chain has not
 * moved since the last one; each is logged as one line, a copy outside the database for `medora audit verify
 * --checkpoints`. Instances on one database take turns (the store's lock), so one head is signed once.
 */
export function checkpointAuditHourly(app: App, log: (line: string) => void): { stop(): void } {
  const sign = async () => {
    try {
      const outcome = await app.auditCheckpoints.signCheckpoint({ onlyIfMoved: true });
      if (outcome.signed) log(checkpointLine(outcome.signed));
    } catch (error) {
      log(`audit: signing a checkpoint failed: ${(error as Error).message}; trying again in an hour`);
    }
  };
  void sign();
  const timer = setInterval(sign, HOUR_MS).unref();
  return { stop: () => clearInterval(timer) };
}
