/**
 * `npm run bench [-- --scale 0.01,0.1,1 | --scale small | --scale full] [--duration 3] [--rounds 10] [--connections 32]`:
 * by default the reads at 1 %, 10 % and 100 % of the hospital, so one run gives both tables — each read against
 * its twin, and how its p50 grows with the data. For each scale, generates a hospital in a fresh database (DATABASE_URL's server, else embedded), starts Medora
 * and its bare twins (twins.ts) on it and drives every read endpoint on all of them at once, in rounds, so each
 * ratio compares servers under the same load from the rest of the machine. At the largest scale it then drives
 * the writes (booking, record, payment) on Medora and their twins alike, each request on a target of its own, and
 * the sign-ins on Medora; weighs the built UI, and writes the tables and bench/results.json.
 * Every load targets 127.0.0.1 and is bounded in time. The FHIR API's $everything and exports have their own run,
 * scripts/bench/fhir.ts, on the same generated hospital.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { clinicDateTime } from '../../src/domain/shared/clock.ts';
import { earlyMorningZone } from './clinic-zone.ts';
import { createBenchDatabase, type BenchDatabase } from './database.ts';
import { WRITE_KINDS, type Fixtures } from './fixtures.ts';
import { prepareHospital, type Hospital } from './hospital.ts';
import {
  combine,
  cpuPerRequestUs,
  nth,
  round,
  runLoad,
  type LoadOptions,
  type Measurement,
  type Scenario,
} from './load.ts';
import { checkTargets, percent, ratioOf, renderReport, resultsJson, type BenchRun, type ReadPair } from './report.ts';
import { GROWTH_SCALES, parseScales } from './scale.ts';
import { WRITES, doctorsScenario, loginScenario, readScenarios, writeTurns } from './scenarios.ts';
import { startMedora, startTwins, startWorker, type RunningServer } from './servers.ts';
import { measureUiWeight } from './ui-weight.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WARMUP_SECONDS = 1;

const options = new Command('bench')
  .description('hospital-scale benchmark of the Medora HTTP API, each read endpoint against a bare node:http twin')
  .option(
    '--scale <scales>',
    '"full" (300 doctors, 100,000 patients, 1,000,000 appointments), "small" (1 %), a fraction, or a comma-separated series',
    GROWTH_SCALES.join(','),
  )
  .option(
    '--growth',
    `the reads at ${GROWTH_SCALES.map(percent).join(', ')} of the hospital (the default; same as --scale ${GROWTH_SCALES.join(',')})`,
  )
  .option('--duration <seconds>', 'load time of one round', '3')
  .option(
    '--rounds <n>',
    'rounds per read endpoint, each loading Medora and its twin (at every scale) at the same time',
    '10',
  )
  .option('--connections <n>', 'concurrent connections', '32')
  .option('--output <file>', 'where to write the results', 'bench/results.json')
  .parse()
  .opts<{ scale: string; growth?: boolean; duration: string; rounds: string; connections: string; output: string }>();

const scales = options.growth ? GROWTH_SCALES : parseScales(options.scale);
const load: LoadOptions = {
  seconds: positiveInt(options.duration, '--duration'),
  connections: positiveInt(options.connections, '--connections'),
};
const rounds = positiveInt(options.rounds, '--rounds');
const log = (line: string) => console.error(line);

// Growth compares equally full pages: the doctors' list asks for as many as the smallest hospital has.
const doctorsPerPage = (hospitals: { hospital: Hospital }[]) =>
  hospitals.length < 2 ? undefined : Math.min(...hospitals.map(({ hospital }) => hospital.fixtures.doctorIds.length));

const startedAt = new Date();
const startLoad = loadavg().map((n) => round(n, 2));
const clinicTimeZone = earlyMorningZone(startedAt);
const today = clinicDateTime(startedAt, clinicTimeZone).date;
buildUiIfMissing();

const logDir = await mkdtemp(join(tmpdir(), 'medora-bench-logs-'));
// Every scale's hospital stays until the end: on PostgreSQL all their servers are loaded in the same rounds.
const databases: BenchDatabase[] = [];
const hospitals: { scale: number; database: BenchDatabase; hospital: Hospital }[] = [];
let failed = false;
try {
  for (const scale of scales) {
    const database = await createBenchDatabase(process.env.DATABASE_URL);
    databases.push(database);
    log(
      `Generating the hospital (${percent(scale)}) in a fresh ${database.kind} database; clinic day ${today} in ${clinicTimeZone}`,
    );
    hospitals.push({
      scale,
      database,
      hospital: await prepareHospital(database, scale, { today, timeZone: clinicTimeZone }, log),
    });
  }
  const kind = nth(hospitals, 0).database.kind;
  const { reads, rest } = kind === 'postgres' ? await measureSideBySide() : await measureOneAtATime();
  const run: BenchRun = {
    startedAt: startedAt.toISOString(),
    database: kind,
    machine: {
      cpus: availableParallelism(),
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      loadAverage: { start: startLoad, end: loadavg().map((n) => round(n, 2)) },
    },
    clinicTimeZone,
    load: { ...load, rounds, together: kind === 'postgres' },
    scales: hospitals.map(({ scale, hospital }, i) => ({
      scale,
      dataset: { counts: hospital.counts, seconds: hospital.seconds },
      reads: nth(reads, i),
    })),
    ...rest,
    roundTrips: nth(hospitals, hospitals.length - 1).hospital.roundTrips,
    ui: measureUiWeight(ROOT),
  };
  const checks = checkTargets(run);
  console.log(renderReport(run, checks));
  const output = resolve(ROOT, options.output);
  await mkdir(dirname(output), { recursive: true });
  await writeFile(output, resultsJson(run, checks));
  log(`Wrote ${output}`);
} catch (error) {
  failed = true;
  log(`bench failed: ${(error as Error)?.stack ?? error}\nserver logs are in ${logDir}`);
  process.exitCode = 1;
} finally {
  for (const database of databases) await database.remove();
  if (!failed) await rm(logDir, { recursive: true, force: true });
}

type Rest = Pick<BenchRun, 'writePairs' | 'writes' | 'loginBurst' | 'peakRssMiB'>;
interface Side {
  scale: number;
  medora: RunningServer;
  twins: RunningServer;
  worker: { stop(): Promise<void> };
  scenarios: Scenario[];
}

/**
 * PostgreSQL: Medora and the twins of every scale run side by side, and each read endpoint is driven in rounds
 * in which every one of those servers is loaded at the same time, each with its own connections. Whatever else
 * the shared machine does then falls on all of them alike, and each ratio — Medora over its twin, a large
 * hospital over a small one — is taken within one round. At the largest scale the writes follow, Medora and
 * its twins loaded at the same time in the same way, then the sign-ins on Medora alone.
 */
