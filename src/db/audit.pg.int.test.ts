import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { AuditEntry } from '../domain/audit/audit.ts';
import { auditLog, auditTrail } from './audit.pg.ts';
import { openPglite } from './embedded/pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Db, Queryable } from './db.ts';
import { migrate } from './migrate.ts';
import { embeddedDataDirBefore, onOneDatabase, testDatabases, type OpenedTestDatabase } from '../testing/test-db.ts';
import { asTrailOwner, relink, sealAll } from '../testing/audit-sealing.ts';
import { chainLinks, checkpointStore } from './audit-checkpoints.pg.ts';
import { generateKeyPairSync } from 'node:crypto';
import { ed25519Signer } from '../audit-signing.ts';
import { signCheckpoint, verifyCheckpoints, type CheckpointDeps } from '../domain/audit/checkpoint-use-cases.ts';
import { fixedClock } from '../domain/shared/clock.ts';
import type { ChainLink, ChainLinks } from '../domain/audit/checkpoint.ts';

const admin = { userId: 1, role: 'admin' as const, name: 'Ada' };
const read = (n: number): AuditEntry => ({
  actor: admin,
  action: 'read_records',
  entity: 'patient',
  entityId: n,
  patientId: n,
  details: { n },
});
const anonymousFailure: AuditEntry = {
  actor: null,
  action: 'login_failed',
  entity: 'user',
  details: { ip: '203.0.113.9' },
};
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/**
 * A transaction on its own connection that runs `begin`, then stays open until `finish`, which runs `end` in it and
 * commits: to interleave it with others.
 */
function held(db: Db, begin: (tx: Queryable) => Promise<void>) {
  let ready = () => {};
  let go: (end: (tx: Queryable) => Promise<void>) => void = () => {};
  const started = new Promise<void>((resolve) => (ready = resolve));
  const ending = new Promise<(tx: Queryable) => Promise<void>>((resolve) => (go = resolve));
  const done = db.transaction(async (tx) => {
    await begin(tx);
    ready();
    await (await ending)(tx);
  });
  // A failure before `ready` rejects `ready` too, so a test never waits on a transaction that is gone.
  const readyOrFailed = Promise.race([started, done.then(() => {})]);
  return {
    ready: readyOrFailed,
    finish: async (end: (tx: Queryable) => Promise<void> = async () => {}) => {
      go(end);
      await done;
    },
  };
}

const idsOf = async (db: Db) =>
  (await db.query<{ id: number }>('select audit_id as id from audit_chain order by seq')).map((r) => r.id);

