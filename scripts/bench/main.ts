/**
 * `npm run bench [-- --scale small | --growth] [--duration 5] [--rounds 4] [--connections 32]`: for each scale,
 * generates a hospital in a fresh database (DATABASE_URL's server, else embedded), starts Medora and its bare
 * twins (twins.ts) on it and drives every read endpoint on both, turn and turn about, so each ratio compares two
 * servers under the same load from the rest of the machine. At the largest scale it then drives the writes and
 * sign-ins, weighs the built UI, and writes the tables and bench/results.json.
 * Every load targets 127.0.0.1 and is bounded in time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { migrate } from '../../src/db/migrate.ts';
import { clinicDateTime } from '../../src/domain/shared/clock.ts';
import { argon2Hasher } from '../../src/security.ts';
import { earlyMorningZone } from './clinic-zone.ts';
import { createBenchDatabase, type BenchDatabase } from './database.ts';
import { BENCH_PASSWORD, generateHospital } from './dataset.ts';
import { loadFixtures, type Fixtures } from './fixtures.ts';
import { combine, round, runLoad, type LoadOptions, type Measurement, type Scenario } from './load.ts';
import { checkTargets, percent, renderReport, resultsJson, type BenchRun, type ReadPair, type ScaleRun } from './report.ts';
import { GROWTH_SCALES, hospitalSize, parseScales } from './scale.ts';
import { bookingScenario, doctorsScenario, loginScenario, readScenarios } from './scenarios.ts';
import { startMedora, startTwins, type RunningServer } from './servers.ts';
import { measureUiWeight } from './ui-weight.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// More than any 10-second booking run gets through on this hardware; the rest of today's slots stay free.
const MAX_BOOKINGS = 20_000;
const WARMUP_SECONDS = 1;

const options = new Command('bench')
  .description('hospital-scale benchmark of the Medora HTTP API, each read endpoint against a bare node:http twin')
  .option('--scale <scales>', '"full" (300 doctors, 100,000 patients, 1,000,000 appointments), "small" (1 %), a fraction, or a comma-separated series', 'full')
  .option('--growth', `the reads at ${GROWTH_SCALES.map(percent).join(', ')} of the hospital, to see how latency grows (same as --scale ${GROWTH_SCALES.join(',')})`)
  .option('--duration <seconds>', 'load time of one turn on one server', '5')
  .option('--rounds <n>', 'turns per read endpoint on each server, alternating which goes first', '4')
  .option('--connections <n>', 'concurrent connections', '32')
  .option('--output <file>', 'where to write the results', 'bench/results.json')
  .parse()
  .opts<{ scale: string; growth?: boolean; duration: string; rounds: string; connections: string; output: string }>();

const scales = options.growth ? GROWTH_SCALES : parseScales(options.scale);
const load: LoadOptions = { seconds: positiveInt(options.duration, '--duration'), connections: positiveInt(options.connections, '--connections') };
const rounds = positiveInt(options.rounds, '--rounds');
const log = (line: string) => console.error(line);

const startedAt = new Date();
const clinicTimeZone = earlyMorningZone(startedAt);
const today = clinicDateTime(startedAt, clinicTimeZone).date;
buildUiIfMissing();

const logDir = await mkdtemp(join(tmpdir(), 'medora-bench-logs-'));
let failed = false;
try {
  const done: ScaleRun[] = [];
  let top: Omit<BenchRun, 'startedAt' | 'database' | 'machine' | 'clinicTimeZone' | 'load' | 'scales' | 'ui'> | undefined;
  let kind: BenchDatabase['kind'] = 'pglite';
  for (const [i, scale] of scales.entries()) {
    const last = i === scales.length - 1;
    const database = await createBenchDatabase(process.env.DATABASE_URL);
    kind = database.kind;
    try {
      log(`Generating the hospital (${percent(scale)}) in a fresh ${database.kind} database; clinic day ${today} in ${clinicTimeZone}`);
      const { counts, seconds, fixtures } = await prepare(database, scale);
      const env = { ...database.env, CLINIC_TZ: clinicTimeZone };
      const logs = (name: string) => join(logDir, `${name}-${scale}.log`);
      const result = await measureScale(database, env, fixtures, logs, last);
      done.push({ scale, dataset: { counts, seconds }, reads: result.reads });
      if (result.rest) top = result.rest;
    } finally {
      await database.remove();
    }
  }

  const run: BenchRun = {
    startedAt: startedAt.toISOString(),
    database: kind,
    machine: { cpus: availableParallelism(), node: process.versions.node, platform: `${process.platform}-${process.arch}` },
    clinicTimeZone,
    load: { ...load, rounds },
    scales: done,
    ...top!,
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
  if (!failed) await rm(logDir, { recursive: true, force: true });
}

/** Schema, hospital and fixtures; the bench's own handle is closed before any server opens the database. */
async function prepare(target: BenchDatabase, scale: number): Promise<{ counts: Record<string, number>; seconds: number; fixtures: Fixtures }> {
  const db = await target.open();
  try {
    await migrate(db);
    const started = performance.now();
    const counts = await generateHospital(db, {
      size: hospitalSize(scale),
      today,
      passwordHash: await argon2Hasher.hash(BENCH_PASSWORD),
      progress: log,
    });
    const seconds = round((performance.now() - started) / 1000, 1);
    const fixtures = await loadFixtures(db, today, MAX_BOOKINGS);
    log(`  ${fixtures.bookings.length} free slots of today ready to book; ${seconds} s in all`);
    return { counts, seconds, fixtures };
  } finally {
    await db.close();
  }
}