async function measureSideBySide(): Promise<{ reads: ReadPair[][]; rest: Rest }> {
  const sides: Side[] = [];
  try {
    for (const { scale, database, hospital } of hospitals) {
      const env = { ...database.env, CLINIC_TZ: clinicTimeZone };
      // Medora and its twin share the database, so the e-mails and the audit rows both write are sent and sealed by
      // a worker of their own, not by Medora's process on the twin's behalf.
      const worker = await startWorker(env, join(logDir, `worker-${scale}.log`));
      const twins = await startTwins(env, join(logDir, `twins-${scale}.log`)).catch(async (error) => {
        await worker.stop();
        throw error;
      });
      const medora = await startMedora(env, join(logDir, `medora-${scale}.log`), [], ['--no-worker']).catch(
        async (error) => {
          await Promise.all([twins.stop(), worker.stop()]);
          throw error;
        },
      );
      sides.push({
        scale,
        medora,
        twins,
        worker,
        scenarios: readScenarios(hospital.fixtures, doctorsPerPage(hospitals)),
      });
    }
    const reads: ReadPair[][] = sides.map(() => []);
    for (const [j, { name }] of nth(sides, 0).scenarios.entries()) {
      const servers = sides.flatMap((side) =>
        [side.medora, side.twins].map((server) => ({ server, scenario: nth(side.scenarios, j) })),
      );
      const together = (seconds: number) =>
        Promise.all(
          servers.map(({ server, scenario }) => runLoad(server.url, scenario, { ...load, seconds }, server.cpuTimeUs)),
        );
      await together(WARMUP_SECONDS);
      const turns: Measurement[][] = [];
      for (let round = 0; round < rounds; round++) turns.push(await together(load.seconds));
      log(`  ${name}`);
      sides.forEach((side, i) => {
        const pair = readPair(
          name,
          turns.map((r) => nth(r, 2 * i)),
          turns.map((r) => nth(r, 2 * i + 1)),
        );
        log(`    at ${percent(side.scale).padEnd(6)} ${describePair(pair)}`);
        nth(reads, i).push(pair);
      });
    }
    const top = nth(sides, sides.length - 1);
    const { fixtures } = nth(hospitals, hospitals.length - 1).hospital;
    log(`Writes and sign-ins at ${percent(top.scale)}`);
    const writePairs = await sequence([...WRITE_KINDS], async (kind) => {
      const turns = writeTurns(kind, fixtures.writes[kind], rounds + 1);
      const both = (r: number) =>
        Promise.all([writeTurn(top.medora, nth(turns.medora, r), r), writeTurn(top.twins, nth(turns.twin, r), r)]);
      const measured: Measurement[][] = [];
      for (let r = 0; r <= rounds; r++) measured.push(await both(r));
      return logWritePair(
        kind,
        measured.slice(1).map((m) => nth(m, 0)),
        measured.slice(1).map((m) => nth(m, 1)),
      );
    });
    const twinRss = Math.max(...sides.map((side) => side.twins.peakRssMiB()));
    return { reads, rest: { writePairs, ...(await measureSignIns(top.medora, fixtures, twinRss)) } };
  } finally {
    await Promise.all(sides.flatMap((side) => [side.medora.stop(), side.twins.stop(), side.worker.stop()]));
  }
}

