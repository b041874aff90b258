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
