import { openPostgres } from './postgres.ts';
import type { Db } from './db.ts';
import { openEmbedded } from './embedded/embedded.ts';
import type { DbTimeouts } from './timeouts.ts';
import type { Pooler } from './postgres.ts';

/**
 * For commands: PostgreSQL, or the embedded database — through the running server when there is one. Apart from
 * the adapters (pglite.ts, postgres.ts), which the embedded database's own modules build on, so that none of them
 * imports itself back.
 */
export function openDb(config: {
  databaseUrl?: string;
  databasePoolSize: number;
  databasePooler?: Pooler;
  databaseDirectUrl?: string;
  dataDir: string;
  timeouts: DbTimeouts;
  /** Under a pooler, make the timeouts this role's defaults (the servers; not the command line's longer ones). */
  setRoleDefaults?: boolean;
}): Promise<Db> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, {
        max: config.databasePoolSize,
        timeouts: config.timeouts,
        pooler: config.databasePooler,
        directUrl: config.databaseDirectUrl,
        setRoleDefaults: config.setRoleDefaults,
      })
    : openEmbedded(config.dataDir, config.timeouts);
}
