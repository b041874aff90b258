/**
 * `node --import tsx scripts/bench/profile.ts [--scale small] [--endpoint /api/doctors | --write record] [--seconds 15] [--together]`:
 * where Medora's CPU time per request goes, next to its bare twin's, on a read or on a write (each write on targets of
 * its own, so a write's load ends when they run out). Both servers run under `node --cpu-prof`; only the
 * samples taken while the load ran count (V8's profile clock is the monotonic clock of process.hrtime). The
 * process's CPU time over the load (/proc), divided by the requests answered, is shared out by the samples.
 * With `--together` both servers are loaded at the same time, as the bench loads them; otherwise one after the other.
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Table from 'cli-table3';
import { Command } from 'commander';
import { clinicDateTime } from '../../src/domain/shared/clock.ts';
import { at } from '../../src/testing/assert.ts';
import { earlyMorningZone } from './clinic-zone.ts';
import { selfTimes, sourceMapLocator, type CpuProfile } from './cpu-profile.ts';
import { createBenchDatabase } from './database.ts';
import { prepareHospital } from './hospital.ts';
import { nth, round, runLoad, type Measurement, type Scenario } from './load.ts';
import { parseScale } from './scale.ts';
import { readScenarios, writeTurns } from './scenarios.ts';
import { WRITE_KINDS, type Fixtures } from './fixtures.ts';
import { startMedora, startTwins, type RunningServer } from './servers.ts';

const options = new Command('profile')
  .description('CPU time per request of Medora and of its bare twin on one read endpoint')
  .option('--scale <scale>', 'share of the full hospital', 'small')
  .option('--endpoint <text>', 'the read scenario whose name contains this', 'GET /api/doctors')
  .option('--write <kind>', `a write instead of a read: ${WRITE_KINDS.join(', ')}`)
  .option('--seconds <n>', 'profiled load time on each server', '15')
  .option('--connections <n>', 'concurrent connections', '32')
  .option('--top <n>', 'functions to list', '30')
  .option('--together', 'load Medora and the twin at the same time, as the bench does')
  .option('--keep <dir>', 'keep the .cpuprofile files in this folder (open them in Chrome DevTools)')
  .parse()
  .opts<{
    scale: string;
    endpoint: string;
    write?: string;
    seconds: string;
    connections: string;
    top: string;
    together?: boolean;
    keep?: string;
  }>();

const log = (line: string) => console.error(line);
const now = new Date();
const zone = earlyMorningZone(now);
const today = clinicDateTime(now, zone).date;
const load = { seconds: Number(options.seconds), connections: Number(options.connections) };
const profileDir = options.keep ?? (await mkdtemp(join(tmpdir(), 'medora-profile-')));
await mkdir(profileDir, { recursive: true });
const database = await createBenchDatabase(process.env.DATABASE_URL);
try {
  const { fixtures } = await prepareHospital(database, parseScale(options.scale), { today, timeZone: zone }, log);
  const [medoraLoads, twinLoads] = loadsOf(fixtures);
  const env = { ...database.env, CLINIC_TZ: zone };
  const startTwin = (args: string[]) => startTwins(env, join(profileDir, 'twin.log'), args);
  const startMedoraProfiled = (args: string[]) => startMedora(env, join(profileDir, 'medora.log'), args);
  const profiles = options.together
    ? await profiledTogether([
        ['twin', startTwin, twinLoads],
        ['medora', startMedoraProfiled, medoraLoads],
      ])
    : [await profiled('twin', startTwin, twinLoads), await profiled('medora', startMedoraProfiled, medoraLoads)];
  const [twin, medora] = [nth(profiles, 0), nth(profiles, 1)];

  // The process's CPU time per request, shared out by the profile's samples.
  const perRequest = (samples: number, of: typeof medora) =>
    round((samples / of.times.busySamples) * of.cpuUsPerRequest, 1);
  const parts = new Table({
    head: ['part (self time)', 'Medora µs/req', 'twin µs/req'],
    style: { head: [], border: [] },
  });
  const names = [...new Set([...medora.times.parts, ...twin.times.parts].map((p) => p.name))];
  const samplesOf = (list: { name: string; samples: number }[], name: string) =>
    list.find((p) => p.name === name)?.samples ?? 0;
  for (const name of names)
    parts.push([
      name,
      perRequest(samplesOf(medora.times.parts, name), medora),
      perRequest(samplesOf(twin.times.parts, name), twin),
    ]);
  parts.push(['CPU in all (/proc, every thread)', round(medora.cpuUsPerRequest, 1), round(twin.cpuUsPerRequest, 1)]);

  // Where Medora spends more than its twin, function by function: the framework's cost per request.
  const top = new Table({
    head: ['function (self time)', 'Medora µs/req', 'twin µs/req', 'Medora more by'],
    style: { head: [], border: [] },
  });
  const functions = [...new Set([...medora.times.functions, ...twin.times.functions].map((f) => f.name))].map(
    (name) => {
      const [m, t] = [
        perRequest(samplesOf(medora.times.functions, name), medora),
        perRequest(samplesOf(twin.times.functions, name), twin),
      ];
      return { name, m, t, more: round(m - t, 1) };
    },
  );
  for (const f of functions.sort((a, b) => b.more - a.more).slice(0, Number(options.top)))
    top.push([f.name.slice(0, 100), f.m, f.t, f.more]);
  console.log(
    `${medoraLoads.measured.name} at ${options.scale}, ${load.connections} connections × ${load.seconds} s on each server`,
  );
  console.log(`Medora ${medora.load.requestsPerSecond} req/s, twin ${twin.load.requestsPerSecond} req/s`);
  console.log(parts.toString());
  console.log(top.toString());
  if (options.keep) log(`profiles are in ${profileDir}`);
} finally {
  await database.remove();
  if (!options.keep) await rm(profileDir, { recursive: true, force: true });
}

type Start = (nodeArgs: string[]) => Promise<RunningServer>;
/** What warms a server up, and the load that is profiled after it. */
interface Loads {
  warm: Scenario;
  measured: Scenario;
}

