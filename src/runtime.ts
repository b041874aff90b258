import { CLI_STATEMENT_TIMEOUT_MS, loadConfig, type Config } from './config.ts';
import { makeApp, type App } from './app.ts';
import { openDb, type Db } from './db/db.ts';
import { migrate, newerMigrations } from './db/migrate.ts';
import { systemClock } from './domain/shared/clock.ts';

/**
 * Opens the configured database (or takes the one `opened`), brings its schema up to date and composes the app.
 * The command line's reports may run longer than a screen's request (`longStatements`).
 */
export async function openRuntime(
  config: Config = loadConfig(),
  opts: { longStatements?: boolean; opened?: Db } = {},
): Promise<{ app: App; config: Config; applied: string[] }> {
  const timeouts = opts.longStatements
    ? { ...config.timeouts, statementMs: Math.max(config.timeouts.statementMs, CLI_STATEMENT_TIMEOUT_MS) }
    : config.timeouts;
  const db = opts.opened ?? (await openDb({ ...config, timeouts }));
  try {
    const applied = await migrate(db);
    const newer = await newerMigrations(db);
    if (newer.length > 0) {
      console.error(`warning: the database has migrations this Medora does not know (${newer.join(', ')}): a newer release has run on it.`);
    }
    return { app: makeApp({ db, clock: systemClock, config }), config, applied };
  } catch (error) {
    await db.close();
    throw error;
  }
}

const DAY_MS = 86_400_000;

/**
 * Prunes the audit trail's anonymous sign-in failures now and every day after, while the server runs. Every
 * instance on one database may do it: a second pruning finds nothing left to delete. A failure is logged and
 * tried again the next day.
 */
export function pruneAuditDaily(app: App, log: (line: string) => void): { stop(): void } {
  const prune = async () => {
    try {
      const { removed, olderThanDays } = await app.audit.pruneAnonymousFailures();
      if (removed > 0) log(`audit: removed ${removed} anonymous failed sign-in(s) older than ${olderThanDays} days`);
    } catch (error) {
      log(`audit: pruning failed: ${(error as Error).message}; trying again tomorrow`);
    }
  };
  void prune();
  const timer = setInterval(prune, DAY_MS).unref();
  return { stop: () => clearInterval(timer) };
}
