/**
 * The ceiling for this stack on this machine: bare node:http on the same database driver, answering
 * GET /api/doctors with the SQL a request needs when nothing is remembered — the session lookup of the bearer
 * token, then the catalogue's page and count — through Medora's own stores and mapper, in the same list shape.
 * What it leaves out is the framework: routing, validation, security headers, request ids and the request log.
 * Medora remembers session lookups (src/db/session-cache.ts), which is why it can serve more than this.
 * The bench starts it like Medora, from PORT and DATABASE_URL or DATA_DIR; its pool has pg's default of 10
 * connections, as a bare server of a few lines would.
 */
import { createServer } from 'node:http';
import { loadConfig } from '../../src/config.ts';
import { sessionStore } from '../../src/db/auth.pg.ts';
import { doctorStore } from '../../src/db/catalogue.pg.ts';
import { openDb } from '../../src/db/db.ts';
import { pageRequest } from '../../src/domain/shared/pagination.ts';
import { listOf } from '../../src/http/answers.ts';
import { bearerToken } from '../../src/http/parse.ts';
import { bearerTokens } from '../../src/security.ts';

const PG_DEFAULT_POOL_SIZE = 10;
const config = loadConfig();
const db = await openDb({ ...config, databasePoolSize: PG_DEFAULT_POOL_SIZE });
const sessions = sessionStore(db);
const doctors = doctorStore(db);

const server = createServer(async (req, res) => {
  const answer = (status: number, body: unknown) => {
    const payload = Buffer.from(JSON.stringify(body));
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': payload.length });
    res.end(payload);
  };
  try {
    if (req.url === '/api/health') return answer(200, { status: 'ok' });
    const token = bearerToken(req.headers.authorization);
    const user = token && (await sessions.findUser(bearerTokens.digest(token), new Date()));
    if (!user) return answer(401, { message: 'Please sign in', code: 'unauthenticated' });
    answer(200, listOf('doctors', await doctors.list(pageRequest({}))).body);
  } catch (error) {
    console.error(error);
    answer(500, { message: 'Internal error' });
  }
});
server.listen(config.port, config.host);

process.once('SIGTERM', () => {
  server.close();
  server.closeIdleConnections();
  void db.close().then(() => process.exit(0));
});
