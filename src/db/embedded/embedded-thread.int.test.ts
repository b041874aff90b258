import { after, before, describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startServerProcess, type ServerProcess } from '../../testing/server-process.ts';
import { embeddedDataDir } from '../../testing/test-db.ts';

const ACQUIRE_MS = 1000;
// The client's statement: ten times what a refused request takes (its acquire timeout, or readiness's second), so
// requests sent while it runs are answered before it ends however slow the machine, or else they waited for it.
const LONG_STATEMENT_S = 12;
const STATEMENT_TIMEOUT_MS = 1000;

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

  /** Readiness's answer, asked again until it is 200 or `ms` have passed. */
  const readyWithin = async (ms: number) => {
    const deadline = performance.now() + ms;
    let status = (await timed('/api/health/ready')).status;
    while (status !== 200 && performance.now() < deadline) {
      await sleep(200);
      status = (await timed('/api/health/ready')).status;
    }
    return status;
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

  it('answers liveness and refuses database requests while a client runs a long query, before the query ends', async () => {
    const client = await connect('-c statement_timeout=60000');
    // The first fetch of a process loads its HTTP client, which is no time of the server's.
    await timed('/api/health/live');
    const statement = { ended: false };
    const started = performance.now();
    const long = client.query(`select pg_sleep(${LONG_STATEMENT_S})`).then(() => {
      statement.ended = true;
      return performance.now() - started;
    });
    // The statement holds the database once readiness is refused.
    while (!statement.ended && (await timed('/api/health/ready')).status === 200) await sleep(50);

    // Liveness is asked over and over until the statement ends; a server whose event loop waits on the database
    // would answer none of them before it did.
    const live: { ms: number; beforeEnd: boolean }[] = [];
    const probing = (async () => {
      while (!statement.ended) {
        const { ms } = await timed('/api/health/live');
        live.push({ ms, beforeEnd: !statement.ended });
        await sleep(50);
      }
    })();
    const rounds: { answers: { path: string; status: number; code?: string; ms: number }[]; beforeEnd: boolean }[] = [];
    while (!statement.ended) {
      const [ready, doctors] = await Promise.all([
        timed('/api/health/ready'),
        timed('/api/doctors', { headers: { authorization: `Bearer ${'0'.repeat(64)}` } }),
      ]);
      rounds.push({
        answers: [
          { path: '/api/health/ready', ...ready },
          { path: '/api/doctors', ...doctors },
        ],
        beforeEnd: !statement.ended,
      });
    }
    const tookMs = await long;
    await probing;

    assert.ok(
      tookMs >= LONG_STATEMENT_S * 1000 - 500,
      `the statement ran its ${LONG_STATEMENT_S} s (${Math.round(tookMs)} ms)`,
    );
    const liveBeforeEnd = live.filter((probe) => probe.beforeEnd);
    assert.ok(
      liveBeforeEnd.length >= 3,
      `liveness answered ${liveBeforeEnd.length} times while the statement ran (in ${live.map((probe) => Math.round(probe.ms)).join(', ')} ms)`,
    );
    // Readiness gives the database a second; a request waits its acquire timeout; both are refused, not held until
    // the statement ends: every round but the one under way when it ended was answered while it ran.
    const timings = rounds.map((round) => round.answers.map((answer) => Math.round(answer.ms)).join('/')).join(', ');
    assert.ok(
      rounds.length >= 2 && rounds.slice(0, -1).every((round) => round.beforeEnd),
      `rounds answered in ${timings} ms`,
    );
    const whileHeld = rounds.filter((round) => round.beforeEnd).flatMap((round) => round.answers);
    assert.deepEqual(
      whileHeld.filter(
        (answer) => answer.path === '/api/doctors' && !(answer.status === 503 && answer.code === 'database_busy'),
      ),
      [],
      'a request needing the database is refused while the statement holds it',
    );
    assert.ok(whileHeld.some((answer) => answer.path === '/api/health/ready' && answer.status === 503));
    // Readiness gives the database a second, which a loaded machine may miss once; ten of them is the bound.
    assert.equal(await readyWithin(10_000), 200, 'the database is back once the statement is over');
  });

  it("ends a socket client's statement at its statement_timeout, and the database serves on", async () => {
    const client = await connect(`-c statement_timeout=${STATEMENT_TIMEOUT_MS}`);
    const started = performance.now();
    await assert.rejects(client.query('select pg_sleep(30)'));
    const endedAfterMs = performance.now() - started;
    // Ten times the timeout, and still far short of the statement's 30 s.
    assert.ok(endedAfterMs < 10 * STATEMENT_TIMEOUT_MS, `the statement was ended after ${Math.round(endedAfterMs)} ms`);
    assert.match(
      server.output(),
      /a client's statement ran past its statement_timeout \(1000 ms\); restarting the embedded database/,
    );

    // The server's requests and a new client are served again once the database has started again.
    assert.equal(await readyWithin(60_000), 200);
    const next = await connect();
    assert.deepEqual((await next.query('select 1 as one')).rows, [{ one: 1 }]);
    assert.match(server.output(), /embedded database: started again in \d+ ms/);
  });

  it("lets a client's short statements through under the server's statement_timeout", async () => {
    const client = await connect();
    assert.deepEqual((await client.query('select pg_sleep(0.2), 2 as two')).rows, [{ pg_sleep: '', two: 2 }]);
  });
});
