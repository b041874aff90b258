// Loaded into a `medora serve` child with `--import`: its first write to a backup file (a name `medora-….sql.gz`,
// whatever it is called while written) writes half its bytes, says so on stderr and stops the process there, so that
// a test kills it mid-write however fast or slow the machine is, instead of racing a write of a few milliseconds.
// Never imported by a test process: it would hold that process's own writes of such files.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const writeSync = fs.writeSync;
let held = false;

/** The path the descriptor `fd` is open on (Linux), or '' for a pipe, a socket or an unknown descriptor. */
const pathOf = (/** @type {number} */ fd) => {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return '';
  }
};

/** @type {(fd: number, data: unknown, ...rest: unknown[]) => number} */
const holdingWriteSync = (fd, data, ...rest) => {
  if (!held && typeof fd === 'number' && ArrayBuffer.isView(data) && /\/\.?medora-[^/]*\.sql\.gz/.test(pathOf(fd))) {
    held = true;
    writeSync(fd, new Uint8Array(data.buffer, data.byteOffset, Math.floor(data.byteLength / 2)));
    writeSync(2, `test hook: holding the write of ${pathOf(fd)}\n`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
  return Reflect.apply(writeSync, fs, [fd, data, ...rest]);
};
fs.writeSync = /** @type {typeof fs.writeSync} */ (holdingWriteSync);
syncBuiltinESMExports();
