import { describe, it, mock } from './testing/node-test.ts';
import assert from 'node:assert/strict';
import type { App } from './app.ts';
import { checkpointAuditHourly, pruneAuditDaily } from './runtime.ts';
import type { SignOutcome } from './domain/audit/checkpoint-use-cases.ts';

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
      assert.deepEqual(lines, [
        'audit: removed 3 anonymous failed sign-in(s) older than 90 days',
        'audit: pruning failed: database_busy; trying again tomorrow',
      ]);
    } finally {
      mock.timers.reset();
    }
  });
});

describe('checkpointAuditHourly', () => {
  it('signs on start and every hour after, only a moved head, logging each checkpoint as one line and a failure, until stopped', async () => {
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      const signed: SignOutcome = {
        signed: {
          seq: 7,
          hash: 'ab'.repeat(32),
          at: new Date('2026-06-10T08:00:00.000Z'),
          keyId: '0123456789abcdef',
          signature: `${'A'.repeat(86)}==`,
        },
      };
      const answers: (() => Promise<SignOutcome>)[] = [
        async () => signed,
        async () => ({ signed: null, reason: 'unchanged' }),
        async () => Promise.reject(new Error('database_busy')),
      ];
      const asked: { onlyIfMoved: boolean }[] = [];
      const signCheckpoint = (opts: { onlyIfMoved: boolean }) => {
        asked.push(opts);
        return answers[asked.length - 1]?.() ?? Promise.resolve<SignOutcome>({ signed: null, reason: 'unchanged' });
      };
      // Only the checkpoints' signing is used.
      const app = { auditCheckpoints: { signCheckpoint } } as unknown as App;
      const lines: string[] = [];
      const job = checkpointAuditHourly(app, (line) => lines.push(line));
      for (const _hour of [1, 2]) {
        await turn();
        mock.timers.tick(3_600_000);
      }
      await turn();
      job.stop();
      mock.timers.tick(3_600_000);
      await turn();
      assert.deepEqual(asked, [{ onlyIfMoved: true }, { onlyIfMoved: true }, { onlyIfMoved: true }]);
      assert.deepEqual(lines, [
        `audit checkpoint: seq=7 hash=${'ab'.repeat(32)} at=2026-06-10T08:00:00.000Z key=0123456789abcdef signature=${'A'.repeat(86)}==`,
        'audit: signing a checkpoint failed: database_busy; trying again in an hour',
      ]);
    } finally {
      mock.timers.reset();
    }
  });
});
