import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { openPostgres } from '../db/postgres.ts';
import type { Db } from '../db/db.ts';
import { outboxQueue } from '../db/outbox.pg.ts';
import type { OutboxQueue } from '../domain/notifications/ports.ts';
import { systemClock, type Clock } from '../domain/shared/clock.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { onOneDatabase, testDatabases } from '../testing/test-db.ts';
import { smtpTransport } from './smtp.ts';
import { startOutboxWorker, type OutboxWorker, type WorkerOptions } from './worker.ts';

/**
 * The fault run's race, scaled down: its SMTP server took 25 s a message, here 2.5 s (a tenth); its 120 s lease
 * covered a batch of 20 sent one after another, here the lease is 2 s, shorter than a single send, so every
 * message outlives its first lease and goes out once only if its lease is renewed while it is being sent. Renewed
 * every third of the lease, a renewal may come 1.3 s late before another worker may take the message: far more
 * than a renewal's round trip on a busy machine.
 */
const SEND_MS = 2_500;
const LEASE_MS = 2_000;
/**
 * Two rounds of ten messages under way at once (five from each worker) show what the fault run's batch showed;
 * OUTBOX_RACE_MESSAGES=30 (or more) for a longer run.
 */
const RACE_MESSAGES = Number(process.env.OUTBOX_RACE_MESSAGES ?? 20);
/**
 * The lease of the test of a worker cut off from the database: nothing renews it, so how soon another worker takes
 * the message over is the lease's length alone, and the first copy is answered by the order of events.
 */
const CUT_OFF_LEASE_MS = 300;
interface Row {
  id: number;
  status: string;
  attempts: number;
  locked_by: string | null;
  last_error: string | null;
}

