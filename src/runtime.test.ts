import { describe, it, mock } from './testing/node-test.ts';
import assert from 'node:assert/strict';
import type { App } from './app.ts';
import { pruneAuditDaily } from './runtime.ts';

type Pruned = { removed: number; olderThanDays: number };

const turn = () => new Promise((resolve) => setImmediate(resolve));
const DAY_MS = 86_400_000;

describe('pruneAuditDaily', () => {
  it('prunes on start and every day after, logging what it removed and a failure, until stopped', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      const answers: (() => Promise<Pruned>)[] = [
        async () => ({ removed: 3, olderThanDays: 90 }),
        async () => Promise.reject(new Error('database_busy')),
        async () => ({ removed: 0, olderThanDays: 90 }),
      ];
      let calls = 0;
      const prune = () => answers[calls++]?.() ?? Promise.resolve({ removed: 0, olderThanDays: 90 });
      // Only the audit's pruning is used.
      const app = { audit: { pruneAnonymousFailures: prune } } as unknown as App;
      const lines: string[] = [];
      const job = pruneAuditDaily(app, (line) => lines.push(line));
      for (const _day of [1, 2]) {
        await turn();
        mock.timers.tick(DAY_MS);
      }
      await turn();
      job.stop();
      mock.timers.tick(DAY_MS);
      await turn();
      assert.equal(calls, 3);
      assert.deepEqual(lines, ['audit: removed 3 anonymous failed sign-in(s) older than 90 days', 'audit: pruning failed: database_busy; trying again tomorrow']);
    } finally {
      mock.timers.reset();
    }
  });
});
