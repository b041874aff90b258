import { after, before, describe, it as itOnEveryEngine } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeApp } from '../app.ts';
import { POLL_EVERY_MS } from '../db/pg-notice-poll.ts';
import { openPostgres } from '../db/postgres.ts';
import type { Db } from '../db/db.ts';
import { fixedClock } from '../domain/shared/clock.ts';
import { present } from '../testing/assert.ts';
import { hearingOf } from '../testing/hearing.ts';
import { onOneDatabase, testDatabases } from '../testing/test-db.ts';
import { signUpPatient, startTestServer, type TestServer } from '../testing/http.ts';
import { createMedoraServer } from './server.ts';
import { closeGracefully } from './shutdown.ts';

const LISTENER = `medora notices (pid ${process.pid})`;

/**
 * The servers' clock stands still, so a remembered lookup never reaches the age (10 s) at which it is looked up again
 * without a notice: a refusal can only have been heard, however long it took.
 */
const clock = fixedClock(new Date().toISOString());

/**
 * Asks until the token is refused: another server hears of a change a moment after it commits. The bound is twenty
 * times the second between two reads of the notice log behind a transaction pooler (POLL_EVERY_MS; LISTEN takes
 * milliseconds).
 */
async function refusedWithin(url: string, token: string, ms = 20 * POLL_EVERY_MS): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await fetch(`${url}/api/user`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 401) return;
    assert.equal(res.status, 200);
    if (Date.now() > deadline) assert.fail(`token still accepted after ${ms} ms`);
    await sleep(20);
  }
}

