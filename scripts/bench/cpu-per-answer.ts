/**
 * `DATABASE_URL=postgres://… node --import tsx scripts/bench/cpu-per-answer.ts [--scale 0.1] [--rounds 6]
 * [--duration 3] [--connections 32] [--only text] [--output bench/results.json]`: every read judged by the CPU an
 * answer costs. On a generated hospital, Medora (`medora serve --no-worker`, a `medora worker` beside it) and its
 * bare twin (twins.ts) each answer one read ALONE in turn — round by round, Medora first in one round and the twin
 * first in the next — and each turn counts the CPU that the server's process and the PostgreSQL backends serving its
 * pool (found in pg_stat_activity by the `medora (pid N)` application name every pool connection carries) spent,
 * from /proc, per answer. The load generator (this process) is not counted. Each read's figure is the median round;
 * the target is Medora ≤ 1.10 × its twin. Medora's process minus the twin's, per answer, is the framework's own cost
 * (the two run the same statements and build the same JSON). CPU per answer is the measure because it stays put
 * when a shared machine's neighbours take the cores; the load averages are recorded all the same.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { openPostgres } from '../../src/db/postgres.ts';
import { clinicDateTime } from '../../src/domain/shared/clock.ts';
import { present } from '../../src/testing/assert.ts';
import { earlyMorningZone } from './clinic-zone.ts';
import { backendsCpuUs, cpuRow, cpuUsOfStat, roundOrder, type CpuRow, type CpuTurn } from './cpu-accounting.ts';
import { createBenchDatabase } from './database.ts';
import { prepareHospital } from './hospital.ts';
import { round, runLoad, type Scenario } from './load.ts';
import { mergeResults } from './merge-results.ts';
import { percent } from './report.ts';
import { readScenarios } from './scenarios.ts';
import { startMedora, startTwins, startWorker, type RunningServer } from './servers.ts';

export const TARGET_CPU_RATIO = 1.1;

const opts = new Command('cpu-per-answer')
  .option('--scale <fraction>', 'size of the generated hospital (1 = 100,000 patients)', '0.1')
  .option('--rounds <n>', 'rounds per read, each loading Medora alone and its twin alone', '6')
  .option('--duration <seconds>', 'load time of one server in one round', '3')
  .option('--connections <n>', 'concurrent connections', '32')
  .option('--only <text>', 'only the reads whose name contains this')
  .option('--output <file>', 'set the cpu_per_answer section of this results file')
  .parse()
  .opts<{ scale: string; rounds: string; duration: string; connections: string; only?: string; output?: string }>();
const scale = Number(opts.scale);
const rounds = Number(opts.rounds);
const load = { seconds: Number(opts.duration), connections: Number(opts.connections) };
if (!(rounds >= 6)) throw new Error('--rounds must be 6 or more');
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) throw new Error('set DATABASE_URL to a PostgreSQL server: the backends are read from its /proc');
const log = (line: string) => console.error(line);
// The bench's own connection to pg_stat_activity, apart from the servers' pools.
const activity = await openPostgres(serverUrl, { max: 1 });

/** PostgreSQL backends of one server's pool, by the application name its connections carry: pid → CPU µs so far. */
async function backendsOf(server: RunningServer): Promise<Map<number, number>> {
  const rows = await activity.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [
    `medora (pid ${server.pid})`,
  ]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, cpuUsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8')));
    } catch {
      // The backend ended between the query and the read: its time is lost, as backendsCpuUs counts.
    }
  }
  return cpu;
}

/** One server loaded alone with one read: its answers and the CPU its process and its backends spent. */
async function turn(server: RunningServer, scenario: Scenario): Promise<CpuTurn> {
  const backendsBefore = await backendsOf(server);
  const serverBefore = server.cpuTimeUs();
  const measured = await runLoad(server.url, scenario, load);
  const serverUs = server.cpuTimeUs() - serverBefore;
  const database = backendsCpuUs(backendsBefore, await backendsOf(server));
  return { answers: measured.requests, errors: measured.errors, serverUs, databaseUs: database.us };
}

