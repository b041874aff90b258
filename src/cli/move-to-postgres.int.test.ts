import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openEmbedded } from '../db/embedded/embedded.ts';
import { openPostgres, runOnConnection } from '../db/postgres.ts';
import { tableCounts, type TableCount } from '../db/table-counts.ts';
import type { Db } from '../db/db.ts';
import { DEMO_PASSWORD } from '../demo/seed.ts';
import { spawnMedora } from '../testing/cli.ts';
import { signIn, signUpPatient, startTestServer, type TestServer } from '../testing/http.ts';
import { first, present } from '../testing/assert.ts';
import { demoDataDir, embeddedDataDir, testDatabases } from '../testing/test-db.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
const PATIENT = 'patient@medora.test';

describe('medora move-to: the embedded clinic onto a PostgreSQL server', {
  skip: !serverUrl && 'TEST_DATABASE_URL is not set',
}, () => {
  const name = `medora_move_${randomBytes(4).toString('hex')}`;
  const target = (() => {
    const url = new URL(present(serverUrl, 'TEST_DATABASE_URL'));
    url.pathname = `/${name}`;
    return url.toString();
  })();
  // The test server trusts local connections; the password is there to be hidden in what the command prints.
  const withPassword = (() => {
    const url = new URL(target);
    url.password = 'not-for-print';
    return url.toString();
  })();
  let dataDir: string;
  let removeDataDir: (() => Promise<void>) | undefined;
  // The moved folder, opened once in this process for the first two tests (opening PGlite takes seconds of CPU
  // time), after the move and closed before the third test's command needs the folder.
  let embeddedDb: Db | undefined;
  const embedded = async () => (embeddedDb ??= await openEmbedded(dataDir));
  const closeEmbedded = async () => {
    await embeddedDb?.close();
    embeddedDb = undefined;
  };

  const serverOver = (open: () => Promise<Db>) =>
    startTestServer({
      name: 'moved',
      open: async () => {
        const db = await open();
        return { db, drop: () => db.close() };
      },
    });
  const countsOf = async (open: () => Promise<Db>): Promise<TableCount[]> => {
    const db = await open();
    return tableCounts(db).finally(() => db.close());
  };
  const patientAppointments = async (server: TestServer) => {
    const { token } = await signIn(server, PATIENT, DEMO_PASSWORD);
    const res = await server.api('GET', '/api/patient/appointments', { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { token, appointments: res.body.appointments as { id: number }[] };
  };

  before(async () => {
    // The demo clinic as `medora seed --demo` loads it, copied from the template the suite seeded once.
    ({ dataDir, remove: removeDataDir } = await demoDataDir());
    await runOnConnection(present(serverUrl, 'TEST_DATABASE_URL'), `create database ${name}`);
  });

  after(async () => {
    await closeEmbedded();
    await runOnConnection(present(serverUrl, 'TEST_DATABASE_URL'), `drop database if exists ${name} with (force)`);
    await removeDataDir?.();
  });

  it('moves the demo clinic with one command: the same rows, an intact chain, and the password not printed', async () => {
    const moved = await spawnMedora(['move-to', withPassword], { env: { DATA_DIR: dataDir } });
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(
      moved.stdout,
      /^Moved .*medora-test-\w+ to postgres:\/\/[^:]*@[^ ]*\/medora_move_\w+ in \d+\.\d s: .*8 departments, .*; audit chain intact \(\d+ rows\)\.\n$/,
    );
    assert.doesNotMatch(moved.stdout, /not-for-print/);

    const source = await tableCounts(await embedded());
    assert.ok(first(source.filter(({ table }) => table === 'appointments')).rows > 0);
    assert.deepEqual(await countsOf(() => openPostgres(target, { max: 1 })), source);

    const verified = await spawnMedora(['audit', 'verify'], { env: { DATABASE_URL: target } });
    assert.equal(verified.code, 0, verified.stderr);
  });

  it('lets the demo patient sign in on the server and see the same appointments, and book one with a new id', async () => {
    const embeddedServer = await startTestServer({
      name: 'embedded',
      open: async () => ({ db: await embedded(), drop: closeEmbedded }),
    });
    const onEmbedded = await patientAppointments(embeddedServer).finally(() => embeddedServer.close());

    const server = await serverOver(() => openPostgres(target, { max: 4 }));
    try {
      const { appointments } = await patientAppointments(server);
      assert.ok(appointments.length > 0);
      assert.deepEqual(appointments, onEmbedded.appointments);

      // A patient of its own: the demo patient may have a visit with that doctor on the first free day already.
      const newcomer = (await signUpPatient(server)).token;
      const doctorId = first(await server.db.query<{ id: number }>('select id from doctors order by id limit 1')).id;
      const next = await server.api('GET', `/api/appointments/next-available?doctor_id=${doctorId}`, {
        token: newcomer,
      });
      assert.equal(next.status, 200, JSON.stringify(next.body));
      const day = first(next.body.days as { date: string; available_appointments: { schedule_id: number }[] }[]);
      const slot = first(day.available_appointments);
      const booked = await server.api('POST', '/api/appointments/book', {
        token: newcomer,
        body: { doctor_id: doctorId, schedule_id: slot.schedule_id, date: day.date },
      });
      assert.equal(booked.status, 201, JSON.stringify(booked.body));
      const { max } = first(
        await server.db.query<{ max: number }>('select max(id)::int as max from appointments where id <> $1', [
          booked.body.id,
        ]),
      );
      assert.ok(
        Number(booked.body.id) > max,
        `the new booking's id ${booked.body.id} follows the moved ones (up to ${max})`,
      );
    } finally {
      await server.close();
    }
  });

  it('refuses a second move into the now non-empty database unless forced', async (t) => {
    // The target is checked before the backup is loaded (which takes a PGlite of its own): an embedded backup with
    // no rows is enough to be refused, where moving DATA_DIR again would first back the demo up for nothing.
    const noRows = join(dataDir, 'no-rows.sql.gz');
    await writeFile(noRows, gzipSync('-- PostgreSQL database dump complete\n'), { mode: 0o600 });
    const refused = await spawnMedora(['move-to', target, '--from', noRows], { env: { DATA_DIR: dataDir } });
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /is not empty \(.*appointments.*\); add --force to replace it/);
    assert.ok(
      first((await countsOf(() => openPostgres(target, { max: 1 }))).filter(({ table }) => table === 'appointments'))
        .rows > 0,
      'the refused move left the demo in place',
    );

    // Forced, a new clinic (the migrations' starter rows, no appointments) replaces the demo: moving the demo again
    // would prove no more, at the cost of moving it all again.
    const empty = await embeddedDataDir();
    try {
      const forced = await spawnMedora(['move-to', target, '--force'], { env: { DATA_DIR: empty.dataDir } });
      assert.equal(forced.code, 0, forced.stderr);
      assert.match(forced.stdout, /^Replaced a database with .*appointments.*\nMoved /);
      const replaced = await countsOf(() => openPostgres(target, { max: 1 }));
      assert.ok(!replaced.some(({ table }) => table === 'appointments'), 'the demo is gone');
      // The new clinic is the migrated template, as a migrated database on the server is (copied from its own
      // migrated template): equal counts, without opening PGlite again to count the source.
      const migrated = await present(
        testDatabases('both').find(({ name }) => name === 'postgres'),
        'PostgreSQL target',
      ).open();
      t.after(() => migrated.drop());
      assert.deepEqual(replaced, await tableCounts(migrated.db));
    } finally {
      await empty.remove();
    }
  });
});