for (const target of testDatabases('both')) {
  describe(`${target.name}: the audit trail's chain`, () => {
    let database: OpenedTestDatabase;
    let db: Db;
    before(async () => {
      database = await target.open();
      db = database.db;
      for (let n = 1; n <= 5; n++) await auditLog(db).record(read(n));
    });
    after(() => database.drop());

    it('writes rows unsealed, which verify counts as waiting, not as a break', async () => {
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 0 });
      const backlog = await auditTrail(db).backlog();
      assert.equal(backlog.rows, 5);
      assert.ok(
        backlog.oldestAgeSeconds !== null && backlog.oldestAgeSeconds >= 0 && backlog.oldestAgeSeconds < 60,
        String(backlog.oldestAgeSeconds),
      );
      await sealAll(db);
      assert.deepEqual(await auditTrail(db).backlog(), { rows: 0, oldestAgeSeconds: null });
    });

    it('chains every row and verifies an untouched trail', async () => {
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 5 });
      const rows = await db.query<{ seq: number }>('select seq from audit_chain order by seq');
      assert.deepEqual(
        rows.map((r) => r.seq),
        [1, 2, 3, 4, 5],
      );
    });

    it('refuses UPDATE, DELETE and TRUNCATE', async () => {
      const [first] = await idsOf(db);
      await assert.rejects(db.query(`update audit_log set action = 'nothing' where id = $1`, [first]), {
        code: '42501',
        message: /append-only: UPDATE refused/,
      });
      await assert.rejects(db.query('delete from audit_log where id = $1', [first]), {
        code: '42501',
        message: /append-only: DELETE refused/,
      });
      await assert.rejects(db.exec('truncate audit_log'), { code: '42501' });
      await assert.rejects(db.query(`update audit_log set seq = 99, hash = '\\x00' where id = $1`, [first]), {
        code: '42501',
      });
      await assert.rejects(db.query('update audit_chain_batches set first_seq = first_seq + 1'), {
        code: '42501',
        message: /audit_chain is append-only: UPDATE refused/,
      });
      await assert.rejects(db.query('delete from audit_chain_batches'), { code: '42501' });
      await assert.rejects(db.exec('truncate audit_chain_batches'), { code: '42501' });
      // A new row cannot pass off a link of the old chain (audit_log's own seq and hash) as its own.
      await assert.rejects(
        db.query(`insert into audit_log (action, entity, seq, hash) values ('create', 'billing', 1, '\\x00')`),
        {
          code: '23514',
          message: /audit_log_new_rows_unchained/,
        },
      );
      await auditLog(db).record(anonymousFailure);
      await sealAll(db);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 5 });
    });

    it('names a row a superuser changed, and passes once it is put back', async () => {
      const third = (await idsOf(db))[2];
      await asTrailOwner(db, `update audit_log set details = '{"n": 33}' where id = $1`, [third]);
      const check = await auditTrail(db).verify();
      assert.equal(check.intact, false);
      assert.equal(!check.intact && check.brokenAt, third);
      assert.match(!check.intact ? check.reason : '', /was changed/);
      await asTrailOwner(db, `update audit_log set details = '{"n": 3}' where id = $1`, [third]);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 5 });
    });

    it('names a row a superuser removed, or the row after one removed with its link', async () => {
      const [, second, third] = await idsOf(db);
      await asTrailOwner(db, 'delete from audit_log where id = $1', [second]);
      const removed = await auditTrail(db).verify();
      assert.deepEqual(removed, {
        intact: false,
        rows: 5,
        brokenAt: second,
        reason: `row ${second} (seq 2) was removed`,
      });
      await asTrailOwner(db, (tx) => relink(tx, `select * from links where audit_id <> ${second}`));
      const gap = await auditTrail(db).verify();
      assert.deepEqual(gap, {
        intact: false,
        rows: 4,
        brokenAt: third,
        reason: `1 row(s) before row ${third} were removed (seq 2 to 2)`,
      });
    });

    // The tests below, each on a database of its own, check how verify reads a trail: the same queries on either
    // engine, whose drivers the tests above cover. They run on one, the server when TEST_DATABASE_URL is set, since
    // opening an embedded database costs seconds of CPU time.
    const itOnOne = onOneDatabase(target, it);

    itOnOne('notices rows removed from the end of the chain', async () => {
      const tail = await target.open();
      try {
        for (let n = 1; n <= 3; n++) await auditLog(tail.db).record(read(n));
        await sealAll(tail.db);
        const last = (await idsOf(tail.db))[2];
        await asTrailOwner(tail.db, 'delete from audit_log where id = $1', [last]);
        await asTrailOwner(tail.db, (tx) => relink(tx, `select * from links where audit_id <> ${last}`));
        const check = await auditTrail(tail.db).verify();
        assert.equal(check.intact, false);
        assert.match(!check.intact ? check.reason : '', /1 row\(s\) after the last one were removed \(seq 3 to 3\)/);
      } finally {
        await tail.drop();
      }
    });

    itOnOne('notices a row slipped into the chain or dressed as an anonymous failure', async () => {
      const forged = await target.open();
      try {
        for (let n = 1; n <= 3; n++) await auditLog(forged.db).record(read(n));
        await sealAll(forged.db);
        // Written as by a transaction the sealer has passed already: among the sealed rows, where none can join.
        await asTrailOwner(
          forged.db,
          `insert into audit_log (actor_user_id, action, entity, tx) values (7, 'create', 'billing', '3')`,
        );
        const [slipped] = await forged.db.query<{ id: number }>('select max(id) as id from audit_log');
        const outside = await auditTrail(forged.db).verify();
        assert.deepEqual(outside, {
          intact: false,
          rows: 3,
          brokenAt: slipped?.id,
          reason: `row ${slipped?.id} is outside the chain but is not an anonymous sign-in failure`,
        });

        await asTrailOwner(forged.db, (tx) =>
          relink(tx, `select * from links union all select 4, ${slipped?.id}::bigint, sha256('forged')`),
        );
        const check = await auditTrail(forged.db).verify();
        assert.equal(check.intact, false);
        assert.match(!check.intact ? check.reason : '', /was changed|does not match the chain head/);
      } finally {
        await forged.drop();
      }
    });

    itOnOne('prunes only anonymous failed sign-ins older than the bound, and the chain still verifies', async () => {
      const fresh = await target.open();
      try {
        const log = auditLog(fresh.db);
        await log.record(read(1));
        await log.record(anonymousFailure);
        await log.record({ ...anonymousFailure, entityId: 42, details: { email: 'pat@example.test' } });
        await log.record(read(2));
        // Written long ago: `at` is the insert's own (the chain covers it like any column).
        await fresh.db.query(
          `insert into audit_log (at, actor_user_id, action, entity, entity_id) values
             ($1, null, 'login_failed', 'user', null), ($1, null, 'login_failed', 'user', null),
             ($1, null, 'login_failed', 'user', '42'), ($1, 3, 'read_records', 'patient', '9')`,
          [daysAgo(100)],
        );
        await sealAll(fresh.db);
        assert.equal(await auditTrail(fresh.db).pruneAnonymous(daysAgo(90)), 2);
        const left = await fresh.db.query<{ action: string; entity_id: string | null; old: boolean }>(
          `select action, entity_id, at < now() - interval '90 days' as old from audit_log order by id`,
        );
        assert.deepEqual(
          left.map((r) => [r.action, r.entity_id, r.old]),
          [
            ['read_records', '1', false],
            ['login_failed', null, false],
            ['login_failed', '42', false],
            ['read_records', '2', false],
            ['login_failed', '42', true],
            ['read_records', '9', true],
          ],
        );
        assert.deepEqual(await auditTrail(fresh.db).verify(), { intact: true, rows: 5 });
      } finally {
        await fresh.drop();
      }
    });

    it('seals committed rows only, once, in one order, whichever transaction began or committed first', {
      skip: target.name !== 'postgres' && 'needs a PostgreSQL server',
    }, async () => {
      const interleaved = await target.open();
      const second = await openPostgres(interleaved.url ?? '');
      const trail = auditTrail(interleaved.db);
      const sealedOrder = async () =>
        (
          await interleaved.db.query<{ entity_id: string }>(
            'select a.entity_id from audit_chain c join audit_log a on a.id = c.audit_id order by c.seq',
          )
        ).map((r) => r.entity_id);
      try {
        // A's row is written first (the smaller id) and committed last: B, committed meanwhile, waits for it.
        const a = held(interleaved.db, async (tx) => auditLog(tx).record(read(1)));
        await a.ready;
        await second.transaction((tx) => auditLog(tx).record(read(2)));
        assert.equal(await trail.seal(100), 0);
        assert.equal((await trail.backlog()).rows, 1);
        await a.finish();
        await sealAll(interleaved.db);
        assert.deepEqual(await sealedOrder(), ['1', '2']);

        // C began first (its transaction id the older) but writes its row after D committed one: D waits for C.
        const c = held(interleaved.db, async (tx) => {
          await tx.query('select txid_current()');
        });
        await c.ready;
        await second.transaction((tx) => auditLog(tx).record(read(4)));
        await second.transaction((tx) => auditLog(tx).record(read(3)));
        assert.equal(await trail.seal(100), 0);
        await c.finish((tx) => auditLog(tx).record(read(5)));
        await sealAll(interleaved.db);
        // Once C is done the three are sealed after 1 and 2, each once. In which order depends on the transactions of
        // the whole server (another database's test may be running one): a row waits while any older one runs.
        const order = await sealedOrder();
        assert.deepEqual(
          [order.slice(0, 2), order.slice(2).sort()],
          [
            ['1', '2'],
            ['3', '4', '5'],
          ],
        );
        assert.deepEqual(await trail.verify(), { intact: true, rows: 5 });

        // A rolled-back row is never sealed, and leaves no gap.
        await assert.rejects(
          second.transaction(async (tx) => {
            await auditLog(tx).record(read(6));
            throw new Error('rolled back');
          }),
        );
        await auditLog(second).record(read(7));
        await sealAll(interleaved.db);
        assert.deepEqual((await sealedOrder()).slice(5), ['7']);
        assert.deepEqual(await trail.verify(), { intact: true, rows: 6 });
      } finally {
        await second.close();
        await interleaved.drop();
      }
    });

    it('elects one sealer at a time: another waits its turn, and writers and sealers at once form one chain', {
      skip: target.name !== 'postgres' && 'needs a PostgreSQL server',
    }, async () => {
      const busy = await target.open();
      const second = await openPostgres(busy.url ?? '');
      try {
        const turn = held(busy.db, async (tx) => {
          assert.equal(await auditTrail(tx).seal(100), 0);
        });
        await turn.ready;
        assert.equal(await auditTrail(second).seal(100), null);
        await turn.finish();

        let writing = true;
        const sealer = async (db: Db) => {
          while (writing) await auditTrail(db).seal(50);
        };
        const sealers = [sealer(busy.db), sealer(second)];
        let next = 1;
        const writer = async (db: Db) => {
          while (next <= 300) {
            const n = next++;
            // Some hold their row a moment before committing, so commits overtake each other.
            await db.transaction(async (tx) => {
              await auditLog(tx).record(read(n));
              if (n % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 15));
            });
          }
        };
        try {
          await Promise.all(Array.from({ length: 8 }, (_, w) => writer(w % 2 ? busy.db : second)));
        } finally {
          writing = false;
          await Promise.all(sealers);
        }
        await sealAll(busy.db);
        assert.deepEqual(await auditTrail(busy.db).verify(), { intact: true, rows: 300 });
        const sealed = await busy.db.query<{ n: number; ids: number }>(
          'select count(*)::int as n, count(distinct a.entity_id)::int as ids from audit_chain c join audit_log a on a.id = c.audit_id',
        );
        assert.deepEqual(sealed, [{ n: 300, ids: 300 }]);
      } finally {
        await second.close();
        await busy.drop();
      }
    });
  });
}

