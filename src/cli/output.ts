import { DomainError } from '../domain/shared/errors.ts';
import { DatabaseLockedError } from '../db/data-dir-lock.ts';
import { BackupError } from '../db/backup.ts';

/** Prints `error: …` (and each bad field) to stderr and sets exit code 1; unknown errors keep their stack. */
export function reportError(error: unknown): void {
  if (error instanceof DomainError) {
    console.error(`error: ${error.message}`);
    const problems = Object.entries(error.fields ?? {}).flatMap(([field, list]) => list.map((problem) => `${field}: ${problem}`));
    // A lone problem that the message already states is not printed twice.
    const repeatsMessage = problems.length === 1 && error.message.includes(problems[0]);
    if (!repeatsMessage) for (const problem of problems) console.error(`  ${problem}`);
  } else if (error instanceof DatabaseLockedError || error instanceof BackupError) {
    console.error(`error: ${error.message}`);
  } else {
    console.error(`error: ${(error as Error)?.stack ?? error}`);
  }
  process.exitCode = 1;
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
