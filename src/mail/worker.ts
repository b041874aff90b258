/**
 * The outbox's sender: claims due messages (any number of workers, in any number of processes, each taking
 * others), sends each once over SMTP and records the outcome. A passing failure is tried again later, each wait
 * twice the last; a lasting one, or too many, dead-letters the message with its reason for the Messages screen.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  classify,
  nextAttempt,
  DEFAULT_RETRY,
  DEFAULT_SEND_CONCURRENCY,
  type RetryPolicy,
} from '../domain/notifications/delivery.ts';
import { LINK_PLACEHOLDER, type MessageKind } from '../domain/notifications/message.ts';
import type { Clock } from '../domain/shared/clock.ts';
import type { ClaimedMessage, OutboxQueue } from '../domain/notifications/ports.ts';
import type { MailTransport, OutgoingMail } from './smtp.ts';
import { startLeaseWorker, type DeliveryContext, type LeaseWorker } from '../outbox/lease-worker.ts';

export const NO_MAIL_SERVER = 'not sent: no mail server configured (SMTP_URL)';
const UNWANTED_REMINDER =
  'not sent: the visit is no longer scheduled, the patient turned reminders off, or the address is not verified';
const ACKNOWLEDGED_CRITICAL = 'not sent: the critical result was acknowledged before it escalated';
const SPENT_LINK = 'not sent: its link no longer works (used, replaced by a newer one, closed or expired)';

/** A link's token, as bearerTokens (src/security.ts) issues and digests them, which the links' consumers look up. */
const newLinkToken = () => randomBytes(32).toString('base64url');
const digestOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface WorkerOptions {
  queue: OutboxQueue;
  /** None without SMTP_URL: messages are kept, marked not sent. */
  transport: MailTransport | undefined;
  clock: Clock;
  /** `"Clinic name" <address>` */
  from: string;
  /** The address a message's link leads to, with its token. */
  linkFor: (kind: MessageKind, token: string) => string;
  pollMs: number;
  /**
   * How long a claimed message stays this worker's unless renewed. It is renewed every third of that while the
   * message is sent, so it runs out only when the worker stops renewing (it died or lost the database).
   */
  leaseMs: number;
  /** Messages sent at once, each under its own lease: a message the server is slow to take holds up only itself. */
  concurrency?: number;
  /** Names this worker in the messages it holds; unique per worker unless given. */
  workerId?: string;
  retry?: RetryPolicy;
  /** Timed work of the same rounds that may queue messages of its own (the waitlist's expired holds). */
  beforeRound?: () => Promise<unknown>;
  log?: (line: string) => void;
}

export type OutboxWorker = LeaseWorker;

export function startOutboxWorker(options: WorkerOptions, { poll = true } = {}): OutboxWorker {
  const { queue, transport, clock, retry = DEFAULT_RETRY, log = () => {} } = options;

  const mailOf = (message: ClaimedMessage, link: string): OutgoingMail => ({
    from: options.from,
    to: message.to,
    subject: message.subject,
    text: message.text.replaceAll(LINK_PLACEHOLDER, link),
    html: message.html.replaceAll(LINK_PLACEHOLDER, link),
    attachments: message.attachments,
    messageId: `<outbox-${message.id}@${options.from.replace(/^.*@/, '').replace(/>.*$/, '')}>`,
  });

  const recordSent = async (message: ClaimedMessage, { holder, record }: DeliveryContext) => {
    const recorded = await record(() => queue.sent(message.id, clock.now()));
    if (!recorded)
      log(
        `mail ${message.id} to ${message.to}: delivered, but already recorded as done: another worker that took it over may have sent it too`,
      );
    else if (recorded.heldBy !== holder)
      log(
        `mail ${message.id} to ${message.to}: delivered after its lease ran out and passed on: another copy may go out too`,
      );
  };

  const recordFailure = async (message: ClaimedMessage, error: unknown, { holder, record }: DeliveryContext) => {
    const failure = classify(error as { responseCode?: number; message?: string });
    const next = nextAttempt(failure, message.attempts, clock.now(), retry);
    log(`mail ${message.id} to ${message.to}: attempt ${message.attempts} failed: ${failure.reason}`);
    const held = next
      ? await record(() => queue.retry(holder, message.id, next, failure.reason))
      : await record(() =>
          queue.close(holder, message.id, 'dead', `given up after ${message.attempts} attempt(s): ${failure.reason}`),
        );
    if (!held) log(`mail ${message.id}: its lease passed to another worker, whose attempt decides`);
  };

  /**
   * The message's link with a token minted for this attempt (none before: nothing usable waits in the database),
   * '' for a message without one; undefined when the message was closed or passed on instead.
   */
  const linkOf = async (message: ClaimedMessage, { holder, record }: DeliveryContext): Promise<string | undefined> => {
    if (message.linkId === null) return '';
    const token = newLinkToken();
    const minted = await record(() => queue.mintLink(holder, message.id, digestOf(token), clock.now()));
    if (minted === 'minted') return options.linkFor(message.kind, token);
    if (minted === 'spent') await record(() => queue.close(holder, message.id, 'skipped', SPENT_LINK));
    else log(`mail ${message.id}: its lease passed to another worker, which sends it`);
    return undefined;
  };

  const deliver = async (message: ClaimedMessage, context: DeliveryContext): Promise<void> => {
    const { holder, record } = context;
    if (!transport) {
      await record(() => queue.close(holder, message.id, 'not_sent', NO_MAIL_SERVER));
      return;
    }
    if (message.kind === 'reminder' && !(await queue.reminderWanted(message.id))) {
      await record(() => queue.close(holder, message.id, 'skipped', UNWANTED_REMINDER));
      return;
    }
    if (message.kind === 'critical_result_escalation' && !(await queue.escalationWanted(message.id))) {
      await record(() => queue.close(holder, message.id, 'skipped', ACKNOWLEDGED_CRITICAL));
      return;
    }
    const link = await linkOf(message, context);
    if (link === undefined) return;
    try {
      await transport.send(mailOf(message, link));
    } catch (error) {
      return recordFailure(message, error, context);
    }
    await recordSent(message, context);
  };

  return startLeaseWorker(
    {
      name: 'mail',
      queue,
      clock,
      pollMs: options.pollMs,
      leaseMs: options.leaseMs,
      concurrency: options.concurrency ?? DEFAULT_SEND_CONCURRENCY,
      workerId: options.workerId,
      beforeRound: options.beforeRound,
      deliver,
      close: () => transport?.close(),
      log,
    },
    { poll },
  );
}