/** Signing and verifying `db`'s checkpoints with a key of their own, the chain's links read by `links`. */
function checkpointsOf(db: Db): (links: (q: Queryable) => ChainLinks) => CheckpointDeps {
  const signer = ed25519Signer(generateKeyPairSync('ed25519').privateKey);
  return (links) => ({
    links: links(db),
    checkpoints: checkpointStore(db),
    clock: fixedClock('2026-06-10T08:00:00Z'),
    signer,
    trustedKeys: [signer],
    transaction: (fn) => db.transaction((tx) => fn({ links: links(tx), checkpoints: checkpointStore(tx) })),
  });
}

/** The chain's newest link as `sql` reads it, as an earlier release read it (enough to sign a checkpoint). */
const newestLinkBy =
  (sql: string) =>
  (q: Queryable): ChainLinks => ({
    newest: async () => (await q.query<ChainLink>(sql))[0] ?? null,
    hashesAt: async () => new Map(),
  });

describe('the chain migration', () => {
  it('chains the rows written before it, leaving anonymous failures out', async (t) => {
    const copy = await embeddedDataDirBefore(8);
    t.after(() => copy.remove());
    const db = await openPglite(copy.dataDir);
    try {
      await db.query(
        `insert into audit_log (at, actor_user_id, actor_role, action, entity, entity_id, details) values
           (now() - interval '2 days', 1, 'admin', 'create', 'department', '1', '{"b": 1, "a": [1, "x"]}'),
           (now() - interval '1 day', null, null, 'login_failed', 'user', null, '{"ip": "203.0.113.1"}'),
           (now(), 2, 'patient', 'book', 'appointment', '5', null)`,
      );
      await migrate(db);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 2 });
      await auditLog(db).record(read(1));
      await sealAll(db);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 3 });
    } finally {
      await db.close();
    }
  });
});

