import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { present } from '../../src/testing/assert.ts';
import { cpuUsOfStat } from './cpu-accounting.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningServer {
  name: string;
  url: string;
  pid: number;
  /** Peak resident memory of the server process so far (VmHWM), in MiB; throws, naming its log, once it has exited. */
  peakRssMiB(): number;
  /** CPU time the server process has used so far, in microseconds. */
  cpuTimeUs(): number;
  stop(): Promise<void>;
}

/**
 * One malloc arena, as the README tells operators to run `medora serve` on glibc: password hashing takes 19 MiB
 * (argon2id) on whichever of libuv's four threads is free, and each thread's own arena would keep its block.
 */
const SERVE_MALLOC = { MALLOC_ARENA_MAX: '1' };

/**
 * The real Medora, as users start it: `node bin/medora.js serve` with SERVE_MALLOC, the demo clinic switched off.
 * `serveArgs` `--no-worker` leaves the e-mails and the audit sealing to a `startWorker` process, as a site with
 * several instances runs them.
 */
export function startMedora(
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[] = [],
  serveArgs: string[] = [],
): Promise<RunningServer> {
  return startServer(
    'medora',
    [...nodeArgs, 'bin/medora.js', 'serve', ...serveArgs],
    { ...SERVE_MALLOC, ...env, SEED_DEMO: '0' },
    logFile,
  );
}

/** `medora worker` on the database in `env`, once it has said it started (bounded); `stop` ends it. */
export async function startWorker(env: Record<string, string>, logFile: string): Promise<{ stop(): Promise<void> }> {
  const { child, exited } = spawnLogged(['bin/medora.js', 'worker'], env, logFile);
  let died = false;
  void exited.then(() => (died = true));
  const deadline = Date.now() + 60_000;
  while (!/SMTP_URL|outbox/.test(readFileSync(logFile, 'utf8'))) {
    if (died || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the worker did not start${died ? ' (it exited)' : ''}; see ${logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { stop: () => stopChild(child, exited) };
}

/** The bare node:http twins of the read endpoints (twins.ts): Medora's statements and JSON, no framework. */
export function startTwins(
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[] = [],
): Promise<RunningServer> {
  return startServer('twins', [...nodeArgs, '--import', 'tsx', 'scripts/bench/twin-server.ts'], env, logFile);
}

async function startServer(
  name: string,
  args: string[],
  env: Record<string, string>,
  logFile: string,
): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child, exited } = spawnLogged(args, { ...env, PORT: String(port), HOST: '127.0.0.1' }, logFile);
  try {
    await waitUntilHealthy(url, exited, logFile);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const pid = present(child.pid, `${name}'s pid`);
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  return {
    name,
    url,
    pid,
    peakRssMiB: () => {
      if (exitCode !== undefined)
        throw new Error(`${name} at ${url} exited (code ${exitCode}) during the run; see ${logFile}`);
      return peakRssMiB(pid);
    },
    cpuTimeUs: () => cpuTimeUs(pid),
    stop: () => stopChild(child, exited),
  };
}

/** `node args` from the project's folder on `env`; what it prints goes to `logFile`, cheap to write and there when a run needs explaining. */
function spawnLogged(
  args: string[],
  env: Record<string, string>,
  logFile: string,
): { child: ChildProcess; exited: Promise<number | null> } {
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...databaseFreeEnv(), ...env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  return { child, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** The parent's environment minus its own database choice, so a child uses exactly the bench database. */
function databaseFreeEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...rest } = process.env;
  return rest;
}

async function waitUntilHealthy(url: string, exited: Promise<number | null>, logFile: string): Promise<void> {
  let died = false;
  void exited.then(() => (died = true));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && !died) {
    const healthy = await fetch(`${url}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server at ${url} did not become healthy${died ? ' (it exited)' : ''}; see ${logFile}`);
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
}

/** VmHWM from /proc: the most memory the process has held resident since it started. */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  return Math.round((kib / 1024) * 10) / 10;
}

/** CPU time a process has used so far (user and system, all its threads), in microseconds, from /proc. */
export function cpuTimeUs(pid: number): number {
  return cpuUsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * The bench's servers listen in this range, away from the ports of a developer's own servers; `BENCH_PORTS=first-last`
 * gives a bench its own range on a machine that others share.
 */
export const BENCH_PORTS = benchPorts(process.env.BENCH_PORTS);

function benchPorts(range: string | undefined): { first: number; last: number } {
  if (range === undefined) return { first: 47000, last: 47999 };
  const match = /^(\d+)-(\d+)$/.exec(range);
  const first = Number(match?.[1]);
  const last = Number(match?.[2]);
  if (!match || first < 1 || last > 65535 || first > last)
    throw new Error(`BENCH_PORTS must be first-last, not ${range}`);
  return { first, last };
}

/** A port of BENCH_PORTS that nothing listens on, tried from a random start so two benches rarely collide. */
async function freePort(): Promise<number> {
  const span = BENCH_PORTS.last - BENCH_PORTS.first + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = BENCH_PORTS.first + ((start + i) % span);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${BENCH_PORTS.first}-${BENCH_PORTS.last}`);
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
