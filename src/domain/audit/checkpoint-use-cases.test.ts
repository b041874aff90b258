import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { fixedClock } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import {
  checkpointLine,
  type ChainLink,
  type Checkpoint,
  type CheckpointFile,
  type CheckpointSigner,
} from './checkpoint.ts';
import { signCheckpoint, verifyCheckpoints, type CheckpointDeps } from './checkpoint-use-cases.ts';

/** A stand-in for Ed25519: a digest of the key's secret and the text, shaped like a signature (64 bytes, base64). */
function fakeSigner(secret: string, keyId: string): CheckpointSigner {
  const sign = (text: string) => createHash('sha512').update(`${secret}\n${text}`).digest('base64');
  return { keyId, sign, verifies: (text, signature) => signature === sign(text) };
}

const ours = fakeSigner('ours', '00000000000000aa');
const theirs = fakeSigner('theirs', '00000000000000bb');
const hashOf = (seq: number, version = '') => createHash('sha256').update(`row ${seq}${version}`).digest('hex');

/** A chain of `rows` rows and the checkpoints stored beside it, as the database would keep them. */
function fakeTrail(
  rows: number,
  opts: { signer?: CheckpointSigner | null; trusted?: CheckpointSigner[]; at?: string } = {},
) {
  let chain: ChainLink[] = Array.from({ length: rows }, (_, i) => ({ seq: i + 1, hash: hashOf(i + 1) }));
  // Bumped by a rewrite: every hash from the rewritten row on differs, later rows' too.
  let version = '';
  const stored: Checkpoint[] = [];
  let locks = 0;
  const stores = {
    links: {
      newest: async () => chain.at(-1) ?? null,
      hashesAt: async (seqs: number[]) =>
        new Map(chain.filter((link) => seqs.includes(link.seq)).map((link) => [link.seq, link.hash])),
    },
    checkpoints: {
      lock: async () => void locks++,
      latest: async () => stored.at(-1) ?? null,
      all: async () => [...stored],
      add: async (checkpoint: Checkpoint) => void stored.push(checkpoint),
    },
  };
  const deps: CheckpointDeps = {
    ...stores,
    clock: fixedClock(opts.at ?? '2026-06-10T08:00:00.000Z'),
    signer: opts.signer === undefined ? ours : opts.signer,
    trustedKeys: opts.trusted ?? [ours],
    transaction: (fn) => fn(stores),
  };
  return {
    deps,
    stored,
    locks: () => locks,
    append: (n: number) => {
      const last = chain.at(-1)?.seq ?? 0;
      chain = [
        ...chain,
        ...Array.from({ length: n }, (_, i) => ({ seq: last + i + 1, hash: hashOf(last + i + 1, version) })),
      ];
    },
    /** What the owner can do: delete the newest rows, the head stepped back with them. */
    cutTail: (n: number) => {
      chain = chain.slice(0, -n);
    },
    /** What the owner can do: change row `seq` and recompute every hash from it on. */
    rewriteFrom: (seq: number) => {
      version += "'";
      chain = chain.map((link) => (link.seq >= seq ? { ...link, hash: hashOf(link.seq, version) } : link));
    },
  };
}

const file = (source: string, texts: string[]): CheckpointFile => ({
  source,
  lines: texts.map((text, i) => ({ number: i + 1, text })),
});

describe('signing a checkpoint', () => {
  it("signs the newest link at the clock's time, under the lock, and stores it", async () => {
    const trail = fakeTrail(3);
    const outcome = await signCheckpoint(trail.deps, { onlyIfMoved: false });
    assert.ok(outcome.signed);
    const { seq, hash, at, keyId } = outcome.signed;
    assert.deepEqual(
      { seq, hash, at: at.toISOString(), keyId },
      { seq: 3, hash: hashOf(3), at: '2026-06-10T08:00:00.000Z', keyId: ours.keyId },
    );
    assert.deepEqual(trail.stored, [outcome.signed]);
    assert.equal(trail.locks(), 1);
    assert.ok((await verifyCheckpoints(trail.deps)).problems.length === 0);
  });

  it('refuses without a signing key', async () => {
    const trail = fakeTrail(3, { signer: null });
    await assert.rejects(
      signCheckpoint(trail.deps, { onlyIfMoved: false }),
      (error: unknown) => error instanceof DomainError && error.code === 'no_signing_key',
    );
  });

  it('signs nothing while the chain is empty', async () => {
    const trail = fakeTrail(0);
    assert.deepEqual(await signCheckpoint(trail.deps, { onlyIfMoved: true }), { signed: null, reason: 'empty' });
    assert.deepEqual(trail.stored, []);
  });

  it('hourly, skips a head its own last checkpoint covers, but not one only another key claims', async () => {
    const trail = fakeTrail(3);
    await signCheckpoint(trail.deps, { onlyIfMoved: true });
    assert.deepEqual(await signCheckpoint(trail.deps, { onlyIfMoved: true }), { signed: null, reason: 'unchanged' });
    // On demand it signs again: a later time for the same head.
    assert.ok((await signCheckpoint(trail.deps, { onlyIfMoved: false })).signed);
    trail.append(1);
    assert.equal((await signCheckpoint(trail.deps, { onlyIfMoved: true })).signed?.seq, 4);

    const forged = { ...checkpointOf(trail, 4), keyId: ours.keyId, signature: theirs.sign('anything') };
    trail.stored.push(forged);
    assert.equal((await signCheckpoint(trail.deps, { onlyIfMoved: true })).signed?.seq, 4);
    assert.equal(trail.stored.length, 5);
  });
});

const checkpointOf = (trail: ReturnType<typeof fakeTrail>, seq: number): Checkpoint => {
  const found = trail.stored.find((c) => c.seq === seq);
  assert.ok(found, `a checkpoint of seq ${seq}`);
  return found;
};

