/**
 * Starts the bare twins (twins.ts) as the bench starts Medora: from PORT, HOST, CLINIC_TZ and DATABASE_URL or
 * DATA_DIR, with the database opened exactly as Medora opens it (loadConfig's pool size and timeouts).
 */
import { loadConfig } from '../../src/config.ts';
import { openDb } from '../../src/db/open-db.ts';
import { createTwinServer } from './twins.ts';

const config = loadConfig();
const db = await openDb(config);
const server = createTwinServer(db, { config });
server.listen(config.port, config.host);

process.once('SIGTERM', () => {
  server.close();
  server.closeIdleConnections();
  void db.close().then(() => process.exit(0));
});