/**
 * The embedded database belongs to one process, so there the twins take their turns first and Medora after,
 * scale by scale: the ratios are then only as steady as the machine.
 */
async function measureOneAtATime(): Promise<{ reads: ReadPair[][]; rest: Rest }> {
  const reads: ReadPair[][] = [];
  let rest: Rest | undefined;
  for (const [i, { scale, database, hospital }] of hospitals.entries()) {
    const env = { ...database.env, CLINIC_TZ: clinicTimeZone };
    const scenarios = readScenarios(hospital.fixtures, doctorsPerPage(hospitals));
    const twinTurns: Measurement[][] = [];
    const last = i === hospitals.length - 1;
    const writes = last ? WRITE_KINDS.map((kind) => writeTurns(kind, hospital.fixtures.writes[kind], rounds + 1)) : [];
    const twinWriteTurns: Measurement[][] = [];
    const twins = await startTwins(env, join(logDir, `twins-${scale}.log`));
    let twinRss = 0;
    try {
      for (const scenario of scenarios) twinTurns.push(await measureTurns(twins, scenario));
      for (const turns of writes) twinWriteTurns.push(await measureWriteTurns(twins, turns.twin));
    } finally {
      // Read while the twins still run: /proc forgets a process once it has exited.
      twinRss = twins.peakRssMiB();
      await twins.stop();
    }
    const medora = await startMedora(env, join(logDir, `medora-${scale}.log`));
    try {
      log(`  at ${percent(scale)}`);
      reads.push(
        await sequence(scenarios, async (scenario, j) => {
          const pair = readPair(scenario.name, await measureTurns(medora, scenario), nth(twinTurns, j));
          log(`    ${scenario.name.padEnd(44)} ${describePair(pair)}`);
          return pair;
        }),
      );
      if (last) {
        const writePairs = await sequence(writes, async (turns, j) =>
          logWritePair(nth([...WRITE_KINDS], j), await measureWriteTurns(medora, turns.medora), nth(twinWriteTurns, j)),
        );
        rest = { writePairs, ...(await measureSignIns(medora, hospital.fixtures, twinRss)) };
      }
    } finally {
      await medora.stop();
    }
  }
  if (!rest) throw new Error('no scale was measured');
  return { reads, rest };
}

async function sequence<T, R>(items: T[], fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const [i, item] of items.entries()) results.push(await fn(item, i));
  return results;
}

async function measureTurns(server: RunningServer, scenario: Scenario): Promise<Measurement[]> {
  await runLoad(server.url, scenario, { ...load, seconds: WARMUP_SECONDS });
  const turns: Measurement[] = [];
  for (let round = 0; round < rounds; round++) turns.push(await runLoad(server.url, scenario, load, server.cpuTimeUs));
  return turns;
}

