/**
 * `DATABASE_URL=postgres://… node --import tsx scripts/bench/burst-processes.ts [--bookings 1000] [--max-wait 120]
 * [--env NAME=value …] [--output bench/results.json]`: the 1,000-booking burst as operators run Medora — two real
 * `medora serve` processes (each with its own mail worker, audit sealer and access log, the default pool and
 * timeouts) on one fresh PostgreSQL database, the patients' requests alternated between them. A client answered 503
 * waits its Retry-After and books again. Reports the bookings made on the first try and in all, every 503 by code
 * with how long the server held it, how long until all were booked, each instance's CPU time and peak memory, and
 * checks in SQL that every slot was booked exactly once. `--env` passes a setting to both servers (to try a
 * different pool or wait); `--output` adds the run to the `burst_processes` section (a list) of that results file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { CLI_STATEMENT_TIMEOUT_MS, loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { addDays, clinicDateTime, isoWeekday, systemClock } from '../../src/domain/shared/clock.ts';
import { at, present } from '../../src/testing/assert.ts';
import { makeTestApp } from '../../src/testing/test-app.ts';
import { bookPatiently, bookingRequests, tallyBurst } from './burst.ts';
import { createBenchDatabase } from './database.ts';
import { round } from './load.ts';
import { appendResult } from './merge-results.ts';
import { benchMachine } from './report.ts';
import { startMedora, type RunningServer } from './servers.ts';
import { bookedSlots, describeTrail, trailAfterSealing } from './two-instances.ts';

const TIME_ZONE = 'UTC';

const opts = new Command()
  .option('--bookings <n>', 'patients booking at once', '1000')
  .option('--max-wait <seconds>', 'how long a client keeps retrying after 503s, in all', '120')
  .option('--env <setting...>', 'NAME=value given to both servers', [])
  .option('--output <file>', 'add the run to the burst_processes runs of this results file')
  .parse()
  .opts<{ bookings: string; maxWait: string; env: string[]; output?: string }>();
const n = Number(opts.bookings);
const maxWaitMs = Number(opts.maxWait) * 1000;
const serverUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('set DATABASE_URL to a PostgreSQL server');
const settings = Object.fromEntries(
  opts.env.map((setting) => {
    const [name, ...value] = setting.split('=');
    if (!name || value.length === 0) throw new Error(`--env wants NAME=value, got "${setting}"`);
    return [name, value.join('=')];
  }),
);

/** The next three weekdays after today on the clinic's clock: a new doctor's default week has slots on each. */
function nextWeekdays(): string[] {
  const dates: string[] = [];
  for (let date = clinicDateTime(new Date(), TIME_ZONE).date; dates.length < 3; ) {
    date = addDays(date, 1);
    if (isoWeekday(date) <= 5) dates.push(date);
  }
  return dates;
}

const startedAt = new Date();
const loadBefore = benchMachine().load_average;
const database = await createBenchDatabase(serverUrl);
const url = present(database.env.DATABASE_URL, 'database URL');
const logDir = await mkdtemp(join(tmpdir(), 'medora-burst-'));
const setup = await openPostgres(url, {
  max: 4,
  timeouts: { ...loadConfig(process.env).timeouts, statementMs: CLI_STATEMENT_TIMEOUT_MS },
});
const servers: RunningServer[] = [];
let failed = false;
try {
  await migrate(setup);
  const app = makeTestApp(setup, { clock: systemClock, clinicTz: TIME_ZONE });
  const requests = await bookingRequests(app, setup, {
    n,
    dates: nextWeekdays(),
    sessionsUntil: new Date(Date.now() + 86_400_000),
  });
  const env = { ...database.env, CLINIC_TZ: TIME_ZONE, ...settings };
  for (const i of [0, 1]) servers.push(await startMedora(env, join(logDir, `medora-${i}.log`)));
  const cpuBefore = servers.map((s) => s.cpuTimeUs());
  const started = performance.now();
  const answers = await Promise.all(
    requests.map((r, i) => bookPatiently(at(servers, i % servers.length, 'server').url, r, maxWaitMs)),
  );
  const seconds = (Math.max(...answers.map((a) => a.at)) - started) / 1000;
  const cpuSeconds = servers.map((s, i) => round((s.cpuTimeUs() - at(cpuBefore, i, 'cpu')) / 1e6, 2));
  const tally = tallyBurst(answers);
  const slots = await bookedSlots(setup);
  const trail = await trailAfterSealing({ verifier: app }, true);
  const exact = tally.booked === n && slots.distinctSlots === n && slots.doubleBooked === 0;
  const result = {
    started_at: startedAt.toISOString(),
    instances: 2,
    how: 'two `medora serve` processes (mail worker, sealer and access log each), requests alternated between them',
    settings,
    pool_per_instance: loadConfig({ ...process.env, ...settings }).databasePoolSize,
    bookings: n,
    first_try: tally.firstTry,
    first_try_share: round(tally.firstTry / n, 3),
    booked: tally.booked,
    retries: tally.retries,
    seconds: round(seconds, 2),
    booked_per_second: round(tally.booked / seconds, 1),
    distinct_slots: slots.distinctSlots,
    double_booked: slots.doubleBooked,
    exactly_once: exact,
    refused: tally.refused,
    unavailable: Object.fromEntries(
      Object.entries(tally.unavailable).map(([code, u]) => [
        code,
        { count: u.count, median_held_ms: u.medianHeldMs, max_held_ms: u.maxHeldMs },
      ]),
    ),
    trail: describeTrail(trail),
    cpu_seconds_per_instance: cpuSeconds,
    peak_rss_mib_per_instance: servers.map((s) => s.peakRssMiB()),
    machine: { ...benchMachine(), load_average: { start: loadBefore, end: benchMachine().load_average } },
  };
  const unavailable = Object.entries(tally.unavailable)
    .map(([code, u]) => `${u.count} × ${code} (held ${u.medianHeldMs} ms median, ${u.maxHeldMs} ms longest)`)
    .join(', ');
  console.log(
    `${n} simultaneous bookings over 2 medora serve processes (pool ${result.pool_per_instance} each${
      Object.keys(settings).length ? `, ${opts.env.join(' ')}` : ''
    }): ${tally.firstTry} booked on the first try, ${tally.booked} in all after ${tally.retries} retries ` +
      `(${result.booked_per_second} booked/s), the last answered ${result.seconds} s after the start` +
      `${unavailable ? `; 503s: ${unavailable}` : ''}`,
  );
  console.log(
    `  in SQL: ${slots.distinctSlots} distinct slots booked, ${slots.doubleBooked} booked twice: ${exact ? 'each slot exactly once' : 'NOT each slot exactly once'}`,
  );
  console.log(`  audit trail: ${result.trail}; CPU s ${cpuSeconds.join(' / ')}; load ${loadBefore.join(' ')}`);
  if (!exact) process.exitCode = 1;
  if (opts.output) {
    await appendResult(resolve(opts.output), 'burst_processes', result);
    console.log(`figures written to ${opts.output} (burst_processes)`);
  }
} catch (error) {
  failed = true;
  console.error(`burst failed: ${(error as Error)?.stack ?? error}\nserver logs are in ${logDir}`);
  process.exitCode = 1;
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await setup.close();
  await database.remove();
  if (!failed) await rm(logDir, { recursive: true, force: true });
}
