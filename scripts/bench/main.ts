/**
 * `npm run bench [-- --scale small] [--duration 10] [--connections 32]`: generates a hospital in a fresh
 * database (DATABASE_URL's server, else embedded), starts the bare baseline and then the real Medora on it,
 * drives each endpoint with autocannon, weighs the built UI, and writes a table and bench/results.json.
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
import { round, runLoad, type LoadOptions, type Measurement, type Scenario } from './load.ts';
import { checkTargets, renderReport, resultsJson, type BenchRun } from './report.ts';
import { hospitalSize, parseScale } from './scale.ts';
import { bookingScenario, doctorsScenario, loginScenario, readScenarios } from './scenarios.ts';
import { startBaseline, startMedora, type RunningServer } from './servers.ts';
import { measureUiWeight } from './ui-weight.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// More than any 10-second booking run gets through on this hardware; the rest of today's slots stay free.
const MAX_BOOKINGS = 20_000;
const WARMUP_SECONDS = 1;

const options = new Command('bench')
  .description('hospital-scale benchmark of the Medora HTTP API against a bare node:http baseline')
  .option('--scale <scale>', '"full" (300 doctors, 100,000 patients, 1,000,000 appointments), "small" (1 %) or a fraction', 'full')
  .option('--duration <seconds>', 'load time per endpoint', '10')
  .option('--connections <n>', 'concurrent connections', '32')
  .option('--output <file>', 'where to write the results', 'bench/results.json')
  .parse()
  .opts<{ scale: string; duration: string; connections: string; output: string }>();

const scale = parseScale(options.scale);
const load: LoadOptions = { seconds: positiveInt(options.duration, '--duration'), connections: positiveInt(options.connections, '--connections') };
const log = (line: string) => console.error(line);

const startedAt = new Date();
const clinicTimeZone = earlyMorningZone(startedAt);
const today = clinicDateTime(startedAt, clinicTimeZone).date;
buildUiIfMissing();

const logDir = await mkdtemp(join(tmpdir(), 'medora-bench-logs-'));
const database = await createBenchDatabase(process.env.DATABASE_URL);
let failed = false;
try {
  log(`Generating the hospital (scale ${scale}) in a fresh ${database.kind} database; clinic day ${today} in ${clinicTimeZone}`);
  const { counts, seconds, fixtures } = await prepare(database);
  const serverEnv = { ...database.env, CLINIC_TZ: clinicTimeZone };

  log('Baseline: bare node:http with the same query');
  const baselineServer = await startBaseline(serverEnv, join(logDir, 'baseline.log'));
  const baseline = await measure(baselineServer, { ...doctorsScenario(fixtures), name: 'baseline GET /api/doctors' });
  const baselineRss = baselineServer.peakRssMiB();
  await baselineServer.stop();

  log('Medora: node bin/medora.js serve');
  const medora = await startMedora(serverEnv, join(logDir, 'medora.log'));
  const endpoints: Measurement[] = [];
  for (const scenario of readScenarios(fixtures)) endpoints.push(await measure(medora, scenario));
  endpoints.push(await measure(medora, bookingScenario(fixtures), { warmup: false }));
  endpoints.push(await measure(medora, loginScenario(fixtures), { warmup: false }));
  const loginBurst = await measureLoginBurst(medora, fixtures);
  const medoraRss = medora.peakRssMiB();
  await medora.stop();

  const run: BenchRun = {
    startedAt: startedAt.toISOString(),
    scale,
    database: database.kind,
    machine: { cpus: availableParallelism(), node: process.versions.node, platform: `${process.platform}-${process.arch}` },
    clinicTimeZone,
    dataset: { counts, seconds },
    load,
    baseline,
    endpoints,
    loginBurst,
    peakRssMiB: { medora: medoraRss, baseline: baselineRss },
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
  await database.remove();
  if (!failed) await rm(logDir, { recursive: true, force: true });
}

/** Schema, hospital and fixtures; the bench's own handle is closed before any server opens the database. */
async function prepare(target: BenchDatabase): Promise<{ counts: Record<string, number>; seconds: number; fixtures: Fixtures }> {
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

async function measure(server: RunningServer, scenario: Scenario, opts: { warmup?: boolean } = {}): Promise<Measurement> {
  if (opts.warmup ?? true) await runLoad(server.url, scenario, { ...load, seconds: WARMUP_SECONDS });
  const m = await runLoad(server.url, scenario, load);
  log(`  ${scenario.name.padEnd(40)} ${String(m.requestsPerSecond).padStart(8)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms  errors ${m.errors}` +
    (m.firstError ? `  first: ${m.firstError.slice(0, 160)}` : ''));
  return m;
}

/** Half the connections sign in while the other half read: argon2 runs on libuv's pool, so reads keep flowing. */
async function measureLoginBurst(server: RunningServer, fixtures: Fixtures): Promise<{ login: Measurement; read: Measurement }> {
  const half = { ...load, connections: Math.max(1, Math.floor(load.connections / 2)) };
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
