import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const WAIT_SEEN_WITHIN_MS = 60_000;

/**
 * Runs `change` in a transaction of its own that first takes `lock`, starts `read` once it holds it, and commits
 * once `read` is seen waiting for that lock: what `read` returns is read after the change committed. For the tests
 * of a row locked while another transaction changes what is read with it (PostgreSQL only).
 */
export async function readAfterWaiting<T>(
  url: string,
  lock: [string, unknown[]],
  change: [string, unknown[]],
  read: () => Promise<T>,
): Promise<T> {
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    await other.query('begin');
    await other.query(...lock);
    await other.query(...change);
    const reading = read();
    reading.catch(() => {});
    // Bounded by the test's own timeout and this deadline; it is what happened first that counts, not how fast.
    const deadline = Date.now() + WAIT_SEEN_WITHIN_MS;
    for (;;) {
      const { rows } = await other.query<{ n: number }>(
        `select count(*)::int as n from pg_locks where not granted and pid <> pg_backend_pid()`,
      );
      if ((rows[0]?.n ?? 0) > 0) break;
      if (Date.now() > deadline) throw new Error('the read never waited for the lock');
      await sleep(20);
    }
    await other.query('commit');
    return await reading;
  } finally {
    await other.end();
  }
}
