/**
 * The outbox's sender: claims due messages (any number of workers, in any number of processes, each taking
 * others), sends each once over SMTP and records the outcome. A passing failure is tried again later, each wait
 * twice the last; a lasting one, or too many, dead-letters the message with its reason for the Messages screen.
 */
import { classify, nextAttempt, DEFAULT_RETRY, type RetryPolicy } from '../domain/notifications/delivery.ts';
import { LINK_PLACEHOLDER, type MessageKind } from '../domain/notifications/message.ts';
import type { Clock } from '../domain/shared/clock.ts';
import type { ClaimedMessage, OutboxQueue } from '../db/outbox.pg.ts';
import type { MailTransport } from './smtp.ts';

export const NO_MAIL_SERVER = 'not sent: no mail server configured (SMTP_URL)';
const UNWANTED_REMINDER = 'not sent: the visit is no longer scheduled, the patient turned reminders off, or the address is not verified';

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
  /** How long a claimed message is this worker's; past it, another worker takes it over. */
  leaseMs: number;
  batch?: number;
  retry?: RetryPolicy;
  /** Timed work of the same rounds that may queue messages of its own (the waitlist's expired holds). */
  beforeRound?: () => Promise<unknown>;
  log?: (line: string) => void;
}

export interface OutboxWorker {
  /** Sends what is due now; answers how many messages it took. */
  runOnce(): Promise<number>;
  /** Stops polling and waits for the round under way. */
  stop(): Promise<void>;
}

export function startOutboxWorker(options: WorkerOptions, { poll = true } = {}): OutboxWorker {
  const { queue, transport, clock, retry = DEFAULT_RETRY, batch = 20, log = () => {} } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<number> = Promise.resolve(0);

  const deliver = async (message: ClaimedMessage): Promise<void> => {
    if (!transport) return queue.close(message.id, 'not_sent', NO_MAIL_SERVER);
    if (message.kind === 'reminder' && !(await queue.reminderWanted(message.id))) return queue.close(message.id, 'skipped', UNWANTED_REMINDER);
    const link = message.linkToken ? options.linkFor(message.kind, message.linkToken) : '';
    try {
      await transport.send({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text.replaceAll(LINK_PLACEHOLDER, link),
        html: message.html.replaceAll(LINK_PLACEHOLDER, link),
        attachments: message.attachments,
        messageId: `<outbox-${message.id}@${options.from.replace(/^.*@/, '').replace(/>.*$/, '')}>`,
      });
      await queue.sent(message.id, clock.now());
    } catch (error) {
      const failure = classify(error as { responseCode?: number; message?: string });
      const next = nextAttempt(failure, message.attempts, clock.now(), retry);
      log(`mail ${message.id} to ${message.to}: attempt ${message.attempts} failed: ${failure.reason}`);
      if (next) await queue.retry(message.id, next, failure.reason);
      else await queue.close(message.id, 'dead', `given up after ${message.attempts} attempt(s): ${failure.reason}`);
    }
  };

  const runOnce = async (): Promise<number> => {
    await options.beforeRound?.();
    const now = clock.now();
    const claimed = await queue.claim(now, new Date(now.getTime() + options.leaseMs), batch);
    for (const message of claimed) await deliver(message);
    return claimed.length;
  };

  const tick = () => {
    round = runOnce()
      .catch((error: unknown) => {
        // The database may be away for a moment; the next round tries again.
        log(`mail worker: ${(error as Error).message}`);
        return 0;
      })
      .then((taken) => {
        // A full batch suggests more are due: go on at once.
        if (!stopped) timer = setTimeout(tick, taken >= batch ? 0 : options.pollMs);
        return taken;
      });
  };
  if (poll) timer = setTimeout(tick, 0);

  return {
    runOnce,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
      transport?.close();
    },
  };
}
