import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** DATA_DIR is open to other users and this process cannot close it: it belongs to someone else. */
export class DataDirPermissionError extends Error {
  constructor(path: string, cause: NodeJS.ErrnoException) {
    super(
      `${path} can be read by other users of this machine, and Medora may not change that (${cause.code}): run Medora as the folder's owner, or make it owner-only with chmod -R go-rwx`,
      { cause },
    );
    this.name = 'DataDirPermissionError';
  }
}

const OTHERS = 0o077;

/**
 * Creates DATA_DIR owner-only, and makes whatever is in it owner-only too: the database's files hold password
 * hashes and diagnoses, its catalogue the audit trigger, and a folder made by an older Medora or by hand may be
 * open to every user of the machine. Answers how many files and folders it closed.
 */
export function secureDataDir(dataDir: string): number {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return closeToOthers(dataDir);
}

function closeToOthers(path: string): number {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return 0;
  let closed = 0;
  if (stat.mode & OTHERS) {
    try {
      chmodSync(path, stat.mode & 0o700);
    } catch (error) {
      throw new DataDirPermissionError(path, error as NodeJS.ErrnoException);
    }
    closed += 1;
  }
  if (stat.isDirectory()) for (const name of readdirSync(path)) closed += closeToOthers(join(path, name));
  return closed;
}
