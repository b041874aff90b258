/**
 * `node --import tsx scripts/bench/embedded-socket.ts --before DIR`: request latency of the server on the embedded
 * database with its socket in place — idle, and while a client queries through it as cron would — against the
 * code in DIR (a checkout from before the socket, with node_modules), in one run on copies of one demo database.
 * Every load targets 127.0.0.1 and is bounded in time.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import autocannon from 'autocannon';
import { makeApp } from '../../src/app.ts';
import { openEmbedded } from '../../src/db/embedded/embedded.ts';
import { systemClock } from '../../src/domain/shared/clock.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TZ = 'Europe/Berlin';

const options = new Command('embedded-socket')
  .requiredOption('--before <dir>', 'a checkout of the code to compare against')
  .option('--seconds <n>', 'load time per measurement', '10')
  .option('--connections <n>', 'concurrent connections', '8')
  .option('--rounds <n>', 'times each variant is measured, alternating', '2')
  .parse()
  .opts<{ before: string; seconds: string; connections: string; rounds: string }>();

interface Variant {
  name: string;
  root: string;
  /** A client queries through the socket meanwhile. */
  busy: boolean;
}

const variants: Variant[] = [
  { name: 'before (no socket)', root: resolve(options.before), busy: false },
  { name: 'socket, idle', root: ROOT, busy: false },
  { name: 'socket, a client querying', root: ROOT, busy: true },
];

const work = await mkdtemp(join(tmpdir(), 'medora-socket-bench-'));
try {
  const template = join(work, 'template');
  await (await serve(ROOT, template, { SEED_DEMO: '1' })).stop();
  for (let round = 1; round <= Number(options.rounds); round++) {
    for (const variant of variants) {
      const dataDir = join(work, `${round}-${variants.indexOf(variant)}`);
      await cp(template, dataDir, { recursive: true });
      const server = await serve(variant.root, dataDir, { SEED_DEMO: '0' });
      try {
        const token = await signIn(server.url);
        const client = variant.busy ? queryLoop(dataDir) : undefined;
        for (const path of ['/api/admin/departments', '/api/admin/patients?per_page=10']) {
          const result = await autocannon({
            url: server.url,
            requests: [{ method: 'GET', path, headers: { authorization: `Bearer ${token}` } }],
            connections: Number(options.connections),
            duration: Number(options.seconds),
          });
          const line = `${variant.name.padEnd(26)} ${path.padEnd(34)} ${String(Math.round(result.requests.average)).padStart(6)} req/s  p50 ${String(result.latency.p50).padStart(4)} ms  p99 ${String(result.latency.p99).padStart(4)} ms  non-2xx ${result.non2xx}`;
          console.log(line);
        }
        if (client)
          console.log(`${' '.repeat(27)}the client ran ${await client.stop()} billing reports through the socket`);
      } finally {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

/** Runs the billing report through the running server's socket, one after another, until stopped. */
function queryLoop(dataDir: string) {
  let stopped = false;
  let count = 0;
  const done = (async () => {
    const db = await openEmbedded(dataDir);
    const app = makeApp({ db, clock: systemClock, config: { clinicTz: TZ, clinicName: 'Bench' } });
    try {
      while (!stopped) {
        await app.adminReports.billingReport({ from: '2000-01-01', to: '2100-12-31', by: 'department' });
        count += 1;
      }
    } finally {
      await db.close();
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await done;
      return count;
    },
  };
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@medora.test', password: 'medora-demo' }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

function serve(
  root: string,
  dataDir: string,
  env: Record<string, string>,
): Promise<{ url: string; stop(): Promise<void> }> {
  const { DATABASE_URL: _url, ...inherited } = process.env;
  const child = spawn(process.execPath, [join(root, 'bin/medora.js'), 'serve'], {
    cwd: root,
    env: { ...inherited, ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', CLINIC_TZ: TZ, BACKUP_KEEP: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start within 180 s')), 180_000);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /Medora is running at (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        url,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    void exited.then(() => reject(new Error(`the server exited before it started:\n${output}`)));
  });
}
