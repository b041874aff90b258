/**
 * `DATABASE_URL=… node --import tsx scripts/bench/clinical.ts [--scale 0.01,1] [--rounds 6] [--duration 3]
 * [--connections 16] [--output bench/results.json]`: the clinical reads at each scale and the clinical writes at the
 * largest. Generates each hospital with its clinical part (dataset.ts, clinical-dataset.ts) in a fresh database,
 * starts `medora serve` (its worker apart, as main.ts does) and the bare twins on each, counts how full each read's
 * answer is at each scale, then drives each read in rounds in which every server of every scale is loaded at the
 * same time, and the lab result entry and the vital-sign set on Medora and its twin at the largest scale. Writes the
 * `clinical_reads` section of bench/results.json (the other sections kept) and prints the README's tables.
 */
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { migrate } from '../../src/db/migrate.ts';
import { clinicDateTime } from '../../src/domain/shared/clock.ts';
import { argon2Hasher } from '../../src/security.ts';
import { present } from '../../src/testing/assert.ts';
import { BIG_PATIENT_ID } from './clinical-dataset.ts';
import { loadClinicalFixtures, type ClinicalFixtures } from './clinical-fixtures.ts';
import {
  clinicalMisses,
  clinicalRead,
  clinicalTables,
  clinicalWrite,
  mergeClinical,
  type Fill,
} from './clinical-report.ts';
import { clinicalReadScenarios, clinicalWriteScenario } from './clinical-scenarios.ts';
import { earlyMorningZone } from './clinic-zone.ts';
import { createBenchDatabase, type BenchDatabase } from './database.ts';
import { BENCH_PASSWORD, generateHospital } from './dataset.ts';
import { nth, round, runLoad, type LoadOptions, type Measurement, type Scenario } from './load.ts';
import { benchMachine, percent, TARGETS } from './report.ts';
import { parseScales, hospitalSize } from './scale.ts';
import { startMedora, startTwins, startWorker, type RunningServer } from './servers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX_WRITES = 40_000;
const FILL_SAMPLES = 10;

const options = new Command('bench-clinical')
  .option('--scale <scales>', 'comma-separated shares of the full hospital', '0.01,1')
  .option('--rounds <n>', 'rounds per read, every server loaded in each', '6')
  .option('--duration <seconds>', 'load time of one round', '3')
  .option('--connections <n>', 'concurrent connections per server', '16')
  .option('--output <file>', 'the results file whose clinical_reads section is written', 'bench/results.json')
  .parse()
  .opts<{ scale: string; rounds: string; duration: string; connections: string; output: string }>();
const scales = parseScales(options.scale);
const rounds = Number(options.rounds);
const load: LoadOptions = { seconds: Number(options.duration), connections: Number(options.connections) };
const log = (line: string) => console.error(line);

if (!existsSync(join(ROOT, 'dist/cli/medora.js'))) throw new Error('run `make build` first: the bench starts dist/');
const startedAt = new Date();
const startLoad = loadavg().map((n) => round(n, 2));
const timeZone = earlyMorningZone(startedAt);
const today = clinicDateTime(startedAt, timeZone).date;
const logDir = await mkdtemp(join(tmpdir(), 'medora-bench-clinical-'));