const startedAt = new Date();
const loadStart = loadavg().map((n) => round(n, 2));
const clinicTimeZone = earlyMorningZone(startedAt);
const today = clinicDateTime(startedAt, clinicTimeZone).date;
const database = await createBenchDatabase(serverUrl);
const logDir = await mkdtemp(join(tmpdir(), 'medora-cpu-'));
const stops: (() => Promise<void>)[] = [];
let failed = false;
try {
  log(`Generating the hospital (${percent(scale)}); clinic day ${today} in ${clinicTimeZone}`);
  const hospital = await prepareHospital(database, scale, { today, timeZone: clinicTimeZone }, log);
  const env = { ...database.env, CLINIC_TZ: clinicTimeZone };
  const worker = await startWorker(env, join(logDir, 'worker.log'));
  stops.push(worker.stop);
  const twin = await startTwins(env, join(logDir, 'twins.log'));
  stops.push(twin.stop);
  const medora = await startMedora(env, join(logDir, 'medora.log'), [], ['--no-worker']);
  stops.push(medora.stop);
  const servers = { medora, twin };
  const rows: CpuRow[] = [];
  for (const scenario of readScenarios(hospital.fixtures).filter((s) => !opts.only || s.name.includes(opts.only))) {
    for (const server of [medora, twin]) await runLoad(server.url, scenario, { ...load, seconds: 1 });
    const turns: { medora: CpuTurn; twin: CpuTurn }[] = [];
    for (let r = 0; r < rounds; r++) {
      const measured: Partial<Record<'medora' | 'twin', CpuTurn>> = {};
      for (const which of roundOrder(r)) measured[which] = await turn(servers[which], scenario);
      turns.push({ medora: present(measured.medora, 'medora'), twin: present(measured.twin, 'twin') });
    }
    const row = cpuRow(scenario.name, turns);
    rows.push(row);
    log(
      `  ${row.name.padEnd(58)} Medora ${row.medora.total.toFixed(0)} µs/answer (process ${row.medora.server.toFixed(0)}, ` +
        `PostgreSQL ${row.medora.database.toFixed(0)}), twin ${row.twin.total.toFixed(0)} (${row.twin.server.toFixed(0)}, ` +
        `${row.twin.database.toFixed(0)}): ${row.ratio.toFixed(2)} × (rounds ${row.roundRatios.map((x) => x.toFixed(2)).join(' ')}), ` +
        `framework ${row.frameworkUs.toFixed(0)} µs${row.errors.medora + row.errors.twin ? `, errors ${row.errors.medora} / ${row.errors.twin}` : ''}`,
    );
  }
  const within = rows.filter((row) => row.ratio <= TARGET_CPU_RATIO).length;
  log(`${within} of ${rows.length} reads within ${TARGET_CPU_RATIO} × their twin's CPU per answer`);
  const result = {
    started_at: startedAt.toISOString(),
    how:
      'each server loaded alone, in alternating rounds (order reversed each round); CPU of the server process and of ' +
      'the PostgreSQL backends of its pool, from /proc, per answer; the load generator excluded; medians of the rounds',
    scale,
    dataset: hospital.counts,
    load: { ...load, rounds },
    target_ratio: TARGET_CPU_RATIO,
    machine: { load_average: { start: loadStart, end: loadavg().map((n) => round(n, 2)) } },
    rows: rows.map((row) => ({
      name: row.name,
      medora_us: roundAll(row.medora),
      twin_us: roundAll(row.twin),
      ratio: round(row.ratio, 3),
      round_ratios: row.roundRatios.map((x) => round(x, 3)),
      framework_us: round(row.frameworkUs, 1),
      answers: row.answers,
      errors: row.errors,
      met: row.ratio <= TARGET_CPU_RATIO,
    })),
  };
  if (opts.output) {
    await mergeResults(resolve(opts.output), 'cpu_per_answer', result);
    log(`figures written to ${opts.output} (cpu_per_answer)`);
  }
} catch (error) {
  failed = true;
  log(`cpu-per-answer failed: ${(error as Error)?.stack ?? error}\nserver logs are in ${logDir}`);
  process.exitCode = 1;
} finally {
  for (const stop of stops.reverse()) await stop();
  await activity.close();
  await database.remove();
  if (!failed) await rm(logDir, { recursive: true, force: true });
}

function roundAll(per: { server: number; database: number; total: number }) {
  return { process: round(per.server, 1), postgres: round(per.database, 1), total: round(per.total, 1) };
}
