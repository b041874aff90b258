import { DomainError } from '../domain/shared/errors.ts';
import { DatabaseLockedError } from '../db/embedded/data-dir-lock.ts';
import { BackupError } from '../db/backup-error.ts';
import { DataDirPermissionError } from '../db/embedded/data-dir-permissions.ts';
import { ListenError } from '../http/listen-error.ts';
import { writeLine, type Output } from './context.ts';

/** Prints `error: …` (and each bad field) to `stderr`; unknown errors keep their stack. */
export function reportError(error: unknown, stderr: Output): void {
  if (error instanceof DomainError) {
    writeLine(stderr, `error: ${error.message}`);
    const problems = Object.entries(error.fields ?? {}).flatMap(([field, list]) =>
      list.map((problem) => `${field}: ${problem}`),
    );
    // A lone problem that the message already states is not printed twice.
    const [lone, ...others] = problems;
    const repeatsMessage = lone !== undefined && others.length === 0 && error.message.includes(lone);
    if (!repeatsMessage) for (const problem of problems) writeLine(stderr, `  ${problem}`);
  } else if (
    error instanceof DatabaseLockedError ||
    error instanceof BackupError ||
    error instanceof ListenError ||
    error instanceof DataDirPermissionError
  ) {
    writeLine(stderr, `error: ${error.message}`);
  } else {
    writeLine(stderr, `error: ${(error as Error)?.stack ?? error}`);
  }
}

/** A password piped in on stdin (never an argument, where `ps` and shell history would keep it), without its line break. */
export async function readPassword(stdin: AsyncIterable<string | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
