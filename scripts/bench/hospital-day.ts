/**
 * `DATABASE_URL=postgres://… node --import tsx scripts/bench/hospital-day.ts [--users 400] [--minutes 10] [--scale 1]`
 * (`make bench-day`): a hospital's day. Users who think between actions — patients booking and reading, doctors on
 * their day, nurses on the ward, the desk, FHIR clients, in the issue's shares — arrive over a ramp, sign in once
 * and act until the day ends, against two real `medora serve` instances (each with its mail worker, sealer and access
 * log, e-mails going to an SMTP sink here) on a generated hospital kept between runs (`bench_day_full` at 100 %).
 * Reports each action's p50/p95/p99, errors and expected refusals, the CPU each action costs (the instances' and their
 * PostgreSQL backends', from /proc, run alone after the day), each instance's peak RSS and the load average, and
 * writes them to the `hospital_day` section of bench/results.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { SMTPServer } from 'smtp-server';
import { clinicDateTime } from '../../src/domain/shared/clock.ts';
import { earlyMorningZone } from './clinic-zone.ts';
import { openCpuWindow } from './day-cpu.ts';
import type { DayContext, DayUser } from './day-actions.ts';
import { ensureDayDatabase } from './day-database.ts';
import { loadDayFixtures, type DayFixtures } from './day-fixtures.ts';
import {
  arrivalTimesMs,
  DAY_ROLES,
  ROLE_ACTIONS,
  roleCounts,
  rolesInArrivalOrder,
  seededRandom,
  SIGN_IN,
  type DayAction,
  type DayRole,
} from './day-mix.ts';
import {
  actionTable,
  cpuPerAction,
  missedTargets,
  snakeCaseKeys,
  summarise,
  TARGETS,
  type Sample,
} from './day-report.ts';
import { runAlone, runDay, signInsAlone } from './day-run.ts';
import { round } from './load.ts';
import { parseScale } from './scale.ts';
import { startMedora, type RunningServer } from './servers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INSTANCES = 2;
/** Targets of each kind that gets used up (visits to record, check-ins, bills, doses a ward): more than a day uses. */
const WORK_TARGETS = 3_000;
/** Users of a role loaded together when an action is run alone for its CPU. */
const ALONE_CONCURRENCY = 2;

const opts = new Command('bench-day')
  .description('a hospital day: users who think between actions, on two medora serve instances')
  .option('--users <n>', 'concurrent users', '400')
  .option('--minutes <n>', 'length of the day, ramp included', '10')
  .option('--scale <share>', 'the hospital: "full" (100,000 patients), "small" (1 %) or a share', 'full')
  .option('--think <seconds>', 'mean think time between a user’s actions (exponential)', '12')
  .option('--ramp <seconds>', 'the users arrive over this long', '60')
  .option('--cpu-seconds <n>', 'each action run alone for this long after the day, for its CPU (0: skip)', '3')
  .option('--regenerate', 'generate the hospital again even if it is kept (its stays and doses are then of today)')
  .option('--seed <n>', 'seed of the users’ choices and think times', '1')
  .option('--output <file>', 'results file; its hospital_day section is replaced', 'bench/results.json')
  .parse()
  .opts<{
    users: string;
    minutes: string;
    scale: string;
    think: string;
    ramp: string;
    cpuSeconds: string;
    seed: string;
    regenerate?: boolean;
    output: string;
  }>();

const positive = (value: string, flag: string, integer = true) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n)))
    throw new Error(`${flag} must be a number ≥ 0`);
  return n;
};
const users = positive(opts.users, '--users');
const durationMs = positive(opts.minutes, '--minutes', false) * 60_000;
const scale = parseScale(opts.scale);
const thinkMeanMs = positive(opts.think, '--think', false) * 1000;
const rampMs = Math.min(durationMs, positive(opts.ramp, '--ramp', false) * 1000);
const cpuMs = positive(opts.cpuSeconds, '--cpu-seconds', false) * 1000;
const seed = positive(opts.seed, '--seed');
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl?.startsWith('postgres'))
  throw new Error('set DATABASE_URL to a PostgreSQL server: two instances share it');
const log = (line: string) => console.error(line);

const startedAt = new Date();
const clinicTimeZone = earlyMorningZone(startedAt);
const today = clinicDateTime(startedAt, clinicTimeZone).date;
if (!existsSync(join(ROOT, 'dist/cli'))) throw new Error('build first: make build (the instances run dist/)');

