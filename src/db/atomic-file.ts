import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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
    // One left by a write that was killed.
    rmSync(temporary, { force: true });
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

/** The temporary name a backup is written under until complete. */
const partialName = (path: string) => join(dirname(path), `.${basename(path)}.partial`);

/** Flushes a folder, so that a rename in it survives a crash. */
function syncFolder(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