interface Side {
  scale: number;
  database: BenchDatabase;
  seconds: number;
  counts: Record<string, number>;
  fixtures: ClinicalFixtures;
  servers: { medora: RunningServer; twins: RunningServer; worker: { stop(): Promise<void> } } | undefined;
}
const sides: Side[] = [];
try {
  const passwordHash = await argon2Hasher.hash(BENCH_PASSWORD);
  for (const scale of scales) {
    const database = await createBenchDatabase(process.env.DATABASE_URL);
    log(`Generating the hospital (${percent(scale)}) with its wards, lab and medicines; clinic day ${today}`);
    const db = await database.open();
    try {
      await migrate(db);
      const started = performance.now();
      const counts = await generateHospital(db, { size: hospitalSize(scale), today, passwordHash, progress: log });
      const seconds = round((performance.now() - started) / 1000, 1);
      log(`  ${seconds} s; ${counts.observations} observations`);
      const fixtures = await loadClinicalFixtures(db, BIG_PATIENT_ID, MAX_WRITES);
      sides.push({ scale, database, seconds, counts, fixtures, servers: undefined });
    } finally {
      await db.close();
    }
  }
  for (const side of sides) {
    const env = { ...side.database.env, CLINIC_TZ: timeZone };
    const worker = await startWorker(env, join(logDir, `worker-${side.scale}.log`));
    const twins = await startTwins(env, join(logDir, `twins-${side.scale}.log`));
    const medora = await startMedora(env, join(logDir, `medora-${side.scale}.log`), [], ['--no-worker']);
    side.servers = { medora, twins, worker };
  }
  const running = sides.map((side) => ({ side, servers: present(side.servers, 'the servers') }));
  const scenarios = running.map(({ side }) => clinicalReadScenarios(side.fixtures, startedAt));

  const reads = [];
  for (const [j, { name }] of nth(scenarios, 0).entries()) {
    const fills: Fill[] = [];
    for (const [i, { servers }] of running.entries())
      fills.push(await fillOf(servers.medora, nth(nth(scenarios, i), j)));
    const loaded = running.flatMap(({ servers }, i) =>
      [servers.medora, servers.twins].map((server) => ({ server, scenario: nth(nth(scenarios, i), j) })),
    );
    const together = (seconds: number, cpu: boolean) =>
      Promise.all(
        loaded.map(({ server, scenario }) =>
          runLoad(server.url, scenario, { ...load, seconds }, cpu ? server.cpuTimeUs : undefined),
        ),
      );
    await together(1, false);
    const turns: Measurement[][] = [];
    for (let r = 0; r < rounds; r++) turns.push(await together(load.seconds, true));
    const read = clinicalRead(
      name,
      running.map(({ side }, i) => ({
        scale: side.scale,
        fill: nth(fills, i),
        medora: turns.map((t) => nth(t, 2 * i)),
        twin: turns.map((t) => nth(t, 2 * i + 1)),
      })),
    );
    log(
      `  ${name}: items ${fills.map((f) => f.items).join(' / ')}; ` +
        read.at.map((a) => `${percent(a.scale)} p50/p95 ${a.medora.p50_ms}/${a.medora.p95_ms} ms`).join(', ') +
        `; growth ${read.growth.p50} (twin ${read.growth.twin_p50}); errors ${read.at.map((a) => a.medora.errors + a.twin.errors).join('/')}`,
    );
    reads.push(read);
  }

  const top = nth(running, running.length - 1);
  const writes = [];
  for (const [name, path, requests] of [
    ['POST /api/lab/items/{id}/result', '/api/lab/items/{id}/result', top.side.fixtures.writes.labResult],
    ['POST /api/vitals/sets', '/api/vitals/sets', top.side.fixtures.writes.vitalSet],
  ] as const) {
    // Each turn of each server its own targets: rounds + a warm-up, on Medora and on the twin.
    const share = Math.floor(requests.length / (2 * (rounds + 1)));
    const turnOf = (k: number): Scenario =>
      clinicalWriteScenario(name, path, requests.slice(k * share, (k + 1) * share));
    const measured: Measurement[][] = [];
    for (let r = 0; r <= rounds; r++) {
      const seconds = r === 0 ? 1 : load.seconds;
      measured.push(
        await Promise.all([
          runLoad(top.servers.medora.url, turnOf(2 * r), { ...load, seconds }, top.servers.medora.cpuTimeUs),
          runLoad(top.servers.twins.url, turnOf(2 * r + 1), { ...load, seconds }, top.servers.twins.cpuTimeUs),
        ]),
      );
    }
    const write = clinicalWrite(
      name,
      measured.slice(1).map((m) => nth(m, 0)),
      measured.slice(1).map((m) => nth(m, 1)),
    );
    log(
      `  ${name}: ${write.ratio} × its twin (${write.medora.requests_per_second} / ${write.twin.requests_per_second} a second), errors ${write.medora.errors}/${write.twin.errors}`,
    );
    writes.push(write);
  }

  const section = {
    started_at: startedAt.toISOString(),
    database: nth(sides, 0).database.kind,
    machine: { ...benchMachine(), load_average: { start: startLoad, end: loadavg().map((n) => round(n, 2)) } },
    clinic_time_zone: timeZone,
    load: { ...load, rounds, together: true },
    targets: { p50_growth: TARGETS.p50Growth, write_twin_ratio: TARGETS.writeTwinRatio },
    datasets: sides.map((s) => ({ scale: s.scale, seconds: s.seconds, counts: s.counts })),
    reads,
    writes,
    missed: clinicalMisses(reads, writes),
  };
  const output = resolve(ROOT, options.output);
  await writeFile(output, mergeClinical(existsSync(output) ? await readFile(output, 'utf8') : undefined, section));
  console.log(clinicalTables(reads, writes).join('\n'));
  log(`Wrote the clinical_reads section of ${output}; missed: ${section.missed.join('; ') || 'none'}`);
  await rm(logDir, { recursive: true, force: true });
} catch (error) {
  log(`clinical bench failed: ${(error as Error)?.stack ?? error}\nserver logs are in ${logDir}`);
  process.exitCode = 1;
} finally {
  for (const side of sides) {
    const servers = side.servers;
    if (servers) await Promise.all([servers.medora.stop(), servers.twins.stop(), servers.worker.stop()]);
    await side.database.remove();
  }
}

/** How full the scenario's answers are: the mean items and bytes of its first FILL_SAMPLES requests to Medora. */
async function fillOf(
  server: RunningServer,
  scenario: ReturnType<typeof clinicalReadScenarios>[number],
): Promise<Fill> {
  const samples: Fill[] = [];
  for (let i = 0; i < FILL_SAMPLES; i++) {
    const request = scenario.next();
    const response = await fetch(`${server.url}${request.path}`, {
      headers: request.headers as Record<string, string>,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${scenario.name}: ${response.status} ${text.slice(0, 300)}`);
    samples.push({ items: scenario.itemsOf(JSON.parse(text)), bytes: Buffer.byteLength(text) });
  }
  const mean = (pick: (f: Fill) => number) => round(samples.reduce((sum, f) => sum + pick(f), 0) / samples.length, 1);
  return { items: mean((f) => f.items), bytes: mean((f) => f.bytes) };
}