const database = await ensureDayDatabase(serverUrl, scale, today, log, opts.regenerate);
const counts = roleCounts(users);
const fixtures = await withDb((db) =>
  loadDayFixtures(db, today, {
    patients: counts.patient,
    doctors: counts.doctor,
    reception: counts.desk,
    work: WORK_TARGETS,
  }),
);
const dayUsers = cast(rolesInArrivalOrder(seededRandom(seed), counts), fixtures);
log(
  `${dayUsers.length} users (${DAY_ROLES.map((role) => `${counts[role]} ${role}`).join(', ')}); ` +
    `${fixtures.wards.length} wards with nurses and patients, ${fixtures.wards.reduce((n, w) => n + w.dueDoses.length, 0)} doses due, ` +
    `${fixtures.toCheckIn.length} visits today to check in, ${fixtures.unpaidBills.length} bills to pay`,
);

const smtp = await startSmtpSink();
const logDir = await mkdtemp(join(tmpdir(), 'medora-bench-day-'));
const env = { DATABASE_URL: database.url, CLINIC_TZ: clinicTimeZone, SMTP_URL: smtp.url };
const instances: RunningServer[] = [];
try {
  for (let i = 0; i < INSTANCES; i++) instances.push(await startMedora(env, join(logDir, `medora-${i + 1}.log`)));
  log(`Instances: ${instances.map((s) => s.url).join(', ')} (logs in ${logDir})`);
  const samples: Sample[] = [];
  const shared: Omit<DayContext, 'random'> = {
    urls: instances.map((s) => s.url),
    fixtures,
    record: (sample) => samples.push(sample),
    bookingDays: 14,
  };
  const monitorDb = await database.open();
  const monitor = {
    db: monitorDb,
    cpu: await openCpuWindow(
      monitorDb,
      database.name,
      instances.map((s) => s.pid),
    ),
  };
  const loadStart = loadavg().map((n) => round(n, 2));
  const watch = watchMachine(instances);
  log(
    `The day: ${durationMs / 60_000} min, users arriving over ${rampMs / 1000} s, thinking ${thinkMeanMs / 1000} s on average`,
  );
  const dayStarted = performance.now();
  const signedIn = await runDay(shared, {
    users: dayUsers,
    arrivalsMs: arrivalTimesMs(seededRandom(seed + 1), dayUsers.length, rampMs),
    durationMs,
    thinkMeanMs,
    seed,
  });
  const daySeconds = (performance.now() - dayStarted) / 1000;
  const spent = monitor.cpu.spent();
  monitor.cpu.close();
  const machine = watch.stop();
  const loadEnd = loadavg().map((n) => round(n, 2));
  const daySamples = samples.splice(0);
  const order = [SIGN_IN, ...DAY_ROLES.flatMap((role) => Object.keys(ROLE_ACTIONS[role]))];
  const actions = summarise(daySamples, order);
  log(`Day over: ${daySamples.length} requests in ${round(daySeconds, 1)} s; ${signedIn} users signed in`);

  if (cpuMs > 0) {
    log(`Each action alone for ${cpuMs / 1000} s, for its CPU`);
    const alone = await cpuAlone(shared, dayUsers, monitor.db);
    for (const figures of actions) figures.cpuUsPerAction = alone.get(figures.action);
  }
  await monitor.db.close();
  const peakRssMiB = instances.map((s) => s.peakRssMiB());
  const missed = missedTargets(actions, peakRssMiB);
  const section = {
    startedAt: startedAt.toISOString(),
    machine: {
      cpus: availableParallelism(),
      node: process.versions.node,
      loadAverage: { start: loadStart, end: loadEnd, highest1m: machine.highestLoad },
    },
    clinicTimeZone,
    dataset: { database: database.name, ...database.dataset },
    load: {
      users: dayUsers.length,
      signedIn,
      roles: counts,
      minutes: durationMs / 60_000,
      rampSeconds: rampMs / 1000,
      thinkMeanSeconds: thinkMeanMs / 1000,
      thinkDistribution: 'exponential, cut at 6 × the mean',
      instances: INSTANCES,
      seed,
    },
    requests: daySamples.length,
    requestsPerSecond: round(daySamples.length / daySeconds, 1),
    cpu: {
      serversSeconds: round(spent.serversUs / 1e6, 1),
      postgresSeconds: round(spent.postgresUs / 1e6, 1),
      usPerRequest: cpuPerAction(spent.serversUs + spent.postgresUs, daySamples.length),
    },
    peakRssMiB,
    highestRssMiBSampled: machine.highestRss,
    emailsReceived: smtp.received(),
    targets: TARGETS,
    missed,
    actions,
  };
  await writeSection(resolve(ROOT, opts.output), snakeCaseKeys(section));
  console.log(actionTable(actions));
  console.log(
    `\n${daySamples.length} requests (${section.requestsPerSecond}/s) from ${signedIn} users; CPU ${section.cpu.usPerRequest} µs/request ` +
      `(instances ${section.cpu.serversSeconds} s, PostgreSQL ${section.cpu.postgresSeconds} s); peak RSS ${peakRssMiB.join(' and ')} MiB; ` +
      `load average ${loadStart.join(' ')} → ${loadEnd.join(' ')} (highest 1-min ${machine.highestLoad}); ${smtp.received()} e-mails sent`,
  );
  console.log(missed.length ? `\nMissed:\n${missed.map((line) => `  ${line}`).join('\n')}` : '\nEvery target met.');
} finally {
  await Promise.all(instances.map((s) => s.stop()));
  await smtp.close();
}

