import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import pg from 'pg';
import { testDatabases } from '../testing/test-db.ts';
import { openPostgres } from './postgres.ts';
import { DEFAULT_TIMEOUTS } from './timeouts.ts';

const READ_LOCK_MS = 50;
// A read is refused within ten times its lock wait however busy the machine; writes wait twice that, so a read
// that waited like a write still fails, and a write refused as soon as a read could not pass for one.
const READ_GIVES_UP_MS = 10 * READ_LOCK_MS;
const LOCK_MS = 2 * READ_GIVES_UP_MS;

/** How long `work` took to be refused as busy. */
async function refusedAfter(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await assert.rejects(work(), { code: 'database_busy' });
  return performance.now() - started;
}

for (const target of testDatabases('both').filter((t) => t.name === 'postgres')) {
  describe('how long a statement waits for a lock, on postgres', () => {
    it("a read waits the reads' short time; a transaction, or a statement that writes on its own, the writes' longer one", async () => {
      const database = await target.open();
      const db = await openPostgres(database.url ?? '', {
        max: 1,
        timeouts: { ...DEFAULT_TIMEOUTS, readLockMs: READ_LOCK_MS, lockMs: LOCK_MS },
      });
      const holder = new pg.Client({ connectionString: database.url });
      try {
        await holder.connect();
        await holder.query('begin');
        await holder.query('lock table rooms in access exclusive mode');

        // One pooled connection: each wait below is set on the same connection the one before left.
        const read = () => db.query('select count(*) from rooms');
        assert.ok((await refusedAfter(read)) < READ_GIVES_UP_MS, 'a read gives up at once');
        assert.ok(
          (await refusedAfter(() => db.query('update rooms set name = name where id = 0'))) >= LOCK_MS * 0.9,
          'a write on its own waits',
        );
        assert.ok((await refusedAfter(read)) < READ_GIVES_UP_MS, 'and a read after it gives up at once again');
        assert.ok(
          (await refusedAfter(() => db.transaction((tx) => tx.query('select count(*) from rooms')))) >= LOCK_MS * 0.9,
          'a transaction waits',
        );
        assert.ok(
          (await refusedAfter(() => db.query('select id from rooms where id = 0 for update'))) >= LOCK_MS * 0.9,
          'a locking read waits',
        );
        assert.ok((await refusedAfter(read)) < READ_GIVES_UP_MS);

        await holder.query('rollback');
        assert.equal((await read()).length, 1, 'and reads go on once the lock is gone');
      } finally {
        await holder.end();
        await db.close();
        await database.drop();
      }
    });
  });
}
