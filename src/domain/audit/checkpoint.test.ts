import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { checkpointLine, checkpointText, parseCheckpointLine, type Checkpoint } from './checkpoint.ts';

const checkpoint: Checkpoint = {
  seq: 42,
  hash: 'ab'.repeat(32),
  at: new Date('2026-06-10T08:00:00.123Z'),
  keyId: '0123456789abcdef',
  signature: `${'A'.repeat(85)}w==`,
};

describe('a checkpoint', () => {
  it('signs a versioned text of its seq, hash and time, nothing else', () => {
    assert.equal(
      checkpointText(checkpoint),
      `medora-audit-checkpoint:v1\n42\n${'ab'.repeat(32)}\n2026-06-10T08:00:00.123Z`,
    );
    const otherKey: Checkpoint = { ...checkpoint, keyId: 'ffffffffffffffff', signature: 'x' };
    assert.equal(checkpointText(otherKey), checkpointText(checkpoint));
  });

  it('reads back the log line it is printed as, after whatever the log put before it', () => {
    const line = checkpointLine(checkpoint);
    assert.equal(
      line,
      `audit checkpoint: seq=42 hash=${'ab'.repeat(32)} at=2026-06-10T08:00:00.123Z key=0123456789abcdef signature=${checkpoint.signature}`,
    );
    assert.deepEqual(parseCheckpointLine(line), checkpoint);
    assert.deepEqual(parseCheckpointLine(`Jun 10 10:00:00 host medora[812]: ${line}`), checkpoint);
  });

  it('reads no checkpoint from a line that spells one differently than it is signed', () => {
    const line = checkpointLine(checkpoint);
    for (const altered of [
      line.replace('at=2026-06-10T08:00:00.123Z', 'at=2026-06-10T08:00:00.123+00:00'),
      line.replace('at=2026-06-10T08:00:00.123Z', 'at=2026-06-10T08:00:00Z'),
      line.replace('seq=42', 'seq=042'),
      line.replace('hash=abab', 'hash=ABAB'),
      line.replace(/signature=\S+/, 'signature=short=='),
      `${line}trailing`,
      'audit checkpoint: failed',
    ]) {
      assert.equal(parseCheckpointLine(altered), null, altered);
    }
  });
});