const until = async (done: () => Promise<boolean>, ms: number, what: string) => {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

for (const target of testDatabases('both')) {
  describe(`the outbox's leases with a slow mail server on ${target.name}`, () => {
    // What a worker does above the database (sending, timing out) is the same on either engine: those tests run on
    // one, the server when TEST_DATABASE_URL is set. The queue's SQL and the races between workers run on both.
    const itOnOne = onOneDatabase(target, it);
    let db: Db;
    /** A second instance's own connections (PostgreSQL); PGlite's workers share its one connection. */
    let other: Db;
    let drop: () => Promise<void>;
    let smtp: TestSmtp;
    const running = new Set<OutboxWorker>();
    const logs: string[] = [];

    before(async () => {
      const opened = await target.open();
      db = opened.db;
      drop = opened.drop;
      other = opened.url ? await openPostgres(opened.url, { max: 4 }) : db;
      smtp = await startTestSmtp();
    });
    after(async () => {
      await Promise.all([...running].map((worker) => worker.stop()));
      // Any of these is missing when the before hook failed; the others are still closed.
      await smtp?.close();
      if (other !== db) await other?.close();
      await drop?.();
    });

    /** `count` messages due now, their subjects `${tag} 1` … `${tag} count`. */
    const enqueue = (tag: string, count: number) =>
      db.query(
        `insert into outbox (kind, dedupe_key, recipient, subject, text_body, html_body, send_after)
         select 'password_reset', $1::text || ':' || i, $1::text || '-' || i || '@lease.test', $1::text || ' ' || i, 'Hello', '<p>Hello</p>', now()
         from generate_series(1, $2::int) i`,
        [tag, count],
      );
    const rowsOf = (tag: string) =>
      db.query<Row>(
        `select id::int as id, status, attempts, locked_by, last_error from outbox where dedupe_key like $1 order by id`,
        [`${tag}:%`],
      );
    const copiesOf = (tag: string) => smtp.received.filter((mail) => mail.subject?.startsWith(`${tag} `));

    /** Messages each worker claimed, by its id. */
    const claimedBy = new Map<string, number>();
    const counted = (queue: OutboxQueue): OutboxQueue => ({
      ...queue,
      claim: async (holder, now, leaseUntil, limit, sending) => {
        const claimed = await queue.claim(holder, now, leaseUntil, limit, sending);
        claimedBy.set(holder, (claimedBy.get(holder) ?? 0) + claimed.length);
        return claimed;
      },
    });

    const workerOn = (on: Db, workerId: string, overrides: Partial<WorkerOptions> = {}, poll = true) => {
      const worker = startOutboxWorker(
        {
          queue: counted(outboxQueue(on)),
          transport: overrides.transport ?? smtpTransport(smtp.url),
          clock: systemClock,
          from: '"Lease Clinic" <desk@lease.test>',
          linkFor: () => '',
          pollMs: 100,
          leaseMs: LEASE_MS,
          workerId,
          log: (line) => logs.push(`${workerId}: ${line}`),
          ...overrides,
        },
        { poll },
      );
      running.add(worker);
      return worker;
    };
    const stop = async (...workers: OutboxWorker[]) => {
      await Promise.all(workers.map((worker) => worker.stop()));
      for (const worker of workers) running.delete(worker);
    };

    it(`delivers each of ${RACE_MESSAGES} messages once from two workers while every send outlasts its lease`, async (t) => {
      // How many messages the mail server had under way at once: ones it was given and has not yet answered.
      let offered = 0;
      let underWayAtOnce = 0;
      smtp.verdict = (_attempt, mail) => {
        if (mail.subject?.startsWith('race '))
          underWayAtOnce = Math.max(underWayAtOnce, ++offered - copiesOf('race').length);
        return { accept: true, afterMs: SEND_MS };
      };
      await enqueue('race', RACE_MESSAGES);
      const started = Date.now();
      const workers = [workerOn(db, 'worker-a'), workerOn(other, 'worker-b')];
      try {
        // Ten times the rounds of 2.5 s that ten messages at a time take.
        await until(
          async () => (await rowsOf('race')).every((row) => row.status === 'sent'),
          10 * Math.ceil(RACE_MESSAGES / 10) * SEND_MS,
          `all ${RACE_MESSAGES} sent`,
        );
      } finally {
        // Stopping waits for any copy still under way, so a late duplicate is counted too.
        await stop(...workers);
      }
      const elapsed = Date.now() - started;
      const delivered = new Set(copiesOf('race').map((mail) => mail.messageId));
      const duplicates = copiesOf('race').length - delivered.size;
      const lost = RACE_MESSAGES - delivered.size;
      t.diagnostic(
        `${RACE_MESSAGES} messages, 2 workers, ${SEND_MS} ms a message, ${LEASE_MS} ms lease: ${duplicates} duplicates, ${lost} lost, ${elapsed} ms, ${underWayAtOnce} under way at once`,
      );
      assert.deepEqual({ duplicates, lost }, { duplicates: 0, lost: 0 });
      assert.deepEqual(
        new Set((await rowsOf('race')).map((row) => `${row.status} after ${row.attempts}`)),
        new Set(['sent after 1']),
        'none taken over',
      );
      assert.ok(
        (claimedBy.get('worker-a') ?? 0) >= 5 && (claimedBy.get('worker-b') ?? 0) >= 5,
        `both workers sent: ${JSON.stringify([...claimedBy])}`,
      );
      // Five at a time from each worker, where one message after another would keep at most two under way.
      assert.ok(underWayAtOnce >= 5, `${underWayAtOnce} messages under way at once`);
      assert.deepEqual(
        logs.filter((line) => /lease/.test(line)),
        [],
      );
    });

    itOnOne('lets a message the mail server is slow to take delay only itself', async () => {
      // The mail server answers the slow one only once the test lets it: whatever arrives before then went past it.
      let answerSlow = () => {};
      const slowAnswered = new Promise<void>((resolve) => (answerSlow = resolve));
      smtp.verdict = (_attempt, mail) =>
        mail.subject === 'slow 1' ? { accept: true, until: slowAnswered } : { accept: true };
      await enqueue('slow', 1);
      await enqueue('quick', 4);
      const worker = workerOn(db, 'worker-s');
      try {
        await until(async () => copiesOf('quick').length === 4, 15_000, 'the quick ones past the slow one');
        await enqueue('later', 3);
        await until(
          async () => copiesOf('later').length === 3,
          15_000,
          'messages queued while the slow one is under way',
        );
        assert.deepEqual(
          (await rowsOf('slow')).map((row) => row.status),
          ['sending'],
          'the slow one is still under way',
        );
        answerSlow();
        await until(async () => (await rowsOf('slow'))[0]?.status === 'sent', 15_000, 'the slow one, once answered');
      } finally {
        answerSlow();
        await stop(worker);
      }
      assert.equal(copiesOf('slow').length, 1);
      assert.deepEqual(
        (await rowsOf('slow')).map((row) => row.attempts),
        [1],
        'sent at its first attempt',
      );
    });

    it("changes nothing for a worker whose lease passed to another, but records the first worker's delivery", async () => {
      await enqueue('lapsed', 1);
      const queue = outboxQueue(db);
      // The row is due from the database's now(), to the microsecond; Date.now() is the millisecond that began
      // before it, so "now" here is the next one.
      const from = Date.now() + 1;
      const at = (ms: number) => new Date(from + ms);
      const [first] = await queue.claim('worker-first', at(0), at(1_000), 10);
      assert.ok(first);
      assert.deepEqual(await queue.claim('worker-next', at(500), at(60_500), 10), [], 'not while the first holds it');
      const [taken] = await queue.claim('worker-next', at(2_000), at(62_000), 10);
      assert.equal(taken?.attempts, 2);
      assert.deepEqual(await queue.renew('worker-first', [first.id], at(3_000)), []);
      assert.equal(await queue.retry('worker-first', first.id, at(60_000), 'timeout'), false);
      assert.equal(await queue.close('worker-first', first.id, 'dead', 'given up'), false);
      assert.deepEqual(
        (await rowsOf('lapsed')).map((row) => [row.status, row.locked_by]),
        [['sending', 'worker-next']],
      );
      assert.deepEqual(await queue.renew('worker-next', [first.id], at(63_000)), [first.id]);

      // The first worker's copy got through: a fact, whoever holds the lease; the taker's outcome then changes nothing.
      assert.deepEqual(await queue.sent(first.id, at(2_500)), { heldBy: 'worker-next' });
      assert.equal(await queue.retry('worker-next', first.id, at(60_000), '451 try again'), false);
      assert.equal(await queue.close('worker-next', first.id, 'dead', 'given up'), false);
      assert.equal(await queue.sent(first.id, at(3_000)), undefined, 'recorded once');
      assert.deepEqual(
        (await rowsOf('lapsed')).map((row) => [row.status, row.locked_by, row.attempts]),
        [['sent', null, 2]],
      );
    });

    it("keeps a message sent when its sender's lease ran out mid-send and the taker's copy is refused", async () => {
      // The first copy is answered only once the taker's copy has been refused: its lease ran out mid-send by the
      // order of events, not by how fast the machine is.
      let answerFirst = () => {};
      const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
      const takerRefused = () =>
        logs.some((line) => line.startsWith('worker-taker: ') && /attempt 2 failed: .*451/.test(line));
      let copy = 0;
      smtp.verdict = (_attempt, mail) => {
        if (mail.subject !== 'cut-off 1') return { accept: true };
        return copy++ === 0
          ? { accept: true, until: firstAnswered }
          : { accept: false, code: 451, message: 'Try again later' };
      };
      await enqueue('cut-off', 1);
      // A worker whose lease renewals never reach the database (a partition, a paused process).
      const cutOff = workerOn(db, 'worker-cut-off', {
        queue: { ...outboxQueue(db), renew: async () => [] },
        leaseMs: CUT_OFF_LEASE_MS,
      });
      await until(async () => (await rowsOf('cut-off'))[0]?.locked_by === 'worker-cut-off', 20_000, 'the first claim');
      const taker = workerOn(other, 'worker-taker', {
        retry: { baseDelayMs: 60_000, maxDelayMs: 60_000, maxAttempts: 4 },
        leaseMs: CUT_OFF_LEASE_MS,
      });
      try {
        // Far more than ten times the short lease the taker waits out, and its poll.
        await until(async () => takerRefused(), 10 * LEASE_MS, "the taker's copy refused");
        answerFirst();
        await until(
          async () => (await rowsOf('cut-off'))[0]?.status === 'sent',
          10 * LEASE_MS,
          'the first copy recorded',
        );
      } finally {
        answerFirst();
        await stop(cutOff, taker);
      }
      assert.deepEqual(
        (await rowsOf('cut-off')).map((row) => [row.status, row.attempts]),
        [['sent', 2]],
        'not re-queued by the refused second copy',
      );
      assert.deepEqual([copy, copiesOf('cut-off').length], [2, 1], 'one copy per lease holder, the second refused');
      assert.ok(takerRefused(), logs.join('\n'));
      assert.ok(
        logs.some((line) => line.startsWith('worker-cut-off: ') && /delivered after its lease ran out/.test(line)),
        logs.join('\n'),
      );
    });

    itOnOne(
      'counts a reply slower than the SMTP timeout as a passing failure, and a longer timeout delivers',
      async () => {
        // The first reply comes only once the impatient worker has given up: slower than its timeout by order. The
        // second comes after 1.5 s.
        let answerFirst = () => {};
        const firstAnswered = new Promise<void>((resolve) => (answerFirst = resolve));
        let offered = 0;
        smtp.verdict = (_attempt, mail) => {
          if (!mail.subject?.startsWith('patient ')) return { accept: true };
          return offered++ === 0 ? { accept: true, until: firstAnswered } : { accept: true, afterMs: 1_500 };
        };
        await enqueue('patient', 1);
        const impatient = workerOn(
          db,
          'worker-1s',
          { transport: smtpTransport(smtp.url, { timeoutMs: 1_000 }) },
          false,
        );
        try {
          assert.equal(await impatient.runOnce(), 1);
        } finally {
          answerFirst();
          await stop(impatient);
        }
        const [failed] = await rowsOf('patient');
        assert.deepEqual([failed?.status, failed?.attempts], ['pending', 1]);
        assert.match(failed?.last_error ?? '', /timeout/i);

        const anHourOn: Clock = { now: () => new Date(Date.now() + 3_600_000) };
        // Ten times the reply's 1.5 s.
        const patient = workerOn(
          db,
          'worker-15s',
          { transport: smtpTransport(smtp.url, { timeoutMs: 15_000 }), clock: anHourOn },
          false,
        );
        try {
          assert.equal(await patient.runOnce(), 1);
        } finally {
          await stop(patient);
        }
        assert.deepEqual(
          (await rowsOf('patient')).map((row) => [row.status, row.attempts]),
          [['sent', 2]],
        );
      },
    );
  });
}
