import { after, before, describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataDirLock, DatabaseLockedError, lockHolder } from './data-dir-lock.ts';
import { present } from '../../testing/assert.ts';

const LOCK_MODULE = new URL('./data-dir-lock.ts', import.meta.url).href;
const lockFile = (dir: string) => join(dir, 'medora.lock');
const ourLock = (dir: string) =>
  JSON.parse(readFileSync(lockFile(dir), 'utf8')) as { pid: number; start: string; boot: string; role: string };

/** Another process that takes the folder's lock and holds it until killed; resolves once it holds it. */
function holdInAnotherProcess(dir: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(LOCK_MODULE)}); await m.acquireDataDirLock(${JSON.stringify(dir)}, 'server'); console.log('locked'); setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const locked = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the other process did not take the lock within 30 s')), 30_000);
    child.stdout.on('data', () => {
      clearTimeout(timer);
      resolve();
    });
    void exited.then(() => reject(new Error('the other process exited before taking the lock')));
  });
  const kill9 = () => {
    child.kill('SIGKILL');
    return exited;
  };
  return { pid: present(child.pid, 'pid'), locked, kill9 };
}

describe('the embedded database lock', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'medora-lock-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses while another live process holds the folder, and needs no manual delete after that process is killed', async () => {
    const other = holdInAnotherProcess(dir);
    try {
      await other.locked;
      await assert.rejects(acquireDataDirLock(dir, 'command'), (error: unknown) => {
        assert.ok(error instanceof DatabaseLockedError);
        assert.match(error.message, new RegExp(`in use by another Medora process \\(the server, pid ${other.pid}\\)`));
        return true;
      });
      assert.equal(lockHolder(dir)?.pid, other.pid);
    } finally {
      await other.kill9();
    }
    assert.equal(lockHolder(dir), undefined);
    const lock = await acquireDataDirLock(dir, 'command');
    assert.equal(ourLock(dir).pid, process.pid);
    lock.release();
  });

  it('refuses a second opening in the same process', async () => {
    const lock = await acquireDataDirLock(dir, 'server');
    try {
      await assert.rejects(acquireDataDirLock(dir, 'server'), /is open in this process already \(pid \d+\)/);
    } finally {
      lock.release();
    }
  });

  it('takes over a lock naming its own pid from an earlier start or an earlier boot', async () => {
    const lock = await acquireDataDirLock(dir, 'server');
    const mine = ourLock(dir);
    lock.release();
    // As after a crash in a container, where the server is pid 1 again.
    for (const earlier of [
      { ...mine, start: String(Number(mine.start) - 1) },
      { ...mine, boot: 'another-boot' },
    ]) {
      writeFileSync(lockFile(dir), JSON.stringify(earlier));
      const again = await acquireDataDirLock(dir, 'server');
      assert.deepEqual(ourLock(dir), mine);
      again.release();
    }
  });

  it('takes over a lock whose pid now belongs to another live process', async () => {
    const otherDir = mkdtempSync(join(tmpdir(), 'medora-lock-other-'));
    const other = holdInAnotherProcess(otherDir);
    try {
      await other.locked;
      // The lock of a process that had the same pid, started at another moment.
      writeFileSync(
        lockFile(dir),
        JSON.stringify({ ...JSON.parse(readFileSync(lockFile(otherDir), 'utf8')), start: '1' }),
      );
      const lock = await acquireDataDirLock(dir, 'command');
      assert.equal(ourLock(dir).pid, process.pid);
      lock.release();
    } finally {
      await other.kill9();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('takes over a lock of the old format (a bare pid) once that process has gone or its pid is reused', async () => {
    writeFileSync(lockFile(dir), '999999999');
    (await acquireDataDirLock(dir, 'command')).release();
    // Written before this process started, so the pid in it was another process's.
    writeFileSync(lockFile(dir), String(process.pid));
    // Long before: the lock compares this with the kernel's record of our start, not with the clock of this test.
    const longAgo = new Date('2001-01-01T00:00:00Z');
    utimesSync(lockFile(dir), longAgo, longAgo);
    (await acquireDataDirLock(dir, 'command')).release();
  });

  it('still refuses while a server answers on its socket, though its pid is not visible from here', async () => {
    writeFileSync(lockFile(dir), JSON.stringify({ pid: 999999999, role: 'server' }));
    await assert.rejects(
      acquireDataDirLock(dir, 'server', async () => true),
      /in use by another Medora process \(the server, pid 999999999\)/,
    );
    rmSync(lockFile(dir));
  });
});
