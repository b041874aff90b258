import { loadConfig, type Config } from './config.ts';
import { makeApp, type App } from './app.ts';
import { openDb } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { systemClock } from './domain/shared/clock.ts';

/** Opens the configured database, brings its schema up to date and composes the app. */
export async function openRuntime(config: Config = loadConfig()): Promise<{ app: App; config: Config; applied: string[] }> {
  const db = await openDb(config);
  try {
    const applied = await migrate(db);
    return { app: makeApp({ db, clock: systemClock, config }), config, applied };
  } catch (error) {
    await db.close();
    throw error;
  }
}
