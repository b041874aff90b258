import { after, before, describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../../testing/server-process.ts';
import { embeddedDataDir } from '../../testing/test-db.ts';

const ACQUIRE_MS = 1000;
// What an answer may take beyond the server's own bound on a loaded two-core machine.
const SLACK_MS = 1500;
const LIVE_WITHIN_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('medora serve while a client of its database socket runs a long statement', () => {
  let folder: { dataDir: string; remove(): Promise<void> };
  let server: ServerProcess;
  const clients: pg.Client[] = [];

  const connect = async (options?: string) => {
    const client = new pg.Client({ host: folder.dataDir, user: 'postgres', database: 'postgres', options });
    client.on('error', () => {}); // the server ends the client whose statement overran
    clients.push(client);
    await client.connect();
    return client;
  };
  const timed = async (path: string, init?: RequestInit) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = (await res.json()) as { code?: string };
    return { status: res.status, code: body.code, ms: performance.now() - started };
  };

  before(async () => {
    folder = await embeddedDataDir();
    server = await startServerProcess({
      DATA_DIR: folder.dataDir,
      SEED_DEMO: '0',
      BACKUP_KEEP: '0',
      DATABASE_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_MS),
      DATABASE_STATEMENT_TIMEOUT_MS: '5000',
    });
  });

  after(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
    await server?.stop();
    await folder?.remove();
  });

  it('answers liveness at once and refuses database requests within their timeout during a 10-second query', async () => {
    const client = await connect('-c statement_timeout=60000');
    // The first fetch of a process loads its HTTP client, which is no time of the server's.
    await timed('/api/health/live');
    const started = performance.now();
    const long = client.query('select pg_sleep(10)').then(() => performance.now() - started);
    await sleep(300);
    const live: number[] = [];
    const others: { path: string; status: number; code?: string; ms: number }[] = [];
    while (performance.now() - started < 9000) {
      live.push((await timed('/api/health/live')).ms);
      const [ready, doctors] = await Promise.all([
        timed('/api/health/ready'),
        timed('/api/doctors', { headers: { authorization: `Bearer ${'0'.repeat(64)}` } }),
      ]);
      others.push({ path: '/api/health/ready', ...ready }, { path: '/api/doctors', ...doctors });
    }
    const tookMs = await long;

    assert.ok(tookMs >= 9500, `the statement ran its 10 s (${Math.round(tookMs)} ms)`);
    assert.ok(live.length >= 3, `only ${live.length} liveness probes`);
    assert.ok(Math.max(...live) < LIVE_WITHIN_MS, `liveness answered in ${live.map(Math.round).join(', ')} ms`);
    // Readiness gives the database a second; a request waits its acquire timeout; both are refused, not hung.
    for (const answer of others) {
      assert.ok(answer.ms < 1000 + ACQUIRE_MS + SLACK_MS, `${answer.path} answered in ${Math.round(answer.ms)} ms`);
    }
    assert.deepEqual(
      others.filter(
        (answer) => answer.path === '/api/doctors' && !(answer.status === 503 && answer.code === 'database_busy'),
      ),
      [],
      'a request needing the database is refused while the statement holds it',
    );
    assert.ok(others.some((answer) => answer.path === '/api/health/ready' && answer.status === 503));
    assert.equal((await timed('/api/health/ready')).status, 200, 'the database is back once the statement is over');
  });

  it("ends a socket client's statement at its statement_timeout, and the database serves on", async () => {
    const client = await connect('-c statement_timeout=1000');
    const started = performance.now();
    await assert.rejects(client.query('select pg_sleep(30)'));
    const endedAfterMs = performance.now() - started;
    assert.ok(endedAfterMs < 1000 + 5000, `the statement was ended after ${Math.round(endedAfterMs)} ms`);
    assert.match(
      server.output(),
      /a client's statement ran past its statement_timeout \(1000 ms\); restarting the embedded database/,
    );

    // The server's requests and a new client are served again once the database has started again.
    const deadline = performance.now() + 60_000;
    while ((await timed('/api/health/ready')).status !== 200 && performance.now() < deadline) await sleep(200);
    assert.equal((await timed('/api/health/ready')).status, 200);
    const next = await connect();
    assert.deepEqual((await next.query('select 1 as one')).rows, [{ one: 1 }]);
    assert.match(server.output(), /embedded database: started again in \d+ ms/);
  });

  it("lets a client's short statements through under the server's statement_timeout", async () => {
    const client = await connect();
    assert.deepEqual((await client.query('select pg_sleep(0.2), 2 as two')).rows, [{ pg_sleep: '', two: 2 }]);
  });
});
