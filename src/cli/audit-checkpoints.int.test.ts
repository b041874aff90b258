import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { App } from '../app.ts';
import { loadAuditKeys, signerFromPem } from '../audit-signing.ts';
import { asTrailOwner, relink, sealAll } from '../testing/audit-sealing.ts';
import { auditLog } from '../db/audit.pg.ts';
import type { Db } from '../db/db.ts';
import type { AuditKeys } from '../domain/audit/checkpoint.ts';
import { systemClock } from '../domain/shared/clock.ts';
import type { CliRun } from '../testing/cli.ts';
import { makeTestApp } from '../testing/test-app.ts';
import { testDatabases, type OpenedTestDatabase } from '../testing/test-db.ts';
import { medora } from './main.ts';

const admin = { userId: 1, role: 'admin' as const, name: 'Ada' };

/** Keys as AUDIT_SIGNING_KEY_FILE would give them: the signer, trusting its own public half. */
function signingKeys(): AuditKeys {
  const { privateKey } = generateKeyPairSync('ed25519');
  const signer = signerFromPem(
    privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    'AUDIT_SIGNING_KEY_FILE',
  );
  return { signer, trusted: [signer] };
}

/** `medora …args` in this process, against `app`. */
async function run(app: App | undefined, args: string[]): Promise<CliRun> {
  let [stdout, stderr] = ['', ''];
  const code = await medora(args, {
    getApp: async () => {
      assert.ok(app, 'this command needs no database');
      return app;
    },
    getDb: async () => assert.fail('the audit commands reach the database through the app'),
    io: {
      stdout: { write: (text) => (stdout += text) },
      stderr: { write: (text) => (stderr += text) },
      stdin: Readable.from(['']),
    },
  });
  return { code, stdout, stderr };
}

/** Deletes the newest `n` chained rows and their links and steps the head back to the link before them: the chain stays consistent. */
const cutTail = (db: Db, n: number) =>
  asTrailOwner(db, async (tx) => {
    await tx.exec(
      `delete from audit_log where id in (select audit_id from audit_chain where seq > (select max(seq) - ${n} from audit_chain))`,
    );
    await relink(tx, `select * from links where seq <= (select max(seq) - ${n} from links)`);
    await tx.exec(
      'update audit_chain_head set (seq, hash) = (select seq, hash from audit_chain order by seq desc limit 1)',
    );
  });

/** Changes the row with `seq` and recomputes its hash and every one after it, and the head: the chain stays consistent. */
const rewrite = (db: Db, seq: number) =>
  asTrailOwner(db, async (tx) => {
    await tx.exec(
      `update audit_log set details = '{"rewritten": true}' where id = (select audit_id from audit_chain where seq = ${seq})`,
    );
    await relink(
      tx,
      `select l.seq, l.audit_id, audit_chain_links('\\x${'00'.repeat(32)}'::bytea, l.seq, a) over (order by l.seq) as hash
       from links l join audit_log a on a.id = l.audit_id`,
    );
    await tx.exec(
      'update audit_chain_head set (seq, hash) = (select seq, hash from audit_chain order by seq desc limit 1)',
    );
  });

const LINE = /^audit checkpoint: seq=(\d+) hash=[0-9a-f]{64} at=(\S+) key=([0-9a-f]{16}) signature=\S{88}\n$/;

