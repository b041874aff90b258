import { outboxQueue } from '../db/outbox.pg.ts';
import type { Db } from '../db/db.ts';
import type { Clock } from '../domain/shared/clock.ts';
import { messageLink } from '../mail/start.ts';
import { smtpTransport } from '../mail/smtp.ts';
import { startOutboxWorker, type WorkerOptions } from '../mail/worker.ts';

/** The sender and links of the tests' clinic, Lakeside. */
export const LAKESIDE_FROM = '"Lakeside Clinic" <desk@lakeside.test>';

/**
 * Sends what is due now through a mail worker of the tests' clinic, as `medora serve` does (each link's token
 * minted then), and stops it; `options` adds to or changes the worker's (a retry policy, the waitlist's round).
 */
export async function sendDue(
  db: Db,
  smtpUrl: string,
  clock: Clock,
  options: Partial<WorkerOptions> = {},
): Promise<void> {
  const worker = startOutboxWorker(
    {
      queue: outboxQueue(db),
      transport: smtpTransport(smtpUrl),
      clock,
      from: LAKESIDE_FROM,
      linkFor: (kind, token) => messageLink('https://lakeside.test', kind, token),
      pollMs: 1000,
      leaseMs: 60_000,
      ...options,
    },
    { poll: false },
  );
  try {
    while ((await worker.runOnce()) > 0);
  } finally {
    await worker.stop();
  }
}
