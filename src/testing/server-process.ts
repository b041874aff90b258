import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { endsWithTestFile } from './child-processes.ts';
import { present } from './assert.ts';

const BIN = fileURLToPath(new URL('../../bin/medora.js', import.meta.url));
// PGlite's first start writes a new cluster, which alone takes 10 s or more on a busy two-core machine.
const START_TIMEOUT_MS = 120_000;

/** `medora serve` as its own process, as an operator starts it. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves to the exit code, or the signal that ended it. */
  exited: Promise<string>;
  /** Sends `signal` and waits (bounded) until the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<string>;
}

interface Spawned {
  child: ChildProcessByStdio<null, Readable, Readable>;
  output(): string;
  /** The exit code, or the signal that ended it. */
  exited: Promise<string>;
}

function spawnServe(env: Record<string, string>, args: string[]): Spawned {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
  const child = endsWithTestFile(
    spawn(process.execPath, [BIN, 'serve', ...args], {
      env: { ...inherited, HOST: '127.0.0.1', PORT: '0', CLINIC_TZ: 'Europe/Berlin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? String(code))));
  return { child, output: () => output, exited };
}

/** Starts the server and waits until it says where it listens; rejects with its output when it exits first. */
export function startServerProcess(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  const { child, output, exited } = spawnServe(env, args);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s:\n${output()}`));
    }, START_TIMEOUT_MS);
    const onData = () => {
      const url = /Medora is running at (http:\/\/\S+)/.exec(output())?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        url,
        pid: present(child.pid, 'server pid'),
        output,
        exited,
        stop: (signal = 'SIGTERM') => stop(child, signal, exited),
      });
    };
    child.stdout.on('data', onData);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${how}) before it started:\n${output()}`));
    });
  });
}

/** Runs `medora serve` expecting it to refuse to start; resolves to how it exited and what it printed. */
export async function serveRefused(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ exit: string; output: string }> {
  const { child, output, exited } = spawnServe(env, args);
  const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
  const exit = await exited;
  clearTimeout(timer);
  return { exit, output: output() };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals, exited: Promise<string>): Promise<string> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}
