import { describe, it } from './testing/node-test.ts';
import assert from 'node:assert/strict';
import { limitConcurrency } from './security.ts';

describe('limitConcurrency', () => {
  it('never runs more tasks at once than its limit, and runs them all', async () => {
    const limit = limitConcurrency(2);
    let running = 0;
    let peak = 0;
    const task = async (n: number) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return n;
    };
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => limit(() => task(n))));
    assert.deepEqual(results, [1, 2, 3, 4, 5]);
    assert.equal(peak, 2);
  });

  it('frees its slot when a task fails', async () => {
    const limit = limitConcurrency(1);
    await assert.rejects(
      limit(async () => {
        throw new Error('boom');
      }),
    );
    assert.equal(await limit(async () => 'next'), 'next');
  });
});
