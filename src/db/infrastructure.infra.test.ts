/**
 * Medora on the infrastructure hospitals run PostgreSQL on, each part real (src/testing/pg-infra.ts): a primary of
 * our own made by initdb, a streaming replica and a synchronous standby of it, PgBouncer in transaction
 * mode in front of it; two Medora instances through PgBouncer, the replica serving the lag-tolerant reads, and a
 * failover under load to the standby. Run by `make test-infra` (scripts/test-infra), which readies the test server.
 */
import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from '../app.ts';
import type { Db, Queryable } from './db.ts';
import { openPostgres, type PostgresOptions } from './postgres.ts';
import { replicaReads } from './read-replica.ts';
import { createMedoraServer } from '../http/server.ts';
import { closeGracefully } from '../http/shutdown.ts';
import { at, present } from '../testing/assert.ts';
import { fixedClock, signIn, signUpAdmin } from '../testing/http.ts';
import { makeTestApp } from '../testing/test-app.ts';
import { POSTGRES_TEMPLATE, migratedTemplateOn } from '../testing/test-db.ts';
import { caughtUp, newCluster, standbyOf, startPgbouncer, type Bouncer, type Cluster } from '../testing/pg-infra.ts';
import {
  DATES,
  NOW,
  SLOTS_A_DAY,
  bookedSlots,
  createDoctors,
  createPatients,
  isoWeekdayOf,
  signInBySql,
} from '../../scripts/bench/two-instances.ts';
import { hearingOf } from '../testing/hearing.ts';
import { readMigrations } from './migrate.ts';

interface Instance {
  app: App;
  url: string;
  /** Settles once the server hears the database's notices (LISTEN, or the notice log's first read). */
  hearing: Promise<void>;
  close(): Promise<void>;
}

/** A Medora server over `db` (and `reads`), on a port of its own, as `medora serve` composes it. */
async function instance(db: Db, reads?: Queryable): Promise<Instance> {
  const hearing = hearingOf(db);
  const app = makeTestApp(hearing.db, { clock: fixedClock(NOW), reads });
  const server = createMedoraServer(app, { log: () => {} });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    app,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hearing: hearing.live,
    close: () => closeGracefully(server, 1000),
  };
}

/** A booking that, answered 503, waits what Retry-After asks and tries again, for `maxWaitMs` at most. */
async function bookPatiently(url: string, token: string, body: string, maxWaitMs: number) {
  const giveUpAt = performance.now() + maxWaitMs;
  const statuses: number[] = [];
  for (;;) {
    const sentAt = performance.now();
    const res = await fetch(`${url}/api/appointments/book`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    }).catch(() => undefined);
    const answer = (await res?.json().catch(() => ({}))) as { id?: number; code?: string } | undefined;
    statuses.push(res?.status ?? 0);
    if (res && res.status !== 503)
      return { statuses, id: res.status === 201 ? answer?.id : undefined, sentAt, answeredAt: performance.now() };
    if (res && !res.headers.get('retry-after')) throw new Error('a 503 without Retry-After');
    if (performance.now() > giveUpAt) return { statuses, id: undefined, sentAt, answeredAt: performance.now() };
    await sleep(Number(res?.headers.get('retry-after') ?? 1) * 200);
  }
}

/** `n` patients signed in, each with a booking of a slot of its own across `doctors` doctors' default weeks. */
async function bookings(app: App, db: Queryable, n: number) {
  const doctors = await createDoctors(app, Math.ceil(n / (SLOTS_A_DAY * DATES.length)));
  const tokens = await signInBySql(db, await createPatients(db, n, 'infra'));
  return tokens.map((token, i) => {
    const doctor = at(doctors, i % doctors.length, 'doctor');
    const k = Math.floor(i / doctors.length);
    const date = at(DATES, Math.floor(k / SLOTS_A_DAY), 'date');
    const slots = present(doctor.slotsOn.get(isoWeekdayOf(date)), 'slots');
    return { token, body: JSON.stringify({ doctor_id: doctor.id, schedule_id: slots[k % SLOTS_A_DAY], date }) };
  });
}

