import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openPglite } from './pglite.ts';
import { signUpAdmin, startTestServer, uniqueEmail, PASSWORD, type TestServer } from '../../testing/http.ts';
import { embeddedDataDir } from '../../testing/test-db.ts';

const run = promisify(execFile);
// A file system of its own that can fill up: tmpfs, which only root may mount.
const canMount =
  process.getuid?.() === 0 &&
  (await run('mount', ['--version'], { timeout: 10_000 }).then(
    () => true,
    () => false,
  ));

/** Writes zeros into `path` until the file system is full. */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(256 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe('the embedded database on a full disk', { skip: !canMount && 'mounting a small tmpfs needs root' }, () => {
  it('answers a write 503 database_disk_full with Retry-After, keeps answering reads, and writes again once there is room', async (t) => {
    const disk = mkdtempSync(join(tmpdir(), 'medora-full-'));
    const template = await embeddedDataDir();
    let server: TestServer | undefined;
    t.after(async () => {
      await server?.close();
      await run('umount', ['-l', disk], { timeout: 10_000 }).catch(() => {});
      rmSync(disk, { recursive: true, force: true });
      await template.remove();
    });
    await run('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', disk], { timeout: 10_000 });
    await run('cp', ['-R', join(template.dataDir, 'pglite'), join(disk, 'pglite')], { timeout: 60_000 });
    server = await startTestServer({
      name: 'full disk',
      open: async () => {
        const db = await openPglite(disk);
        return { db, drop: () => db.close() };
      },
    });
    const admin = await signUpAdmin(server);
    const photoForm = () => {
      const form = new FormData();
      for (const [name, value] of Object.entries({
        name: 'Dr. Full Disk',
        email: uniqueEmail('doctor'),
        password: PASSWORD,
      }))
        form.append(name, value);
      // PNG's signature, then bytes that do not compress: the files table has to grow by about 1.5 MiB.
      form.append(
        'photo',
        new Blob([
          Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(1536 * 1024)]),
        ]),
        'photo.png',
      );
      return form;
    };

    const filler = join(disk, 'filler');
    fill(filler);
    const refused = await server.api('POST', '/api/admin/doctors', { token: admin.token, body: photoForm() });
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'database_disk_full');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal(
      (await server.api('GET', '/api/admin/doctors', { token: admin.token })).body.total,
      0,
      'nothing of the refused doctor was saved',
    );

    rmSync(filler);
    const saved = await server.api('POST', '/api/admin/doctors', { token: admin.token, body: photoForm() });
    assert.equal(saved.status, 201, JSON.stringify(saved.body));
  });
});
