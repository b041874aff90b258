/**
 * `TEST_DATABASE_URL=… node --import tsx scripts/bench/booking-burst.ts [--bookings 1000] [--max-wait 120]`: that many
 * patients each book a different slot at the same moment through two Medora instances on one fresh PostgreSQL
 * database (requests alternated between them, each instance with the default pool and timeouts). A client answered
 * 503 waits the answer's Retry-After and tries again, for at most --max-wait seconds in all. Run twice: with the
 * audit chain (a sealer running, as in `medora serve`) and on another fresh database without it (no sealer, and
 * rows unmarked for one, as scripts/bench/audit-chain.ts does). Each run reports the bookings made on the first try, in
 * all, how long until all were booked and the bookings per second; that every slot was booked exactly once is
 * checked in SQL.
 */
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { TrailCheck } from '../../src/domain/audit/use-cases.ts';
import { at } from '../../src/testing/assert.ts';
import { benchMachine } from './report.ts';
import { type BurstTally, bookPatiently, bookingRequests, tallyBurst } from './burst.ts';
import {
  DATES,
  NOW,
  bookedSlots,
  databasePoolSize,
  describeTrail,
  trailAfterSealing,
  withTwoInstances,
} from './two-instances.ts';

const opts = new Command()
  .option('--bookings <n>', 'patients booking at once', '1000')
  .option('--max-wait <seconds>', 'how long a client keeps retrying after 503s, in all', '120')
  .option('--output <file>', 'also write the figures there as JSON (bench/burst-results.json)')
  .parse()
  .opts<{ bookings: string; maxWait: string; output?: string }>();
const n = Number(opts.bookings);
const maxWaitMs = Number(opts.maxWait) * 1000;

interface Burst extends BurstTally {
  seconds: number;
  distinctSlots: number;
  doubleBooked: number;
  /** Read after the sealer caught up (with the chain only). */
  trail: TrailCheck;
}

/** One burst on a fresh database; `chained: false` runs no sealer and leaves rows unmarked for one. */
function burst(chained: boolean): Promise<Burst> {
  return withTwoInstances({ chained }, async ({ setup, apps, urls, verifier }) => {
    const requests = await bookingRequests(at(apps, 0, 'app'), setup, {
      n,
      dates: DATES,
      sessionsUntil: new Date(Date.parse(NOW) + 86_400_000),
    });
    const started = performance.now();
    const answers = await Promise.all(
      requests.map((r, i) => bookPatiently(at(urls, i % urls.length, 'url'), r, maxWaitMs)),
    );
    const seconds = (Math.max(...answers.map((a) => a.at)) - started) / 1000;
    const slots = await bookedSlots(setup);
    return {
      ...tallyBurst(answers),
      seconds,
      distinctSlots: slots.distinctSlots,
      doubleBooked: slots.doubleBooked,
      trail: await trailAfterSealing({ verifier }, chained),
    };
  });
}

const runs: Record<string, unknown>[] = [];
const startedAt = new Date().toISOString();
for (const chained of [true, false]) {
  const b = await burst(chained);
  runs.push({
    chain: chained,
    bookings: n,
    pool_per_instance: databasePoolSize,
    first_try: b.firstTry,
    booked: b.booked,
    retries: b.retries,
    seconds: Number(b.seconds.toFixed(2)),
    booked_per_second: Number((b.booked / b.seconds).toFixed(1)),
    distinct_slots: b.distinctSlots,
    double_booked: b.doubleBooked,
    refused: b.refused,
    unavailable: b.unavailable,
  });
  const refused = Object.entries(b.refused)
    .map(([answer, count]) => `${count} × ${answer}`)
    .join(', ');
  console.log(
    `${chained ? 'with the audit chain' : 'without the chain'}: ${n} simultaneous bookings over 2 instances (pool ${databasePoolSize} each): ` +
      `${b.firstTry} booked on the first try, ${b.booked} in all after ${b.retries} retries (${(b.booked / b.seconds).toFixed(1)} booked/s), ` +
      `the last answered ${b.seconds.toFixed(2)} s after the start${refused ? `; not booked: ${refused}` : ''}`,
  );
  const exact = b.booked === n && b.distinctSlots === n && b.doubleBooked === 0;
  console.log(
    `  in SQL: ${b.distinctSlots} distinct slots booked, ${b.doubleBooked} booked twice: ${exact ? 'each slot exactly once' : 'NOT each slot exactly once'}`,
  );
  // Without the chain no row is sealed: the trail has nothing to say about that run.
  if (chained) console.log(`  audit trail: ${describeTrail(b.trail)}`);
  if (!exact) process.exitCode = 1;
}
if (opts.output) {
  await writeFile(
    opts.output,
    `${JSON.stringify({ started_at: startedAt, instances: 2, machine: benchMachine(), runs }, null, 2)}\n`,
  );
  console.log(`figures written to ${opts.output}`);
}
