import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { openEmbedded } from '../db/embedded/embedded.ts';
import { DEFAULT_TIMEOUTS } from '../db/timeouts.ts';
import { tableCounts } from '../db/table-counts.ts';
import { acquireDataDirLock } from '../db/embedded/data-dir-lock.ts';
import { spawnMedora } from '../testing/cli.ts';
import { serveRefused, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { demoDataDir } from '../testing/test-db.ts';

const DEMO_ADMIN = { email: 'admin@medora.test', password: 'medora-demo' };
const REQUESTS_PER_SECOND = 20;
// The test's own connections wait as long as a slow machine needs; the server's answers are what is tested.
const PATIENT = { ...DEFAULT_TIMEOUTS, acquireMs: 60_000 };

/** Counts the admin screens show, as a server answers them. */
async function screenCounts(url: string, token: string) {
  const total = async (path: string) => {
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, path);
    return ((await res.json()) as { total: number }).total;
  };
  return {
    departments: await total('/api/admin/departments?per_page=200'),
    patients: await total('/api/admin/patients'),
    appointments: await total('/api/admin/appointments'),
    billings: await total('/api/admin/billings'),
    doctors: await total('/api/admin/doctors'),
  };
}

async function signIn(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_ADMIN),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { token: string }).token;
}

/** GETs the departments list 20 times a second until stopped; every answer's status and total, and when it was asked and answered. */
function departmentsLoad(url: string, token: string) {
  const answers: Promise<{ status: number; total?: number; sentAt: number; answeredAt: number }>[] = [];
  const timer = setInterval(() => {
    const sentAt = performance.now();
    answers.push(
      fetch(`${url}/api/admin/departments?per_page=200`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(30_000),
      }).then(
        async (res) => ({
          status: res.status,
          total: res.ok ? ((await res.json()) as { total: number }).total : undefined,
          sentAt,
          answeredAt: performance.now(),
        }),
        () => ({ status: 0, sentAt, answeredAt: performance.now() }),
      ),
    );
  }, 1000 / REQUESTS_PER_SECOND);
  return {
    stop: async () => {
      clearInterval(timer);
      return Promise.all(answers);
    },
  };
}

async function psql(dataDir: string, sql: string): Promise<string> {
  const { stdout } = await promisify(execFile)('psql', ['-h', dataDir, '-U', 'postgres', '-Atq', '-c', sql], {
    timeout: 30_000,
  });
  return stdout.trim();
}

const psqlInstalled = await promisify(execFile)('psql', ['--version'], { timeout: 30_000 }).then(
  () => true,
  () => false,
);

