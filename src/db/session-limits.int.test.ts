import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { runOnConnection } from './postgres.ts';
import { serverDefaults } from './session-limits.ts';
import { DEFAULT_TIMEOUTS } from './timeouts.ts';

const serverUrl = process.env.TEST_DATABASE_URL;

describe("the role's default limits under a pooler", { skip: !serverUrl && 'needs TEST_DATABASE_URL' }, () => {
  it('are set by instances starting together, each of them, where one at a time would have done', async () => {
    const url = new URL(serverUrl ?? '');
    const name = `medora_limits_${randomBytes(5).toString('hex')}`;
    await runOnConnection(url.toString(), `create database ${name}`);
    url.pathname = `/${name}`;
    try {
      // Unlocked, half of six altering the same row at once failed: tuple concurrently updated, or a duplicate key.
      const started = await Promise.allSettled(
        Array.from({ length: 6 }, () => serverDefaults({ connectionString: url.toString() }, DEFAULT_TIMEOUTS, true)),
      );
      assert.deepEqual(
        started.map((one) => (one.status === 'fulfilled' ? 'set' : (one.reason as Error).message)),
        Array(6).fill('set'),
      );
      const read = await serverDefaults({ connectionString: url.toString() }, DEFAULT_TIMEOUTS, false);
      assert.deepEqual(read, {
        statementMs: DEFAULT_TIMEOUTS.statementMs,
        lockMs: DEFAULT_TIMEOUTS.readLockMs,
        idleInTransactionMs: DEFAULT_TIMEOUTS.idleInTransactionMs,
      });
    } finally {
      url.pathname = '/postgres';
      await runOnConnection(url.toString(), `drop database ${name} with (force)`);
    }
  });
});
