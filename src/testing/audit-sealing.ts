import { setTimeout as sleep } from 'node:timers/promises';
import { auditTrail } from '../db/audit.pg.ts';
import type { Queryable } from '../db/db.ts';

/**
 * Seals every committed audit row, as the server's sealer would within moments. On a shared PostgreSQL server a
 * write transaction of another database still running holds sealing back (the horizon is the server's), so this
 * tries again until nothing waits, within `timeoutMs`.
 */
export async function sealAll(db: Queryable, timeoutMs = 30_000): Promise<void> {
  const trail = auditTrail(db);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await trail.seal(1000);
    const { rows } = await trail.backlog();
    if (rows === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows} audit row(s) still unsealed after ${timeoutMs} ms`);
    await sleep(20);
  }
}
