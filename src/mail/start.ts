import type { App } from '../app.ts';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/db.ts';
import { outboxQueue } from '../db/outbox.pg.ts';
import type { MessageKind } from '../domain/notifications/message.ts';
import { cancelAppointmentLink, resetPasswordLink, verifyEmailLink, waitlistOfferLink } from '../links.ts';
import { smtpTransport } from './smtp.ts';
import { startOutboxWorker, type OutboxWorker } from './worker.ts';

/** The address of a message's link: where the token leads, at the clinic's public address. */
export function messageLink(publicUrl: string, kind: MessageKind, token: string): string {
  if (kind === 'password_reset') return resetPasswordLink(publicUrl, token);
  if (kind === 'email_verification') return verifyEmailLink(publicUrl, token);
  if (kind === 'waitlist_offer') return waitlistOfferLink(publicUrl, token);
  return cancelAppointmentLink(publicUrl, token);
}

/** The mail worker of `medora serve` and `medora worker` over the outbox in `db`, as the configuration asks. */
export function startMailWorker(app: App, db: Queryable, config: Config, log: (line: string) => void): OutboxWorker {
  return startOutboxWorker({
    queue: outboxQueue(db),
    transport: config.smtpUrl ? smtpTransport(config.smtpUrl, { timeoutMs: config.smtpTimeoutMs }) : undefined,
    clock: app.clock,
    from: `"${config.clinicName.replace(/"/g, "'")}" <${config.mailFrom}>`,
    linkFor: (kind, token) => messageLink(config.publicUrl, kind, token),
    pollMs: config.outboxPollMs,
    leaseMs: config.outboxLeaseMs,
    concurrency: config.outboxConcurrency,
    beforeRound: () => app.waitlist.expireOffers(),
    log,
  });
}
