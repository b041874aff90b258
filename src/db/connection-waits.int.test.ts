import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { testDatabases } from '../testing/test-db.ts';
import { openPostgres } from './postgres.ts';
import { DEFAULT_TIMEOUTS } from './timeouts.ts';

for (const target of testDatabases('both').filter((t) => t.name === 'postgres')) {
  describe('how long a request waits for a pooled connection, on postgres', () => {
    it("a read is refused after the reads' short wait; a write, and a write request's read, wait their turn", async () => {
      const database = await target.open();
      // One connection, a read's wait far shorter than a write's: which of them is refused does not depend on timing.
      const db = await openPostgres(database.url ?? '', {
        max: 1,
        timeouts: { ...DEFAULT_TIMEOUTS, acquireMs: 50, writeAcquireMs: 60_000 },
      });
      let letGo = () => {};
      const held = new Promise<void>((resolve) => (letGo = resolve));
      try {
        const holding = db.transaction(async (tx) => {
          await tx.query('select 1');
          await held;
        });
        await assert.rejects(db.query('select count(*) from rooms'), { kind: 'unavailable', code: 'database_busy' });
        const booking = db.transaction((tx) => tx.query<{ n: number }>('select count(*)::int as n from rooms'));
        const writing = db.query<{ n: number }>('update rooms set name = name where id = 0 returning 1 as n');
        // A write request's session lookup: a read that waits as the write will.
        const lookup = db.query<{ n: number }>('select count(*)::int as n from rooms', [], { waitsAsWrite: true });
        letGo();
        await holding;
        assert.deepEqual(await booking, [{ n: 0 }]);
        assert.deepEqual(await writing, []);
        assert.deepEqual(await lookup, [{ n: 0 }]);
        // The refused read's place in the pool's queue gave its connection straight back: the pool still serves.
        assert.deepEqual(await db.query('select 1 as one'), [{ one: 1 }]);
      } finally {
        letGo();
        await db.close();
        await database.drop();
      }
    });
  });
}