describe('on the PostgreSQL infrastructure of a hospital', () => {
  let primary: Cluster;
  let replica: Cluster;
  let standby: Cluster;
  let bouncer: Bouncer;
  const started: Cluster[] = [];

  before(async () => {
    primary = await newCluster({ name: 'primary' });
    started.push(primary);
    // The template database the tests copy, migrated on the primary before the standbys copy it.
    await migratedTemplateOn(primary.url('postgres'));
    standby = await standbyOf(primary, 'standby');
    started.push(standby);
    replica = await standbyOf(primary, 'replica');
    started.push(replica);
    // From now on a commit waits for the standby's copy: the failover loses no acknowledged write.
    await primary.query('postgres', "alter system set synchronous_standby_names = 'standby'");
    await primary.query('postgres', 'select pg_reload_conf()');
    bouncer = await startPgbouncer(primary);
  });
  after(async () => {
    await bouncer?.stop();
    for (const cluster of started.reverse()) await cluster.remove();
  });

  /** A fresh database on the primary, copied from the migrations' template. */
  const freshDatabase = async () => {
    const name = `medora_infra_${randomBytes(5).toString('hex')}`;
    await primary.query('postgres', `create database ${name} template ${POSTGRES_TEMPLATE}`);
    const [migrated] = await primary.query<{ n: number }>(name, 'select count(*)::int as n from schema_migrations');
    assert.equal(migrated?.n, readMigrations().length);
    return name;
  };
  const pooled = (name: string, extra: PostgresOptions = {}) =>
    openPostgres(bouncer.url(name), {
      pooler: 'transaction',
      directUrl: primary.url(name),
      setRoleDefaults: true,
      ...extra,
    });

  it('books each of 200 slots exactly once from a burst through PgBouncer in transaction mode over two instances', async () => {
    const name = await freshDatabase();
    const dbs = [await pooled(name), await pooled(name)];
    const instances = await Promise.all(dbs.map((db) => instance(db)));
    try {
      const requests = await bookings(at(instances, 0, 'instance').app, at(dbs, 0, 'db'), 200);
      const answers = await Promise.all(
        requests.map((r, i) => bookPatiently(at(instances, i % 2, 'instance').url, r.token, r.body, 60_000)),
      );
      const statuses = answers.flatMap((a) => a.statuses);
      const slots = await bookedSlots(at(dbs, 0, 'db'));
      console.log(
        `200 bookings through PgBouncer: ${answers.filter((a) => a.id).length} booked, ${statuses.filter((s) => s === 503).length} × 503 retried, ` +
          `${statuses.filter((s) => s >= 500 && s !== 503).length} × 5xx; in SQL ${slots.booked} booked, ${slots.doubleBooked} twice`,
      );
      assert.equal(answers.filter((a) => a.id).length, 200);
      assert.deepEqual(slots, { booked: 200, distinctSlots: 200, doubleBooked: 0 });
      assert.equal(statuses.filter((s) => s >= 500 && s !== 503).length, 0);
    } finally {
      for (const one of instances) await one.close();
      for (const db of dbs) await db.close();
    }
  });

  it('honours a sign-out on one instance at the other, hearing it by LISTEN on the direct URL or, without one, by reading the notice log', async () => {
    const name = await freshDatabase();
    for (const direct of [true, false]) {
      const options = direct ? {} : { directUrl: undefined };
      const dbs = [await pooled(name, options), await pooled(name, options)];
      const [a, b] = (await Promise.all(dbs.map((db) => instance(db)))) as [Instance, Instance];
      try {
        await Promise.all([a.hearing, b.hearing]);
        const admin = await signUpAdmin({ app: a.app, api: apiOf(a.url) } as never);
        const user = async (url: string, token: string) =>
          (await fetch(`${url}/api/user`, { headers: auth(token) })).status;
        // B remembers the session: revoked where no notice tells of it, it is still answered from memory.
        assert.equal(await user(b.url, admin.token), 200);
        await primary.query(
          name,
          `begin; alter table sessions disable trigger sessions_auth_changed;
           update sessions set revoked_at = now() where user_id = ${Number(admin.user.id)};
           alter table sessions enable trigger sessions_auth_changed; commit`,
        );
        assert.equal(await user(b.url, admin.token), 200, 'answered from memory');
        const again = await signIn({ api: apiOf(a.url) } as never, admin.email);
        assert.equal(await user(b.url, again.token), 200);
        assert.equal(await user(b.url, again.token), 200);
        assert.equal((await fetch(`${a.url}/api/logout`, { method: 'POST', headers: auth(again.token) })).status, 200);
        // Within a few reads of the log, a second apart; well inside the 10 s a remembered session is kept at most.
        const deadline = performance.now() + 5000;
        let status = await user(b.url, again.token);
        while (status !== 401 && performance.now() < deadline) {
          await sleep(50);
          status = await user(b.url, again.token);
        }
        assert.equal(status, 401, direct ? 'heard through LISTEN on the direct URL' : 'read from the notice log');
      } finally {
        await a.close();
        await b.close();
        for (const db of dbs) await db.close();
      }
    }
  });

  it('serves a report and a FHIR search from the replica, and from the primary while the replica is stopped', async () => {
    const name = await freshDatabase();
    // Each cluster logs the statements its sessions of this database run (set on the primary, copied to the replica,
    // before either opens one): the reads are counted in the logs, which say at once where they ran, not in
    // statistics a backend flushes seconds later.
    await primary.query('postgres', `alter database ${name} set log_statement = 'all'`);
    await caughtUp(primary, replica);
    const db = await pooled(name);
    const replicaDb = await openPostgres(replica.url(name), { max: 2 });
    const reads = replicaReads(db, replicaDb, 10);
    const one = await instance(db, reads);
    try {
      const admin = await signUpAdmin({ app: one.app, api: apiOf(one.url) } as never);
      await bookings(one.app, db, 20);
      await caughtUp(primary, replica);
      const marks = async () => ({ primary: await primary.logLength(), replica: await replica.logLength() });
      const readsOf = async (cluster: Cluster, from: number) =>
        (await cluster.statementsOf(name, from)).filter((entry) => /\b(appointments|patients)\b/.test(entry)).length;
      const read = async () => {
        const report = await fetch(`${one.url}/api/admin/statistics`, { headers: auth(admin.token) });
        const search = await fetch(`${one.url}/fhir/R4/Patient?_count=5`, { headers: auth(admin.token) });
        return [report.status, search.status];
      };
      await read(); // the session remembered, the lag asked once
      const before = await marks();
      assert.deepEqual(await read(), [200, 200]);
      const up = { primary: await readsOf(primary, before.primary), replica: await readsOf(replica, before.replica) };
      console.log(
        `replica up: statements reading appointments or patients on the replica ${up.replica}, on the primary ${up.primary}`,
      );
      assert.ok(up.replica > 0, 'the replica read them');
      assert.equal(up.primary, 0, 'the primary did not');
      await replica.stop();
      await sleep(1100); // past the lag check's second
      const stopped = await primary.logLength();
      assert.deepEqual(await read(), [200, 200]);
      const down = await readsOf(primary, stopped);
      console.log(`replica stopped: statements reading appointments or patients on the primary ${down}`);
      assert.ok(down > 0, 'the primary read them');
    } finally {
      await one.close();
      await replicaDb.close();
      await db.close();
      await replica.start().catch(() => {});
    }
  });

  it('fails over under load to the promoted standby: no 500, every acknowledged booking kept, back within 30 s', async () => {
    const name = await freshDatabase();
    await caughtUp(primary, standby);
    const url = `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/${name}?target_session_attrs=read-write`;
    const dbs = [await openPostgres(url, { max: 4 }), await openPostgres(url, { max: 4 })];
    const instances = await Promise.all(dbs.map((db) => instance(db)));
    try {
      const requests = await bookings(at(instances, 0, 'instance').app, at(dbs, 0, 'db'), 300);
      let stoppedAt = Number.POSITIVE_INFINITY;
      // Bookings in waves of 10, from both instances, while the primary crashes and the standby is promoted.
      const answers: Awaited<ReturnType<typeof bookPatiently>>[] = [];
      const load = (async () => {
        const until = performance.now() + 90_000;
        for (let i = 0; i < requests.length && performance.now() < until; i += 10) {
          const wave = requests.slice(i, i + 10);
          answers.push(
            ...(await Promise.all(
              wave.map((r, j) => bookPatiently(at(instances, (i + j) % 2, 'instance').url, r.token, r.body, 60_000)),
            )),
          );
        }
      })();
      await sleep(1500);
      stoppedAt = performance.now();
      await primary.stop('immediate');
      await standby.promote();
      const promotedAt = performance.now();
      await load;
      const statuses = answers.flatMap((a) => a.statuses);
      const acknowledged = answers.filter((a) => a.id !== undefined).map((a) => a.id as number);
      // Back: the first booking whose successful request was sent after the crash, so committed on the new primary.
      const after = answers.filter((a) => a.id !== undefined && a.sentAt > stoppedAt);
      const firstAfter = Math.min(...after.map((a) => a.sentAt));
      const firstAnsweredAfter = Math.min(...after.map((a) => a.answeredAt));
      const kept = await standby.query<{ id: number }>(name, 'select id from appointments where id = any($1)', [
        acknowledged,
      ]);
      const seconds = (firstAfter - stoppedAt) / 1000;
      console.log(
        `failover: ${acknowledged.length} of ${requests.length} booked, ${statuses.filter((s) => s === 503).length} × 503, ` +
          `${statuses.filter((s) => s === 500).length} × 500, ${kept.length} of the acknowledged on the new primary; ` +
          `the standby promoted ${((promotedAt - stoppedAt) / 1000).toFixed(1)} s after the crash, the first booking sent after it ${seconds.toFixed(1)} s after it, ` +
          `the first of those answered ${((firstAnsweredAfter - stoppedAt) / 1000).toFixed(1)} s after it`,
      );
      assert.equal(statuses.filter((s) => s === 500).length, 0);
      assert.equal(statuses.filter((s) => s === 0).length, 0, 'every request answered');
      assert.equal(kept.length, acknowledged.length);
      assert.equal(acknowledged.length, requests.length);
      assert.ok(seconds < 30, `back within 30 s, not ${seconds}`);
    } finally {
      for (const one of instances) await one.close();
      for (const db of dbs) await db.close();
    }
  });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** Just enough of a TestServer for signUpAdmin: the app and a fetch that answers like `api`. */
function apiOf(url: string) {
  return async (method: string, path: string, opts: { body?: unknown } = {}) => {
    const res = await fetch(url + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    return { status: res.status, body: await res.json().catch(() => undefined), headers: res.headers };
  };
}
