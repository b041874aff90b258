import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `data` under a hidden temporary name beside `path`, flushed to disk, then renames it: a crash at any
 * moment leaves either the complete file or none under `path`.
 */
export function writeAtomically(path: string, data: Uint8Array): void {
  const temporary = partialName(path);
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, data);
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

/** The temporary name a backup is written under until complete. */
export const partialName = (path: string) => join(dirname(path), `.${basename(path)}.partial`);

/** Flushes a folder, so that a rename in it survives a crash. */
export function syncFolder(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