describe('verifying the checkpoints', () => {
  it('reports how many it checked, the newest one and the rows after it', async () => {
    const trail = fakeTrail(3);
    await signCheckpoint(trail.deps, { onlyIfMoved: false });
    trail.append(2);
    const report = await verifyCheckpoints(trail.deps);
    assert.deepEqual(report, {
      checked: 1,
      inDatabase: 1,
      inFiles: [],
      signaturesChecked: true,
      newest: { seq: 3, at: new Date('2026-06-10T08:00:00.000Z'), rowsAfter: 2 },
      problems: [],
    });
  });

  it('names the checkpoint when the newest rows were deleted and the head stepped back', async () => {
    const trail = fakeTrail(5);
    await signCheckpoint(trail.deps, { onlyIfMoved: false });
    trail.cutTail(2);
    const report = await verifyCheckpoints(trail.deps);
    assert.deepEqual(report.problems, [
      'checkpoint of seq 5 at 2026-06-10T08:00:00.000Z (in the database): the chain now ends at seq 3: rows up to seq 5 were removed from its end',
    ]);
    assert.equal(report.newest, null);
  });

  it('names the checkpoint when a row before it was rewritten with every hash after it, and new rows written since', async () => {
    const trail = fakeTrail(5);
    await signCheckpoint(trail.deps, { onlyIfMoved: false });
    trail.cutTail(2);
    trail.rewriteFrom(2);
    trail.append(4);
    const [problem] = (await verifyCheckpoints(trail.deps)).problems;
    assert.match(
      problem ?? '',
      /^checkpoint of seq 5 .*: the row with seq 5 no longer has the hash signed: the chain was rewritten at or before it$/,
    );
  });

  it("checks checkpoints from a file when the database's were deleted, and names the ones missing from it", async () => {
    const trail = fakeTrail(5);
    const signed = await signCheckpoint(trail.deps, { onlyIfMoved: false });
    assert.ok(signed.signed);
    const log = file('server.log', [
      'starting',
      checkpointLine(signed.signed),
      `Jun 10 medora: ${checkpointLine(signed.signed)}`,
    ]);
    trail.stored.length = 0;
    const intact = await verifyCheckpoints(trail.deps, [log]);
    assert.deepEqual(intact.problems, [
      'checkpoint of seq 5 at 2026-06-10T08:00:00.000Z (in server.log): it is missing from the database (audit_checkpoints): checkpoints were removed',
    ]);
    trail.cutTail(1);
    const cut = await verifyCheckpoints(trail.deps, [log]);
    assert.match(cut.problems[0] ?? '', /\(in server\.log\): the chain now ends at seq 4/);
  });

  it('counts a checkpoint in the database and a file once', async () => {
    const trail = fakeTrail(2);
    const signed = await signCheckpoint(trail.deps, { onlyIfMoved: false });
    assert.ok(signed.signed);
    const report = await verifyCheckpoints(trail.deps, [file('a.log', [checkpointLine(signed.signed)])]);
    assert.deepEqual(
      { checked: report.checked, inDatabase: report.inDatabase, inFiles: report.inFiles, problems: report.problems },
      {
        checked: 1,
        inDatabase: 1,
        inFiles: [{ source: 'a.log', checkpoints: 1 }],
        problems: [],
      },
    );
  });

  it('does not trust a checkpoint of another key or with an altered signature, and reports both', async () => {
    const trail = fakeTrail(3);
    await signCheckpoint({ ...trail.deps, signer: theirs }, { onlyIfMoved: false });
    const genuine = await signCheckpoint(trail.deps, { onlyIfMoved: false });
    assert.ok(genuine.signed);
    const altered = { ...genuine.signed, at: new Date('2026-06-10T09:00:00.000Z') };
    const report = await verifyCheckpoints(trail.deps, [file('log', [checkpointLine(altered)])]);
    assert.deepEqual(report.problems, [
      `checkpoint of seq 3 at 2026-06-10T08:00:00.000Z (in the database): signed by key ${theirs.keyId}, which is not a trusted key: not trusted`,
      `checkpoint of seq 3 at 2026-06-10T09:00:00.000Z (in log): its signature does not verify with key ${ours.keyId}: forged or altered`,
    ]);
    assert.equal(report.newest?.seq, 3);
  });

  it('trusts every key it is given, as after a key was replaced', async () => {
    const trail = fakeTrail(3, { trusted: [ours, theirs] });
    await signCheckpoint({ ...trail.deps, signer: theirs }, { onlyIfMoved: false });
    await signCheckpoint(trail.deps, { onlyIfMoved: false });
    assert.deepEqual((await verifyCheckpoints(trail.deps)).problems, []);
  });

  it('without a key, compares checkpoints with the chain and says their signatures went unchecked', async () => {
    const trail = fakeTrail(3, { trusted: [] });
    await signCheckpoint({ ...trail.deps, signer: theirs }, { onlyIfMoved: false });
    const report = await verifyCheckpoints(trail.deps);
    assert.deepEqual(
      { signaturesChecked: report.signaturesChecked, problems: report.problems },
      { signaturesChecked: false, problems: [] },
    );
    trail.cutTail(1);
    assert.equal((await verifyCheckpoints(trail.deps)).problems.length, 1);
  });

  it('reports a line that mentions a checkpoint but is not one', async () => {
    const trail = fakeTrail(1);
    const report = await verifyCheckpoints(trail.deps, [file('log', ['ok', 'audit checkpoint: seq=1 hash=00'])]);
    assert.deepEqual(report.problems, ['line 2 of log mentions an audit checkpoint but is not one']);
  });
});
