import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes the file `path` through `write` under a hidden temporary name beside it, for the owner alone (a backup
 * holds password hashes), flushed to disk, then renames it: a crash at any moment leaves either the complete file
 * or none under `path`, and a write that fails leaves nothing.
 */
export async function writeFileAtomically(
  path: string,
  write: (file: { fd: number; path: string }) => void | Promise<void>,
): Promise<void> {
  const temporary = partialName(path);
  try {
    // Those left by writes that were killed, under this name or another (a backup's default name is its time).
    removeLeftovers(dirname(path));
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      await write({ fd, path: temporary });
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(path));
}

/** `data` written as the file `path`, atomically (writeFileAtomically). */
export const writeAtomically = (path: string, data: Uint8Array): Promise<void> =>
  writeFileAtomically(path, ({ fd }) => {
    writeSync(fd, data);
  });

/** The temporary name a backup is written under until complete, naming the process writing it. */
const partialName = (path: string) => join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
const PARTIAL = /^\..+\.(\d+)\.partial$/;

/** Removes the partial files in `folder` whose writer is gone; one another process is writing now stays. */
function removeLeftovers(folder: string): void {
  for (const name of readdirSync(folder)) {
    const writer = PARTIAL.exec(name)?.[1];
    if (writer !== undefined && !isRunning(Number(writer))) rmSync(join(folder, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Flushes a folder, so that a rename in it survives a crash. */
function syncFolder(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