describe('a server on a folder that a command has open itself', () => {
  it('refuses to start, naming the command', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'medora-held-'));
    const lock = await acquireDataDirLock(dataDir, 'command');
    try {
      const refused = await serveRefused({ DATA_DIR: dataDir });
      assert.equal(refused.exit, '1');
      assert.match(
        refused.output,
        new RegExp(
          `error: The embedded database in .* is in use by another Medora process \\(a medora command, pid ${process.pid}\\)`,
        ),
      );
    } finally {
      lock.release();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the embedded database while medora serve runs', () => {
  let dataDir: string;
  let removeDataDir: (() => Promise<void>) | undefined;
  let restoredDir: string;
  let server: ServerProcess;
  let token: string;
  const backupFile = () => join(dataDir, 'under-load.sql.gz');

  before(async () => {
    // The demo clinic, copied from the template the suite seeded once (the server seeds only an empty database).
    ({ dataDir, remove: removeDataDir } = await demoDataDir());
    restoredDir = await mkdtemp(join(tmpdir(), 'medora-restored-'));
  });

  after(async () => {
    await server?.stop();
    await removeDataDir?.();
    await rm(restoredDir, { recursive: true, force: true });
  });

  // The server the other tests use is the next start this one proves: one PGlite start fewer than a folder of its own.
  it('exits 1 within seconds on a port in use, saying which port, and leaves the folder free for the next start', async (t) => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = String((taken.address() as AddressInfo).port);
    const startedAt = performance.now();
    const refused = await serveRefused({ DATA_DIR: dataDir, SEED_DEMO: '0', PORT: port });
    assert.equal(refused.exit, '1', refused.output);
    assert.match(
      refused.output,
      new RegExp(`error: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use by another program`),
    );
    assert.ok(performance.now() - startedAt < 60_000, 'the process ended on its own');
    // It let go of the folder: the next server starts on it.
    // pg_dump runs on the embedded database's thread, in its turn; on a loaded test machine it can take longer than the default 3 s that a
    // request waits for its turn, and this test asserts answers, not latency.
    server = await startServerProcess({
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      BACKUP_KEEP: '0',
      DATABASE_ACQUIRE_TIMEOUT_MS: '30000',
    });
    token = await signIn(server.url);
  });

  it('runs a report, an addition and a backup from other processes while 20 requests a second hit the server', async (t) => {
    const before = await screenCounts(server.url, token);
    const load = departmentsLoad(server.url, token);
    // Stops the requests also when a command fails; stopping twice is harmless.
    t.after(async () => {
      await load.stop();
    });
    // Each command waits its turn behind the others and pg_dump, as the server's requests do (see before()).
    const env = { DATA_DIR: dataDir, DATABASE_ACQUIRE_TIMEOUT_MS: '30000' };
    const addStartedAt = performance.now();
    let addedAt = Infinity;
    const [report, added, backup] = await Promise.all([
      spawnMedora(
        ['report', 'billing', '--from', '2000-01-01', '--to', '2100-12-31', '--by', 'department', '--format', 'json'],
        { env },
      ),
      spawnMedora(['departments', 'add', '--name', 'Radiology'], { env }).finally(() => (addedAt = performance.now())),
      spawnMedora(['backup', '--out', backupFile()], { env }),
    ]);
    const answers = await load.stop();

    assert.equal(report.code, 0, report.stderr);
    assert.equal(
      JSON.parse(report.stdout).total.bills,
      before.billings,
      'the report counts every bill the server lists',
    );
    assert.equal(added.code, 0, added.stderr);
    assert.equal(JSON.parse(added.stdout).name, 'Radiology');
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /^Wrote .*under-load\.sql\.gz: \d+ kB in \d+\.\d s\.\n$/);
    const written = await stat(backupFile());
    assert.ok(written.size > 1000);
    assert.equal(written.mode & 0o777, 0o600, 'a backup holds password hashes: its owner alone reads it');

    assert.ok(answers.length >= 10, `only ${answers.length} requests were sent`);
    assert.deepEqual(
      answers.filter((answer) => answer.status !== 200),
      [],
      'every request is answered',
    );
    // Answered before the addition began: the demo's departments; asked after it ended: one more; between, either.
    assert.ok(
      answers.every((answer) => answer.total === before.departments || answer.total === before.departments + 1),
    );
    assert.deepEqual(
      answers.filter((answer) => answer.answeredAt < addStartedAt && answer.total !== before.departments),
      [],
    );
    assert.deepEqual(
      answers.filter((answer) => answer.sentAt > addedAt && answer.total !== before.departments + 1),
      [],
    );
    assert.equal((await screenCounts(server.url, token)).departments, before.departments + 1);
  });

  it('lets psql in through the socket in DATA_DIR, which only its owner may open', {
    skip: !psqlInstalled && 'psql is not installed',
  }, async () => {
    const socket = await stat(join(dataDir, '.s.PGSQL.5432'));
    assert.equal(socket.mode & 0o777, 0o600);
    assert.equal(await psql(dataDir, `select name from departments where name = 'Radiology'`), 'Radiology');
    // A setting psql makes stays in its own session; the server's unqualified queries go on working.
    assert.equal(await psql(dataDir, `set search_path = ''; select count(*) > 0 from public.users`), 't');
    assert.equal((await screenCounts(server.url, token)).departments > 0, true);
  });

  it('refuses a second server on the same folder, naming the first, and a restore under the running one', async () => {
    const second = await serveRefused({ DATA_DIR: dataDir });
    assert.equal(second.exit, '1');
    assert.match(
      second.output,
      new RegExp(
        `error: The embedded database in .* is in use by another Medora process \\(the server, pid ${server.pid}\\)`,
      ),
    );
    const restore = await spawnMedora(['restore', '--force', backupFile()], { env: { DATA_DIR: dataDir } });
    assert.equal(restore.code, 1);
    assert.match(
      restore.stderr,
      /^error: A Medora server is running on .*; stop it first, as a restore replaces the database it serves\n$/,
    );
  });

  it('restores the backup into a fresh folder, where a server answers with the same counts', async () => {
    const restored = await spawnMedora(['restore', backupFile()], { env: { DATA_DIR: restoredDir } });
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored .* in \d+\.\d s: .*\d+ users/m);

    // The backup ran alongside the addition: it holds Radiology or not, and everything else as the server has it.
    const hasRadiology = gunzipSync(await readFile(backupFile()))
      .toString('utf8')
      .includes("'Radiology'");
    const expected = await screenCounts(server.url, token);
    if (!hasRadiology) expected.departments -= 1;
    const original = await openEmbedded(dataDir, PATIENT);
    const originalTables = await tableCounts(original).finally(() => original.close());

    const second = await startServerProcess({ DATA_DIR: restoredDir, BACKUP_KEEP: '0' });
    try {
      const copy = await openEmbedded(restoredDir, PATIENT);
      const copyTables = await tableCounts(copy).finally(() => copy.close());
      // The audit trail grows with every read, and the chain as the sealer catches up: both run on after the backup.
      const unchanged = (counts: typeof copyTables) =>
        counts.filter(({ table }) => table !== 'departments' && !table.startsWith('audit_'));
      assert.deepEqual(unchanged(copyTables), unchanged(originalTables));
      assert.deepEqual(await screenCounts(second.url, await signIn(second.url)), expected);
    } finally {
      await second.stop();
    }

    const again = await spawnMedora(['restore', backupFile()], { env: { DATA_DIR: restoredDir } });
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /^error: The embedded database in .* is not empty \(.*\d+ users.*\); add --force to replace it\n$/,
    );
    const forced = await spawnMedora(['restore', '--force', backupFile()], { env: { DATA_DIR: restoredDir } });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /^Replaced a database with .*\d+ users.*; it is kept in .*pglite\.replaced-/);
  });
});