for (const target of testDatabases('both')) {
  describe(`remembered sessions on ${target.name}`, () => {
    // `it` registers a test on the database testDatabases('one') gives alone: above the database, the engines do not
    // differ. Hearing another program's change (a trigger's NOTIFY, heard by LISTEN in each engine's driver) runs on
    // both (itOnEveryEngine).
    const it = onOneDatabase(target, itOnEveryEngine);
    let server: TestServer;
    /** How many times the server has been told that its listening connection was lost. */
    let listeningLost = 0;
    before(async () => {
      const counted: typeof target = {
        ...target,
        open: async () => {
          const opened = await target.open();
          const listen: Db['listen'] = (channel, listener) =>
            opened.db.listen(channel, {
              ...listener,
              lost: () => {
                listener.lost();
                listeningLost++;
              },
            });
          return { ...opened, db: { ...opened.db, listen } };
        },
      };
      // What one instance remembers: a second one behind PgBouncer would answer every other request from its own.
      server = await startTestServer(counted, { oneInstance: true, clock });
    });
    after(() => server.close());

    const userStatus = async (token: string) => (await server.api('GET', '/api/user', { token })).status;
    const sql = (text: string, params: unknown[] = []) => server.db.query(text, params);
    /** Revokes the user's sessions without the notice: only what the server itself does can show it. */
    const revokedUnheard = async (userId: number, meanwhile: () => Promise<void>) => {
      await server.db.exec('alter table sessions disable trigger sessions_auth_changed');
      try {
        await sql('update sessions set revoked_at = now() where user_id = $1', [userId]);
        await meanwhile();
      } finally {
        await server.db.exec('alter table sessions enable trigger sessions_auth_changed');
      }
    };

    itOnEveryEngine(
      'answers a known token from memory, and hears when another program revokes its session',
      async () => {
        const patient = await signUpPatient(server);
        assert.equal(await userStatus(patient.token), 200);
        // Without the notice the server cannot know: that it still answers shows the lookup was remembered.
        await revokedUnheard(patient.user.id, async () => assert.equal(await userStatus(patient.token), 200));
        await sql('update sessions set revoked_at = now() where user_id = $1', [patient.user.id]);
        await refusedWithin(server.url, patient.token);
      },
    );

    itOnEveryEngine('refuses a user deactivated by another program, keeping other users signed in', async () => {
      const [leaving, staying] = [await signUpPatient(server), await signUpPatient(server)];
      assert.equal(await userStatus(leaving.token), 200);
      assert.equal(await userStatus(staying.token), 200);
      await sql('update users set active = false where id = $1', [leaving.user.id]);
      await refusedWithin(server.url, leaving.token);
      assert.equal(await userStatus(staying.token), 200);
    });

    itOnEveryEngine('refuses every token once another program empties the sessions table', async () => {
      const patient = await signUpPatient(server);
      assert.equal(await userStatus(patient.token), 200);
      await server.db.exec('truncate sessions');
      await refusedWithin(server.url, patient.token);
    });

    it('refuses a token on the very next request after signing out', async () => {
      const patient = await signUpPatient(server);
      assert.equal(await userStatus(patient.token), 200);
      assert.equal((await server.api('POST', '/api/logout', { token: patient.token })).status, 200);
      assert.equal(await userStatus(patient.token), 401);
    });

    it("keeps the writer's session after a write that leaves accounts alone, and forgets it after one that may not", async () => {
      const patient = await signUpPatient(server);
      assert.equal(await userStatus(patient.token), 200);
      // Without the notice, only forgetting after the write can show the revocation made behind the server's back.
      await revokedUnheard(patient.user.id, async () => {
        assert.equal((await server.api('POST', '/api/user/email-verification', { token: patient.token })).status, 200);
        assert.equal(
          await userStatus(patient.token),
          200,
          'a write that changes no account leaves the session remembered',
        );
        const profile = {
          name: 'Pat Renamed',
          email: patient.email,
          phone: '+1 555 0101',
          birthdate: '1990-05-17',
          gender: 'female',
        };
        assert.equal(
          (await server.api('PUT', '/api/patient/profile', { token: patient.token, body: profile })).status,
          200,
        );
        assert.equal(await userStatus(patient.token), 401, 'a change of account is seen by the next request');
      });
    });

    it('on PostgreSQL, a second server hears a sign-out on the first', {
      skip: target.name !== 'postgres' && 'needs a PostgreSQL server',
    }, async () => {
      const secondDb = await openPostgres(present(server.databaseUrl, 'database URL'));
      const hearing = hearingOf(secondDb);
      const second = createMedoraServer(makeApp({ db: hearing.db, clock, config: server.app.config }), {
        log: () => {},
      });
      await new Promise<void>((resolve) => second.listen(0, '127.0.0.1', resolve));
      const secondUrl = `http://127.0.0.1:${(second.address() as AddressInfo).port}`;
      try {
        // Else its first lookups would not be remembered, and the sign-out would be read, not heard.
        await hearing.live;
        const patient = await signUpPatient(server);
        for (let i = 0; i < 2; i++) {
          const res = await fetch(`${secondUrl}/api/user`, { headers: { authorization: `Bearer ${patient.token}` } });
          assert.equal(res.status, 200);
        }
        assert.equal((await server.api('POST', '/api/logout', { token: patient.token })).status, 200);
        await refusedWithin(secondUrl, patient.token);
      } finally {
        await closeGracefully(second, 1000);
        await secondDb.close();
      }
    });

    it('on PostgreSQL, remembers nothing while its listening connection is down, and listens again', {
      skip: target.name !== 'postgres' && 'needs a PostgreSQL server',
    }, async () => {
      const listenerPid = async () =>
        (await sql('select pid from pg_stat_activity where application_name = $1', [LISTENER]))[0]?.pid as
          | number
          | undefined;
      const patient = await signUpPatient(server);
      assert.equal(await userStatus(patient.token), 200);
      const first = await listenerPid();
      assert.ok(first, 'the server listens on a connection of its own');

      const lostBefore = listeningLost;
      await sql('select pg_terminate_backend($1)', [first]);
      const goneBy = Date.now() + 5000;
      while ((await listenerPid()) === first) {
        assert.ok(Date.now() < goneBy, 'the terminated listening connection goes within seconds');
        await sleep(20);
      }
      // The server has seen its connection close (its notice listener was told), not merely had a moment to.
      const toldBy = Date.now() + 5000;
      while (listeningLost === lostBefore) {
        assert.ok(Date.now() < toldBy, 'the server sees its listening connection close within seconds');
        await sleep(20);
      }
      // No server hears this notice; the server must not answer from what it remembered.
      await sql('update sessions set revoked_at = now() where user_id = $1', [patient.user.id]);
      assert.equal(await userStatus(patient.token), 401);

      // Ten times the second the server waits before it listens again.
      const deadline = Date.now() + 10 * 1000;
      while (!(await listenerPid())) {
        assert.ok(Date.now() < deadline, 'the server listens again within seconds');
        await sleep(50);
      }
      const again = await signUpPatient(server);
      assert.equal(await userStatus(again.token), 200);
      await sql('update sessions set revoked_at = now() where user_id = $1', [again.user.id]);
      await refusedWithin(server.url, again.token);
    });
  });
}