/** Gives each role's users their accounts and work: patients one each, doctors and the desk in turn, nurses by ward. */
function cast(roles: DayRole[], f: DayFixtures): DayUser[] {
  const next: Record<DayRole, number> = { patient: 0, doctor: 0, nurse: 0, desk: 0, fhir: 0 };
  const out: DayUser[] = [];
  for (const role of roles) {
    const n = next[role]++;
    const user = accountOf(role, n, f);
    if (user) out.push({ role, recorded: [], ...user });
  }
  const idleNurses = counts.nurse - out.filter((u) => u.role === 'nurse').length;
  if (idleNurses > 0) log(`  no ward with nurses and patients: ${idleNurses} nurse users sit the day out`);
  return out;
}

function accountOf(role: DayRole, n: number, f: DayFixtures): Omit<DayUser, 'role' | 'recorded'> | undefined {
  const at = <T>(list: readonly T[]) => list[n % list.length] as T;
  switch (role) {
    case 'patient': {
      const patient = at(f.patients);
      return { email: patient.email, patientId: patient.patientId };
    }
    case 'doctor': {
      const doctor = at(f.doctors);
      return { email: doctor.email, doctor };
    }
    case 'nurse': {
      if (!f.wards.length) return undefined;
      const ward = at(f.wards);
      return { email: ward.nurseEmails[Math.floor(n / f.wards.length) % ward.nurseEmails.length] as string, ward };
    }
    case 'desk':
      return { email: at(f.receptionEmails) };
    case 'fhir':
      return { email: f.adminEmail };
  }
}

/** Each action's CPU: the instances' and PostgreSQL's, over the runs of the action alone. */
async function cpuAlone(
  shared: Omit<DayContext, 'random'>,
  everyone: DayUser[],
  db: Parameters<typeof openCpuWindow>[0],
): Promise<Map<string, number | undefined>> {
  const perAction = new Map<string, number | undefined>();
  const measure = async (name: string, work: () => Promise<number>) => {
    const window = await openCpuWindow(
      db,
      database.name,
      instances.map((s) => s.pid),
    );
    const runs = await work();
    const { serversUs, postgresUs } = window.spent();
    window.close();
    perAction.set(name, cpuPerAction(serversUs + postgresUs, runs));
  };
  const signedIn = everyone.filter((u) => u.token);
  await measure(SIGN_IN, () => signInsAlone(shared, signedIn.slice(0, ALONE_CONCURRENCY), cpuMs));
  for (const role of DAY_ROLES) {
    const ofRole = signedIn.filter((u) => u.role === role).slice(0, ALONE_CONCURRENCY);
    if (!ofRole.length) continue;
    for (const action of Object.keys(ROLE_ACTIONS[role]) as DayAction[])
      await measure(action, () => runAlone(shared, ofRole, action, cpuMs, seed));
  }
  return perAction;
}

/** Samples the load average and each instance's RSS every 2 s. */
function watchMachine(servers: RunningServer[]) {
  let highestLoad = 0;
  const highestRss = servers.map(() => 0);
  const look = () => {
    highestLoad = Math.max(highestLoad, round(loadavg()[0] ?? 0, 2));
    servers.forEach((server, i) => {
      const rss = rssMiB(server.pid);
      if (rss !== undefined) highestRss[i] = Math.max(highestRss[i] ?? 0, rss);
    });
  };
  look();
  const timer = setInterval(look, 2000);
  return {
    stop: () => {
      clearInterval(timer);
      look();
      return { highestLoad, highestRss };
    },
  };
}

function rssMiB(pid: number): number | undefined {
  try {
    const kib = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return round(kib / 1024, 1);
  } catch {
    return undefined;
  }
}

async function withDb<T>(work: (db: Awaited<ReturnType<typeof database.open>>) => Promise<T>): Promise<T> {
  const db = await database.open();
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

/** Replaces the file's `hospital_day` section, keeping the others. */
async function writeSection(file: string, section: unknown): Promise<void> {
  const existing = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ ...existing, hospital_day: section }, null, 2)}\n`);
  log(`Wrote the hospital_day section of ${file}`);
}

/** An SMTP server that takes every message and keeps only the count: where the instances' mail workers send. */
async function startSmtpSink(): Promise<{ url: string; received(): number; close(): Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        received++;
        callback();
      });
      stream.resume();
    },
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