/** Medora's loads and its twin's: a read's requests are the same on both, a write's targets are dealt out apart. */
function loadsOf(fixtures: Fixtures): [Loads, Loads] {
  if (options.write) {
    const kind = WRITE_KINDS.find((k) => k === options.write);
    if (!kind) throw new Error(`--write is one of ${WRITE_KINDS.join(', ')}`);
    const { medora, twin } = writeTurns(kind, fixtures.writes[kind], 2);
    return [
      { warm: nth(medora, 0), measured: nth(medora, 1) },
      { warm: nth(twin, 0), measured: nth(twin, 1) },
    ];
  }
  const scenario = readScenarios(fixtures).find((s) => s.name.includes(options.endpoint));
  if (!scenario) throw new Error(`no read scenario is named like "${options.endpoint}"`);
  return [
    { warm: scenario, measured: scenario },
    { warm: scenario, measured: scenario },
  ];
}

/** Starts a server under --cpu-prof, warms it, loads it, stops it and reads the profile of the loaded window. */
async function profiled(name: string, start: Start, loads: Loads) {
  return nth(await profiledTogether([[name, start, loads]]), 0);
}

/** Like `profiled`, for several servers loaded at the same time. */
async function profiledTogether(starts: [string, Start, Loads][]) {
  const servers: { name: string; dir: string; server: RunningServer; loads: Loads }[] = [];
  let measured: Measurement[];
  let window: [number, number];
  let cpuUs: number[];
  try {
    for (const [name, start, loads] of starts) {
      const dir = join(profileDir, name);
      await rm(dir, { recursive: true, force: true });
      servers.push({
        name,
        dir,
        loads,
        server: await start(['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval', '250']),
      });
    }
    await Promise.all(servers.map(({ server, loads }) => runLoad(server.url, loads.warm, { ...load, seconds: 3 })));
    const [from, cpuFrom] = [monotonicUs(), servers.map(({ server }) => server.cpuTimeUs())];
    measured = await Promise.all(servers.map(({ server, loads }) => runLoad(server.url, loads.measured, load)));
    [window, cpuUs] = [
      [from, monotonicUs()],
      servers.map(({ server }, i) => server.cpuTimeUs() - at(cpuFrom, i, 'CPU time')),
    ];
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
  }
  return Promise.all(
    servers.map(async ({ name, dir }, i) => {
      // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: thread 0 is the main thread (tsx's loader has one of its own).
      const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile') && f.split('.')[4] === '0');
      if (!file) throw new Error(`${name} wrote no CPU profile into ${dir}`);
      const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
      const m = at(measured, i, 'measurement');
      log(`  ${name}: ${m.requestsPerSecond} req/s, p50 ${m.p50Ms} ms`);
      return {
        load: m,
        cpuUsPerRequest: at(cpuUs, i, 'CPU time') / m.requests,
        times: selfTimes(within(profile, window), sourceMapLocator()),
      };
    }),
  );
}

function monotonicUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** The profile's samples taken inside `[from, to]` (µs of the monotonic clock). */
function within(profile: CpuProfile, [from, to]: [number, number]): CpuProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [0];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const next = profile.timeDeltas[i + 1];
    if (at >= from && at <= to && next !== undefined) {
      samples.push(id);
      timeDeltas.push(next);
    }
  });
  return { ...profile, samples, timeDeltas };
}
