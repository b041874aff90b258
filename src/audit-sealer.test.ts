import { describe, it, mock } from './testing/node-test.ts';
import assert from 'node:assert/strict';
import { sealAuditContinuously } from './audit-sealer.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('sealAuditContinuously', () => {
  it('seals at once and every interval after, one turn at a time, logging a failure once and the recovery, until stopped', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const answers: (() => Promise<number | null>)[] = [
        async () => 3,
        async () => Promise.reject(new Error('database_busy')),
        async () => Promise.reject(new Error('database_busy')),
        async () => null,
        async () => 0,
      ];
      let calls = 0;
      let running = 0;
      const sealTrail = async () => {
        running++;
        assert.equal(running, 1, 'never two turns at once');
        try {
          return await (answers[calls++]?.() ?? Promise.resolve(0));
        } finally {
          running--;
        }
      };
      const lines: string[] = [];
      const sealer = sealAuditContinuously({ sealTrail }, (line) => lines.push(line), 100);
      for (const _turn of [1, 2, 3, 4]) {
        await turn();
        mock.timers.tick(100);
      }
      await turn();
      await sealer.stop();
      mock.timers.tick(1000);
      await turn();
      assert.equal(calls, 5);
      assert.deepEqual(lines, [
        'audit: sealing failed: database_busy; trying again every 100 ms',
        'audit: sealing works again',
      ]);
    } finally {
      mock.timers.reset();
    }
  });
});