type Rest = Pick<BenchRun, 'writes' | 'loginBurst' | 'peakRssMiB'>;

/**
 * The reads on Medora and on the twins and, at the last scale, the writes on Medora. On PostgreSQL both servers
 * run side by side and each read alternates between them, so a neighbour's burst on the machine falls on both;
 * the embedded database belongs to one process, so there the twins go first and Medora after.
 */
async function measureScale(
  database: BenchDatabase,
  env: Record<string, string>,
  fixtures: Fixtures,
  logs: (name: string) => string,
  last: boolean,
): Promise<{ reads: ReadPair[]; rest?: Rest }> {
  const scenarios = readScenarios(fixtures);
  if (!database.exclusive) {
    const twins = await startTwins(env, logs('twins'));
    const medora = await startMedora(env, logs('medora')).catch(async (error) => {
      await twins.stop();
      throw error;
    });
    try {
      const reads: ReadPair[] = [];
      for (const scenario of scenarios) reads.push(await measurePair(scenario, medora, twins));
      return { reads, rest: last ? await measureWrites(medora, fixtures, twins.peakRssMiB()) : undefined };
    } finally {
      await Promise.all([medora.stop(), twins.stop()]);
    }
  }
  const twinRuns = new Map<string, Measurement>();
  const twins = await startTwins(env, logs('twins'));
  try {
    for (const scenario of scenarios) twinRuns.set(scenario.name, await measureTurns(twins, scenario));
  } finally {
    await twins.stop();
  }
  const twinRss = twins.peakRssMiB();
  const medora = await startMedora(env, logs('medora'));
  try {
    const reads: ReadPair[] = [];
    for (const scenario of scenarios) {
      const pair = { name: scenario.name, medora: await measureTurns(medora, scenario), twin: twinRuns.get(scenario.name)! };
      logPair(pair);
      reads.push(pair);
    }
    return { reads, rest: last ? await measureWrites(medora, fixtures, twinRss) : undefined };
  } finally {
    await medora.stop();
  }
}

/** `rounds` turns on each server, the first going first in odd rounds and second in even ones. */
async function measurePair(scenario: Scenario, medora: RunningServer, twins: RunningServer): Promise<ReadPair> {
  await runLoad(twins.url, scenario, { ...load, seconds: WARMUP_SECONDS });
  await runLoad(medora.url, scenario, { ...load, seconds: WARMUP_SECONDS });
  const turns = { medora: [] as Measurement[], twin: [] as Measurement[] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['twin', 'medora'] as const) : (['medora', 'twin'] as const);
    for (const who of order) turns[who].push(await runLoad((who === 'twin' ? twins : medora).url, scenario, load));
  }
  const pair = { name: scenario.name, medora: combine(turns.medora), twin: combine(turns.twin) };
  logPair(pair);
  return pair;
}

async function measureTurns(server: RunningServer, scenario: Scenario): Promise<Measurement> {
  await runLoad(server.url, scenario, { ...load, seconds: WARMUP_SECONDS });
  const turns: Measurement[] = [];
  for (let round = 0; round < rounds; round++) turns.push(await runLoad(server.url, scenario, load));
  return combine(turns);
}

function logPair({ name, medora, twin }: ReadPair): void {
  const errors = medora.errors + twin.errors;
  log(`  ${name.padEnd(44)} Medora ${String(medora.requestsPerSecond).padStart(7)} req/s p50 ${medora.p50Ms} ms` +
    `  twin ${String(twin.requestsPerSecond).padStart(7)} req/s p50 ${twin.p50Ms} ms  ratio ${round(medora.requestsPerSecond / twin.requestsPerSecond, 2)}` +
    (errors ? `  errors ${errors}: ${(medora.firstError ?? twin.firstError ?? '').slice(0, 160)}` : ''));
}

/** Bookings and sign-ins on Medora alone: their cost is argon2 and the transaction, not the framework. */
async function measureWrites(medora: RunningServer, fixtures: Fixtures, twinRss: number): Promise<Rest> {
  const writes = [await measure(medora, bookingScenario(fixtures)), await measure(medora, loginScenario(fixtures))];
  const loginBurst = await measureLoginBurst(medora, fixtures);
  return { writes, loginBurst, peakRssMiB: { medora: medora.peakRssMiB(), twins: twinRss } };
}

async function measure(server: RunningServer, scenario: Scenario): Promise<Measurement> {
  const m = await runLoad(server.url, scenario, { ...load, seconds: load.seconds * 2 });
  log(`  ${scenario.name.padEnd(44)} ${String(m.requestsPerSecond).padStart(8)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms  errors ${m.errors}` +
    (m.firstError ? `  first: ${m.firstError.slice(0, 160)}` : ''));
  return m;
}

/** Half the connections sign in while the other half read: argon2 runs on libuv's pool, so reads keep flowing. */
async function measureLoginBurst(server: RunningServer, fixtures: Fixtures): Promise<{ login: Measurement; read: Measurement }> {
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
