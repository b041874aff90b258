import assert from 'node:assert/strict';
import type { BulkManifest } from '../domain/fhir/bulk-files.ts';
import type { Db } from '../db/db.ts';
import { cliActor } from '../domain/shared/actor.ts';
import { systemClock } from '../domain/shared/clock.ts';
import { present } from '../testing/assert.ts';
import { after, before, describe, it } from '../testing/node-test.ts';
import { startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { PASSWORD } from '../testing/http.ts';
import { makeTestApp } from '../testing/test-app.ts';
import { testDatabases } from '../testing/test-db.ts';

const ADMIN = 'admin@example.test';
const postgres = testDatabases('both').find((target) => target.name === 'postgres');

/** A system export is a job in the database: a server killed in the middle of one leaves it to the next server. */
describe('the system export across a restart', { skip: !postgres && 'TEST_DATABASE_URL is not set' }, () => {
  let db: Db;
  let url: string;
  let drop: () => Promise<void>;
  const running: ServerProcess[] = [];

  before(async () => {
    const opened = await (postgres ?? { open: () => Promise.reject(new Error('no server')) }).open();
    db = opened.db;
    drop = opened.drop;
    url = opened.url ?? '';
    // A clinic of a few types (a patient, a doctor and the doctor's weekly pattern) is all a job of more than
    // one type takes: the demo clinic's hundreds of rows would only be written twice over.
    const app = makeTestApp(db, { clock: systemClock });
    await app.auth.createAdmin({ name: 'Ada Admin', email: ADMIN, password: PASSWORD });
    await app.auth.register({
      name: 'Paula Patient',
      email: 'patient@example.test',
      password: PASSWORD,
      phone: '+1 555 0100',
      birthdate: '1988-04-12',
      gender: 'female',
    });
    await app.doctors.createDoctor(
      { name: 'Dr. Restart', email: 'doctor@example.test', password: PASSWORD },
      cliActor('export-restart'),
    );
  });
  after(async () => {
    for (const server of running) await server.stop('SIGKILL');
    await drop?.();
  });

  const serve = async (env: Record<string, string>) => {
    const server = await startServerProcess({
      DATABASE_URL: url,
      OUTBOX_LEASE_MS: '1500',
      OUTBOX_POLL_MS: '100',
      ...env,
    });
    running.push(server);
    return server;
  };
  const poll = (statusUrl: string, token: string) =>
    fetch(statusUrl, { headers: { authorization: `Bearer ${token}` } });

  it('completes a job whose server was killed after its first type, writing each type once', async () => {
    // The first server pauses after each type far longer than the test waits: it dies with the job half done.
    const first = await serve({ MEDORA_TEST_EXPORT_PAUSE_MS: '600000' });
    const login = await fetch(`${first.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN, password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const kickOff = await fetch(`${first.url}/fhir/R4/$export`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(kickOff.status, 202);
    const statusPath = new URL(present(kickOff.headers.get('content-location'), 'Content-Location')).pathname;
    const deadline = Date.now() + 60_000;
    let progress = '';
    while (!progress.startsWith('1 of') && Date.now() < deadline) {
      const res = await poll(`${first.url}${statusPath}`, token);
      assert.equal(res.status, 202);
      progress = res.headers.get('x-progress') ?? '';
      if (!progress.startsWith('1 of')) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(progress, /^1 of \d+ types$/, 'the first server wrote one type and paused');
    await first.stop('SIGKILL');

    const second = await serve({});
    let res = await poll(`${second.url}${statusPath}`, token);
    const until = Date.now() + 120_000;
    while (res.status === 202 && Date.now() < until) {
      await res.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await poll(`${second.url}${statusPath}`, token);
    }
    assert.equal(res.status, 200);
    const manifest = (await res.json()) as BulkManifest;
    assert.ok(manifest.output.length > 1);
    const [job] = await db.query<{ status: string; attempts: number }>('select status, attempts from fhir_export_jobs');
    assert.deepEqual(job, { status: 'done', attempts: 2 });
    for (const { url: fileUrl, count } of manifest.output) {
      // The files' URLs are those of the server asked, absolute; this one answers on another port.
      const file = await poll(`${second.url}${new URL(fileUrl).pathname}`, token);
      assert.equal((await file.text()).split('\n').filter(Boolean).length, count);
    }
    await second.stop();
  });
});
