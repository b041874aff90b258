import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { endsWithTestFile } from './child-processes.ts';
import { medora } from '../cli/main.ts';
import type { Db } from '../db/db.ts';
import type { App } from '../app.ts';
import { systemClock } from '../domain/shared/clock.ts';
import type { TestDatabase } from './test-db.ts';
import { makeTestApp, TEST_TZ } from './test-app.ts';

const BIN = fileURLToPath(new URL('../../bin/medora.js', import.meta.url));
// PGlite's start alone can take 10 s or more on a busy two-core machine; a backup or restore some more.
const RUN_TIMEOUT_MS = 180_000;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A migrated, empty database of `target`, and `medora` commands run against it in this process. */
export interface CliDatabase {
  db: Db;
  /** The app the commands run against, to check what they did through the use cases. */
  app: App;
  /** `medora ...args` with `stdin` piped in; stdout and stderr are captured as pipes (not terminals), like cron's. */
  medora(args: string[], stdin?: string): Promise<CliRun>;
  drop(): Promise<void>;
}

export async function openCliDatabase(target: TestDatabase): Promise<CliDatabase> {
  const { db, drop } = await target.open();
  const app = makeTestApp(db, { clock: systemClock, clinicTz: TEST_TZ });
  return {
    db,
    app,
    medora: async (args, stdin = '') => {
      let [stdout, stderr] = ['', ''];
      const code = await medora(args, {
        getApp: async () => app,
        getDb: async () => db,
        io: {
          stdout: { write: (text) => (stdout += text) },
          stderr: { write: (text) => (stderr += text) },
          stdin: Readable.from([stdin]),
        },
      });
      return { code, stdout, stderr };
    },
    drop,
  };
}

/** Runs the real `node bin/medora.js ...args` as a process of its own, with stdout and stderr as pipes. */
export function spawnMedora(args: string[], { env }: { env: Record<string, string> }): Promise<CliRun> {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
  const child = endsWithTestFile(
    spawn(process.execPath, [BIN, ...args], {
      env: { ...inherited, CLINIC_TZ: TEST_TZ, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Bounded: a command that hangs is killed (its run then ends with code -1), not left behind the test.
      timeout: RUN_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
