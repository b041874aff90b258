import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { testDatabases } from '../testing/test-db.ts';

for (const target of testDatabases('both').filter((t) => t.name === 'postgres')) {
  describe('statements asked for at once in a transaction, on postgres', () => {
    it('runs them one after another on its client, each answered its own rows, without pg’s deprecated queue', async () => {
      const warnings: string[] = [];
      const listen = (warning: Error) => warnings.push(warning.message);
      process.on('warning', listen);
      const database = await target.open();
      try {
        const answers = await database.db.transaction((tx) =>
          Promise.all(
            [3, 1, 2].map((n) =>
              tx.query<{ n: number }>('select $1::int as n, pg_sleep($1::int / 100.0) is null as slept', [n]),
            ),
          ),
        );
        assert.deepEqual(
          answers.map((rows) => rows.map((r) => r.n)),
          [[3], [1], [2]],
        );
        const failed = await database.db
          .transaction((tx) => Promise.all([tx.query('select 1/0'), tx.query('select 1 as one')]))
          .catch((error: Error) => error.message);
        assert.match(String(failed), /division by zero/);
        // Warnings are emitted on the next tick.
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(
          warnings.filter((w) => w.includes('already executing a query')),
          [],
        );
      } finally {
        process.off('warning', listen);
        await database.drop();
      }
    });
  });
}