for (const target of testDatabases('one')) {
  describe(`${target.name}: signed checkpoints of the audit trail`, () => {
    const opened: OpenedTestDatabase[] = [];
    let folder: string;
    const keys = signingKeys();

    /** A database of its own with `rows` audited reads, and the app over it with `keys`. */
    async function trail(rows: number, appKeys: AuditKeys = keys): Promise<{ db: Db; app: App }> {
      const database = await target.open();
      opened.push(database);
      for (let n = 1; n <= rows; n++)
        await auditLog(database.db).record({
          actor: admin,
          action: 'read_records',
          entity: 'patient',
          entityId: n,
          patientId: n,
        });
      await sealAll(database.db);
      return { db: database.db, app: makeTestApp(database.db, { clock: systemClock, auditKeys: appKeys }) };
    }

    before(async () => {
      folder = await mkdtemp(join(tmpdir(), 'medora-checkpoints-'));
    });
    after(async () => {
      await Promise.all(opened.map((database) => database.drop()));
      await rm(folder, { recursive: true, force: true });
    });

    it('signs a checkpoint on demand, printed as one log line, which verify then checks', async () => {
      const { db, app } = await trail(4);
      const signed = await run(app, ['audit', 'checkpoint']);
      assert.equal(signed.code, 0, signed.stderr);
      const [, seq, at] = LINE.exec(signed.stdout) ?? [];
      assert.equal(seq, '4');
      assert.match(signed.stdout, new RegExp(` key=${keys.signer?.keyId} `));

      await auditLog(db).record({ actor: admin, action: 'list', entity: 'patient' });
      await sealAll(db);
      const verified = await run(app, ['audit', 'verify']);
      assert.deepEqual(verified, {
        code: 0,
        stdout: `OK: 5 audit rows, chain intact.\nSealing: no row waits.\nOK: 1 checkpoint verified (1 in the database); the newest, of seq 4 at ${at}, has 1 row after it.\n`,
        stderr: '',
      });
    });

    it('refuses to sign without a key', async () => {
      const { app } = await trail(1, { signer: null, trusted: [] });
      const refused = await run(app, ['audit', 'checkpoint']);
      assert.deepEqual(refused, {
        code: 1,
        stdout: '',
        stderr: 'error: no signing key: set AUDIT_SIGNING_KEY_FILE to a key made by `medora audit keygen`\n',
      });
    });

    it('names the checkpoint when the newest rows were deleted and the head stepped back', async () => {
      const { db, app } = await trail(6);
      const [, , at] = LINE.exec((await run(app, ['audit', 'checkpoint'])).stdout) ?? [];
      await cutTail(db, 2);
      // The chain alone cannot tell: it is consistent, only shorter.
      assert.deepEqual((await app.audit.verifyTrail()).chain, { intact: true, rows: 4 });
      const caught = await run(app, ['audit', 'verify']);
      assert.deepEqual(caught, {
        code: 1,
        stdout: '',
        stderr: `error: audit trail broken: checkpoint of seq 6 at ${at} (in the database): the chain now ends at seq 4: rows up to seq 6 were removed from its end\n`,
      });
    });

    it('names the checkpoint when a row before it was rewritten and every hash after it recomputed', async () => {
      const { db, app } = await trail(5);
      assert.equal((await run(app, ['audit', 'checkpoint'])).code, 0);
      await rewrite(db, 2);
      assert.deepEqual((await app.audit.verifyTrail()).chain, { intact: true, rows: 5 });
      const caught = await run(app, ['audit', 'verify']);
      assert.equal(caught.code, 1);
      assert.match(
        caught.stderr,
        /^error: audit trail broken: checkpoint of seq 5 at \S+ \(in the database\): the row with seq 5 no longer has the hash signed: the chain was rewritten at or before it\n$/,
      );
    });

    it("still catches a cut tail from checkpoints kept elsewhere when the database's were deleted too", async () => {
      const { db, app } = await trail(5);
      const line = (await run(app, ['audit', 'checkpoint'])).stdout;
      const log = join(folder, `${target.name}-server.log`);
      await writeFile(
        log,
        `Medora is running at http://127.0.0.1:3000\nJun 10 10:00:00 clinic medora[812]: ${line}audit: removed 0 anonymous failed sign-ins\n`,
      );
      await cutTail(db, 1);
      await asTrailOwner(db, (tx) => tx.exec('delete from audit_checkpoints'));
      assert.equal(
        (await run(app, ['audit', 'verify'])).code,
        0,
        'with nothing left in the database, only the copy can tell',
      );

      const caught = await run(app, ['audit', 'verify', '--checkpoints', log]);
      assert.equal(caught.code, 1);
      assert.match(
        caught.stderr,
        new RegExp(
          `^error: audit trail broken: checkpoint of seq 5 at \\S+ \\(in ${log}\\): the chain now ends at seq 4: rows up to seq 5 were removed from its end\\n$`,
        ),
      );
    });

    it('reports a checkpoint signed by another key, or altered, and does not trust it', async () => {
      const { db, app } = await trail(3);
      const intruder = signingKeys();
      const forged = await run(makeTestApp(db, { clock: systemClock, auditKeys: intruder }), ['audit', 'checkpoint']);
      assert.equal(forged.code, 0);
      const genuine = (await run(app, ['audit', 'checkpoint'])).stdout;
      const log = join(folder, `${target.name}-altered.log`);
      await writeFile(log, genuine.replace(/ at=\S+ /, ' at=2030-01-01T00:00:00.000Z '));

      const caught = await run(app, ['audit', 'verify', '--checkpoints', log]);
      assert.equal(caught.code, 1);
      const lines = caught.stderr.split('\n');
      assert.match(
        lines[0] ?? '',
        new RegExp(
          `^error: audit trail broken: checkpoint of seq 3 at \\S+ \\(in the database\\): signed by key ${intruder.signer?.keyId}, which is not a trusted key: not trusted$`,
        ),
      );
      assert.match(
        lines[1] ?? '',
        new RegExp(
          `^  also: checkpoint of seq 3 at 2030-01-01T00:00:00.000Z \\(in ${log}\\): its signature does not verify with key ${keys.signer?.keyId}: forged or altered$`,
        ),
      );
      assert.equal(lines.length, 3);
    });
  });
}