function readPair(name: string, medora: Measurement[], twin: Measurement[]): ReadPair {
  return {
    name,
    medora: combine(medora),
    twin: combine(twin),
    roundRatios: medora.map((m, r) => m.requestsPerSecond / nth(twin, r).requestsPerSecond),
    roundP50Ms: { medora: medora.map((m) => m.p50Ms), twin: twin.map((m) => m.p50Ms) },
  };
}

function describePair(pair: ReadPair): string {
  const { medora, twin } = pair;
  const errors = medora.errors + twin.errors;
  return (
    `Medora ${String(medora.requestsPerSecond).padStart(7)} req/s p50 ${medora.p50Ms} ms, twin ${String(twin.requestsPerSecond).padStart(7)} req/s ` +
    `p50 ${twin.p50Ms} ms, ratio ${round(ratioOf(pair), 2)} (rounds ${pair.roundRatios.map((r) => round(r, 2)).join(' ')}), ` +
    `CPU µs/req ${cpuPerRequestUs(medora)} / ${cpuPerRequestUs(twin)}` +
    (errors ? `  errors ${errors}: ${(medora.firstError ?? twin.firstError ?? '').slice(0, 160)}` : '')
  );
}

/** A write's turn `r` on one server: the first, on targets of its own too, only warms the server up. */
function writeTurn(server: RunningServer, scenario: Scenario, r: number): Promise<Measurement> {
  return r === 0
    ? runLoad(server.url, scenario, { ...load, seconds: WARMUP_SECONDS })
    : runLoad(server.url, scenario, load, server.cpuTimeUs);
}

/** A write's turns on one server, one after another; the warm-up's left out. */
async function measureWriteTurns(server: RunningServer, scenarios: Scenario[]): Promise<Measurement[]> {
  return (await sequence(scenarios, (scenario, r) => writeTurn(server, scenario, r))).slice(1);
}

function logWritePair(kind: (typeof WRITE_KINDS)[number], medora: Measurement[], twin: Measurement[]): ReadPair {
  const pair = readPair(WRITES[kind].name, medora, twin);
  log(`  ${pair.name.padEnd(44)} ${describePair(pair)}`);
  return pair;
}

/** Sign-ins on Medora alone: their cost is argon2, not the framework. */
async function measureSignIns(
  medora: RunningServer,
  fixtures: Fixtures,
  twinRss: number,
): Promise<Omit<Rest, 'writePairs'>> {
  const writes = [await measure(medora, loginScenario(fixtures))];
  const loginBurst = await measureLoginBurst(medora, fixtures);
  return { writes, loginBurst, peakRssMiB: { medora: medora.peakRssMiB(), twins: twinRss } };
}

async function measure(server: RunningServer, scenario: Scenario): Promise<Measurement> {
  const m = await runLoad(server.url, scenario, { ...load, seconds: load.seconds * 2 });
  log(
    `  ${scenario.name.padEnd(44)} ${String(m.requestsPerSecond).padStart(8)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms  errors ${m.errors}` +
      (m.firstError ? `  first: ${m.firstError.slice(0, 160)}` : ''),
  );
  return m;
}

/** Half the connections sign in while the other half read: argon2 runs on libuv's pool, so reads keep flowing. */
async function measureLoginBurst(
  server: RunningServer,
  fixtures: Fixtures,
): Promise<{ login: Measurement; read: Measurement }> {
  const half = { connections: Math.max(1, Math.floor(load.connections / 2)), seconds: load.seconds * 2 };
  const [login, read] = await Promise.all([
    runLoad(server.url, { ...loginScenario(fixtures), name: 'POST /api/login (burst)' }, half),
    runLoad(server.url, { ...doctorsScenario(fixtures), name: 'GET /api/doctors during login burst' }, half),
  ]);
  log(`  login burst: ${login.requestsPerSecond} logins/s while GET /api/doctors p99 ${read.p99Ms} ms`);
  return { login, read };
}

/** A fresh clone has no dist/: build the UI first, as `make bench` does. */
function buildUiIfMissing(): void {
  if (existsSync(join(ROOT, 'dist/web-meta.json'))) return;
  log('Building the web UI (dist/web) to weigh it');
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed');
}

function positiveInt(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0, got "${value}"`);
  return n;
}
