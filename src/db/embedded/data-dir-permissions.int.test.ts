import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { secureDataDir } from './data-dir-permissions.ts';
import { demoDataDir } from '../../testing/test-db.ts';
import { startServerProcess } from '../../testing/server-process.ts';

const run = promisify(execFile);
const NOBODY = 65534;
// Trying as another user of the machine takes root, to become that user.
const asRoot = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');

/** Whether `nobody` can read `path` (or list it, for a folder). */
async function nobodyReads(path: string): Promise<boolean> {
  const command = lstatSync(path).isDirectory() ? ['ls', path] : ['cat', path];
  const args = [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...command];
  return run('setpriv', args, { timeout: 10_000 }).then(
    () => true,
    () => false,
  );
}

/** Every file and folder under `path` whose mode lets other users in, with its mode. */
function openToOthers(path: string): string[] {
  const stat = lstatSync(path);
  const own = !stat.isSymbolicLink() && stat.mode & 0o077 ? [`${path} ${(stat.mode & 0o777).toString(8)}`] : [];
  return stat.isDirectory() ? [...own, ...readdirSync(path).flatMap((name) => openToOthers(join(path, name)))] : own;
}

describe('the embedded database folder', () => {
  it('is made owner-only on start, with everything in it, and what the server writes after stays so', {
    skip: !asRoot && 'needs root, to try as another user',
  }, async (t) => {
    // A parent every user may enter, so that DATA_DIR's own modes are all that keeps others out.
    const parent = mkdtempSync(join(tmpdir(), 'medora-modes-'));
    chmodSync(parent, 0o755);
    t.after(() => rmSync(parent, { recursive: true, force: true }));
    // The demo clinic copied from its template, as a server that has seeded it leaves it: the folder holds a
    // clinic's files to secure without this server spending seconds of CPU time seeding one (SEED_DEMO=1 seeds only
    // an empty database). What it writes after the securing (its backup on start, the WAL) must stay owner-only.
    const folder = await demoDataDir();
    t.after(() => folder.remove());
    const dataDir = join(parent, 'data');
    await run('cp', ['-R', folder.dataDir, dataDir], { timeout: 60_000 });
    // As an older Medora left it: folders 0755, files 0666.
    await run('chmod', ['-R', 'a+rX,a+w', dataDir], { timeout: 10_000 });
    await run('chmod', ['-R', 'go-w', dataDir], { timeout: 10_000 });
    await run('find', [dataDir, '-type', 'f', '-exec', 'chmod', '0666', '{}', '+'], { timeout: 10_000 });
    const version = join(dataDir, 'pglite', 'PG_VERSION');
    assert.ok(await nobodyReads(version), 'the setup lets another user read the database');

    const server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO: '1', BACKUP_KEEP: '2' });
    t.after(() => server.stop());
    await waitFor(() => /backup: wrote/.test(server.output()), 60_000);
    assert.match(server.output(), new RegExp(`${dataDir}: made \\d+ files and folders readable by their owner only`));
    assert.deepEqual(openToOthers(dataDir), []);
    for (const path of [dataDir, join(dataDir, 'pglite'), version, join(dataDir, 'backups')]) {
      assert.equal(await nobodyReads(path), false, `another user reads ${path}`);
    }
    await server.stop();
    assert.deepEqual(openToOthers(dataDir), [], 'nothing written while it ran is open to others');
  });

  it('is created owner-only, and one already owner-only is left as it is', () => {
    const parent = mkdtempSync(join(tmpdir(), 'medora-modes-'));
    try {
      const dataDir = join(parent, 'new', 'data');
      assert.equal(secureDataDir(dataDir), 0);
      assert.equal(lstatSync(dataDir).mode & 0o777, 0o700);
      assert.equal(secureDataDir(dataDir), 0);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