describe('medora audit keygen', () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'medora-keygen-'));
  });
  after(() => rm(folder, { recursive: true, force: true }));

  it('writes an owner-only private key, prints its public key, and never overwrites one', async () => {
    const out = join(folder, 'audit-signing.pem');
    const made = await run(undefined, ['audit', 'keygen', '--out', out]);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    assert.equal((await stat(out)).mode & 0o777, 0o600);
    const [, keyId] = /^Wrote signing key ([0-9a-f]{16}) to /.exec(made.stderr) ?? [];

    const publicFile = join(folder, 'audit-signing.pub');
    await writeFile(publicFile, made.stdout);
    const loaded = await loadAuditKeys({ signingKeyFile: out, verifyKeyFile: publicFile });
    assert.equal(loaded.signer?.keyId, keyId);
    assert.deepEqual(
      loaded.trusted.map((key) => key.keyId),
      [keyId],
    );
    const auditorOnly = await loadAuditKeys({ verifyKeyFile: publicFile });
    assert.equal(auditorOnly.signer, null);
    assert.equal(auditorOnly.trusted[0]?.verifies('text', loaded.signer?.sign('text') ?? ''), true);

    const kept = await readFile(out, 'utf8');
    const again = await run(undefined, ['audit', 'keygen', '--out', out]);
    assert.deepEqual(again, {
      code: 1,
      stdout: '',
      stderr: `error: ${out} exists already: a key is never overwritten\n`,
    });
    assert.equal(await readFile(out, 'utf8'), kept);
  });

  it('is listed in the help beside checkpoint and verify --checkpoints', async () => {
    const audit = await run(undefined, ['audit', '--help']);
    assert.match(audit.stdout, /checkpoint\s+sign the chain's newest row now/);
    assert.match(audit.stdout, /keygen \[options\]\s+write a new Ed25519 signing key/);
    assert.match(
      (await run(undefined, ['audit', 'verify', '--help'])).stdout,
      /--checkpoints <file>\s+also check the checkpoint lines in FILE/,
    );
    assert.match((await run(undefined, ['db', '--help'])).stdout, /grant-app-role <role>/);
  });
});
