import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BackupError } from './backup-error.ts';
import { writeFileAtomically } from './atomic-file.ts';

/** The first bytes of pg_dump's custom format. */
export const CUSTOM_FORMAT_MAGIC = 'PGDMP';

/** PostgreSQL: pg_dump's custom format (compressed; pg_restore picks what to restore), written as `out` once complete. */
export async function backupPostgres(url: string, out: string): Promise<void> {
  // Through a pipe, not --file: pg_dump then dies with this process (its next write finds the pipe closed) instead
  // of writing on into a file nobody will use. A dump waits for no lock longer than 30 s: a long migration or a
  // stuck transaction fails the backup instead.
  await writeFileAtomically(out, ({ fd, path }) =>
    runTool(
      'pg_dump',
      ['--format=custom', '--lock-wait-timeout=30s', `--dbname=${url}`],
      createWriteStream(path, { fd, autoClose: false }),
    ),
  );
}

/** Restores a custom-format dump, replacing what the dump holds, all or nothing. */
export async function restorePostgres(url: string, file: string): Promise<void> {
  const head = readFileSync(file).subarray(0, CUSTOM_FORMAT_MAGIC.length).toString('latin1');
  if (head !== CUSTOM_FORMAT_MAGIC) {
    throw new BackupError(
      `${file} is not a pg_dump custom-format backup of PostgreSQL${head.startsWith('\x1f\x8b') ? ' but of an embedded database; restore it with DATABASE_URL unset' : ''}`,
    );
  }
  await runTool('pg_restore', [
    '--clean',
    '--if-exists',
    '--no-owner',
    '--no-privileges',
    '--single-transaction',
    `--dbname=${url}`,
    file,
  ]);
}

/** Runs a PostgreSQL client tool; what it writes to stdout goes to `output`, when given. */
function runTool(command: string, args: string[], output?: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', output ? 'pipe' : 'ignore', 'pipe'] });
    const written = output && child.stdout ? pipeline(child.stdout, output) : Promise.resolve();
    written.catch(reject);
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new BackupError(
              `${command} is not installed; install PostgreSQL's client tools of your server's version (Debian: apt-get install postgresql-client)`,
            )
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? written.then(resolve, reject)
        : reject(new BackupError(`${command} failed: ${stderr.trim() || `exit code ${code}`}`)),
    );
  });
}