describe('the batched sealing migration', () => {
  it('keeps the chain sealed at commit, and its signed checkpoints, and seals on from its head', async (t) => {
    const copy = await embeddedDataDirBefore(21);
    t.after(() => copy.remove());
    const db = await openPglite(copy.dataDir);
    try {
      // Written as the writer of the time wrote them: the row alone, chained at commit by 0008's trigger.
      for (let n = 1; n <= 3; n++) {
        await db.query(
          `insert into audit_log (actor_user_id, actor_role, action, entity, entity_id, patient_id, details) values ($1, $2, 'read_records', 'patient', $3, $4, $5)`,
          [admin.userId, admin.role, String(n), n, { n }],
        );
      }
      const deps = checkpointsOf(db);
      // The newest link as it was read before the chain had a table of its own.
      const linksInAuditLog = newestLinkBy(
        `select seq, encode(hash, 'hex') as hash from audit_log where seq is not null order by seq desc limit 1`,
      );
      assert.equal((await signCheckpoint(deps(linksInAuditLog), { onlyIfMoved: false })).signed?.seq, 3);

      await migrate(db);
      for (let n = 4; n <= 5; n++) await auditLog(db).record(read(n));
      assert.equal((await auditTrail(db).backlog()).rows, 2);
      await sealAll(db);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 5 });
      const report = await verifyCheckpoints(deps(chainLinks));
      assert.deepEqual(
        {
          checked: report.checked,
          problems: report.problems,
          newest: report.newest?.seq,
          after: report.newest?.rowsAfter,
        },
        { checked: 1, problems: [], newest: 3, after: 2 },
      );
    } finally {
      await db.close();
    }
  });
});

