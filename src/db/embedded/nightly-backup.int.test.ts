import { after, before, describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { scheduleNightlyBackups } from './nightly-backup.ts';
import { startServerProcess } from '../../testing/server-process.ts';
import { at } from '../../testing/assert.ts';
import { embeddedDataDir } from '../../testing/test-db.ts';

const COMPLETE = '-- PostgreSQL database dump complete';
const DAY_MS = 86_400_000;
/** Loaded into the server only (its line below is what it prints once it holds a write). */
const HOLD_BACKUP_WRITE = fileURLToPath(new URL('../../testing/hold-backup-write.mjs', import.meta.url));
const HELD = 'test hook: holding the write of';
/** `days` before `now`: the scheduler compares its clock with the files' times, so both come from one clock. */
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/** Resolves once `check` holds, polling; rejects after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('nightly backups', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'medora-nightly-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('backs up on start when the newest backup is over a day old, then keeps the newest ones', async (t) => {
    const now = new Date('2026-11-24T12:00:00Z');
    const backups = join(dir, 'first');
    mkdirSync(backups);
    for (const name of [
      'medora-2026-01-01-0230.sql.gz',
      'medora-2026-01-02-0230.sql.gz',
      '.medora-2026-01-03-0230.sql.gz.partial',
      'notes.txt',
    ]) {
      writeFileSync(join(backups, name), name);
      utimesSync(join(backups, name), daysBefore(now, 3), daysBefore(now, 3));
    }
    const lines: string[] = [];
    const nightly = scheduleNightlyBackups({
      dir: backups,
      time: '02:30',
      keep: 2,
      timeZone: 'Europe/Berlin',
      now: () => now,
      backup: async () => gzipSync(COMPLETE),
      log: (line) => lines.push(line),
    });
    t.after(() => nightly.stop());
    await until(() => lines.length > 0, 10_000, 'a backup');
    assert.deepEqual(readdirSync(backups).sort(), [
      'medora-2026-01-02-0230.sql.gz',
      'medora-2026-11-24-1300.sql.gz',
      'notes.txt',
    ]);
    assert.match(
      at(lines, 0),
      /^backup: wrote .*medora-2026-11-24-1300\.sql\.gz \(\d+ bytes\) in \d+ ms; removed 1 older$/,
    );
  });

  it('logs a failed backup and tries again, and the schedule goes on', async (t) => {
    const backups = join(dir, 'failing');
    const lines: string[] = [];
    let calls = 0;
    const nightly = scheduleNightlyBackups({
      dir: backups,
      time: '02:30',
      keep: 7,
      timeZone: 'UTC',
      retryAfterMs: 20,
      backup: async () => {
        calls += 1;
        if (calls < 3) throw new Error('the disk is full');
        return gzipSync(COMPLETE);
      },
      log: (line) => lines.push(line),
    });
    t.after(() => nightly.stop());
    await until(() => lines.length === 3, 10_000, 'two failures and a backup');
    assert.match(at(lines, 0), /^backup: failed \(attempt 1 of 3\): the disk is full; trying again in 0 min$/);
    assert.match(at(lines, 1), /^backup: failed \(attempt 2 of 3\): the disk is full; trying again/);
    assert.match(at(lines, 2), /^backup: wrote /);
    assert.equal(readdirSync(backups).length, 1);
  });

  it('leaves the earlier backups whole and no partial file under a backup name when the server is killed mid-backup', async (t) => {
    const folder = await embeddedDataDir();
    t.after(() => folder.remove());
    const { dataDir } = folder;
    const backups = join(dataDir, 'backups');
    // Two earlier backups, three days old so that the server backs up on start; only their bytes matter here.
    const earlier = gzipSync(`-- an earlier backup\n${COMPLETE}\n`);
    mkdirSync(backups);
    const earlierNames = ['medora-2026-01-01-0230.sql.gz', 'medora-2026-01-02-0230.sql.gz'];
    for (const name of earlierNames) {
      writeFileSync(join(backups, name), earlier);
      // A real server reads the real clock.
      utimesSync(join(backups, name), daysBefore(new Date(), 3), daysBefore(new Date(), 3));
    }

    // The server stops itself halfway through writing the backup (src/testing/hold-backup-write.mjs) and is killed
    // there: a write of a small database's backup takes a millisecond, too short to be caught in by a watcher.
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      BACKUP_KEEP: '7',
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${HOLD_BACKUP_WRITE}`,
    });
    try {
      await until(
        () => server.output().includes(HELD) || /backup: wrote/.test(server.output()),
        120_000,
        'the backup on start',
      );
      assert.ok(
        server.output().includes(HELD),
        `the backup was not written through the held write:\n${server.output()}`,
      );
      process.kill(server.pid, 'SIGKILL');
      assert.equal(await server.exited, 'SIGKILL');
    } finally {
      await server.stop();
    }

    const files = readdirSync(backups);
    assert.ok(
      files.some((name) => /^\.medora-.*\.partial$/.test(name)),
      `killed while writing: ${files.join(', ')}`,
    );
    for (const name of earlierNames) assert.deepEqual(readFileSync(join(backups, name)), earlier, `${name} is intact`);
    for (const name of files.filter((file) => !file.startsWith('.'))) {
      assert.ok(
        gunzipSync(readFileSync(join(backups, name)))
          .toString('utf8')
          .includes(COMPLETE),
        `${name} is a whole backup`,
      );
    }

    // The next start clears the leftover and backs up again: the schedule a server starts on DATA_DIR/backups (as the
    // killed one did, above), here in this process rather than a second server's, whose PGlite would take seconds of
    // CPU time to start; what it clears is the real leftover of the killed process.
    const lines: string[] = [];
    const again = scheduleNightlyBackups({
      dir: backups,
      time: '02:30',
      keep: 7,
      timeZone: 'Europe/Berlin',
      backup: async () => gzipSync(`-- the backup after the restart\n${COMPLETE}\n`),
      log: (line) => lines.push(line),
    });
    try {
      await until(() => lines.length > 0, 10_000, 'the backup after the restart');
    } finally {
      await again.stop();
    }
    assert.match(at(lines, 0), /^backup: wrote /);
    const after = readdirSync(backups);
    assert.deepEqual(
      after.filter((name) => name.startsWith('.')),
      [],
    );
    assert.equal(after.length, 3);
  });
});