describe('the chain batches migration', () => {
  it('moves the links and their signed checkpoints over, and seals the rows still waiting from their place', async (t) => {
    const copy = await embeddedDataDirBefore(32);
    t.after(() => copy.remove());
    const db = await openPglite(copy.dataDir);
    try {
      // Written as the writer of the time wrote them: the row and its note, in one statement.
      const writeNoted = (n: number) =>
        db.query(
          `with added as (
             insert into audit_log (actor_user_id, actor_role, action, entity, entity_id, patient_id, details)
             values ($1, $2, 'read_records', 'patient', $3, $4, $5) returning id
           ) insert into audit_unsealed (id) select id from added`,
          [admin.userId, admin.role, String(n), n, { n }],
        );
      for (let n = 1; n <= 3; n++) await writeNoted(n);
      await auditTrail(db).seal(100);
      const deps = checkpointsOf(db);
      // The newest link as it was read while each link had a row of its own.
      const linkRows = newestLinkBy(
        `select seq, encode(hash, 'hex') as hash from audit_chain order by seq desc limit 1`,
      );
      assert.equal((await signCheckpoint(deps(linkRows), { onlyIfMoved: false })).signed?.seq, 3);
      for (let n = 4; n <= 5; n++) await writeNoted(n);

      await migrate(db);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 3 });
      assert.equal((await auditTrail(db).backlog()).rows, 2);
      await auditLog(db).record(read(6));
      await sealAll(db);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 6 });
      assert.deepEqual(
        await idsOf(db),
        (await db.query<{ id: number }>('select id from audit_log order by id')).map((r) => r.id),
      );
      const report = await verifyCheckpoints(deps(chainLinks));
      assert.deepEqual(
        {
          checked: report.checked,
          problems: report.problems,
          newest: report.newest?.seq,
          after: report.newest?.rowsAfter,
        },
        { checked: 1, problems: [], newest: 3, after: 3 },
      );
    } finally {
      await db.close();
    }
  });
});
