/**
 * The outbox's sender: claims due messages (any number of workers, in any number of processes, each taking
 * others), sends each once over SMTP and records the outcome. A passing failure is tried again later, each wait
 * twice the last; a lasting one, or too many, dead-letters the message with its reason for the Messages screen.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  classify,
  nextAttempt,
  DEFAULT_RETRY,
  DEFAULT_SEND_CONCURRENCY,
  type RetryPolicy,
} from '../domain/notifications/delivery.ts';
import { LINK_PLACEHOLDER, type MessageKind } from '../domain/notifications/message.ts';
import type { Clock } from '../domain/shared/clock.ts';
import { DomainError } from '../domain/shared/errors.ts';
import type { ClaimedMessage, OutboxQueue } from '../domain/notifications/ports.ts';
import type { MailTransport, OutgoingMail } from './smtp.ts';

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

export interface OutboxWorker {
  /** Sends what is due now, up to `concurrency` messages at once; answers how many messages it took. */
  runOnce(): Promise<number>;
  /** Stops polling and waits for the messages under way. */
  stop(): Promise<void>;
}

function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function startOutboxWorker(options: WorkerOptions, { poll = true } = {}): OutboxWorker {
  const {
    queue,
    transport,
    clock,
    retry = DEFAULT_RETRY,
    concurrency = DEFAULT_SEND_CONCURRENCY,
    log = () => {},
  } = options;
  const holder = options.workerId ?? newWorkerId();
  /** Messages under way, by id, each with the promise of its whole attempt. */
  const sending = new Map<number, Promise<void>>();
  const leaseEnd = () => new Date(clock.now().getTime() + options.leaseMs);
  const leases = leaseKeeper(() => queue.renew(holder, [...sending.keys()], leaseEnd()), options.leaseMs / 3, log);

  const mailOf = (message: ClaimedMessage, link: string): OutgoingMail => ({
    from: options.from,
    to: message.to,
    subject: message.subject,
    text: message.text.replaceAll(LINK_PLACEHOLDER, link),
    html: message.html.replaceAll(LINK_PLACEHOLDER, link),
    attachments: message.attachments,
    messageId: `<outbox-${message.id}@${options.from.replace(/^.*@/, '').replace(/>.*$/, '')}>`,
  });

  /**
   * Writes an outcome, again after a pause if the database was away for a moment: the message stays ours (its
   * lease renewed) meanwhile, where an outcome lost would have it sent again once the lease ran out.
   */
  const record = async <T>(write: () => Promise<T>): Promise<T> => {
    for (let tries = 1; ; tries++) {
      try {
        return await write();
      } catch (error) {
        // Shutting down, the database takes nothing more: the lease runs out and another worker sends it.
        if (tries >= 3 || stopped || (error instanceof DomainError && error.code === 'shutting_down')) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000, options.leaseMs / 4)));
      }
    }
  };

  const recordSent = async (message: ClaimedMessage) => {
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

  const recordFailure = async (message: ClaimedMessage, error: unknown) => {
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
  const linkOf = async (message: ClaimedMessage): Promise<string | undefined> => {
    if (message.linkId === null) return '';
    const token = newLinkToken();
    const minted = await record(() => queue.mintLink(holder, message.id, digestOf(token), clock.now()));
    if (minted === 'minted') return options.linkFor(message.kind, token);
    if (minted === 'spent') await record(() => queue.close(holder, message.id, 'skipped', SPENT_LINK));
    else log(`mail ${message.id}: its lease passed to another worker, which sends it`);
    return undefined;
  };

  const deliver = async (message: ClaimedMessage): Promise<void> => {
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
    const link = await linkOf(message);
    if (link === undefined) return;
    try {
      await transport.send(mailOf(message, link));
    } catch (error) {
      return recordFailure(message, error);
    }
    await recordSent(message);
  };

  const start = (message: ClaimedMessage) => {
    const attempt = deliver(message)
      .catch((error: unknown) =>
        log(`mail ${message.id}: ${errorText(error)}; another worker takes it over once its lease runs out`),
      )
      .finally(() => {
        sending.delete(message.id);
        if (sending.size === 0) leases.pause();
      });
    sending.set(message.id, attempt);
    leases.resume();
  };

  /** Claims due messages for the free places and starts sending them; answers how many it took. */
  const claim = async (free: number): Promise<number> => {
    if (free <= 0) return 0;
    const now = clock.now();
    // A message whose lease ran out while we still send it (renewals that failed) is not ours to send again.
    const claimed = await queue.claim(holder, now, new Date(now.getTime() + options.leaseMs), free, [
      ...sending.keys(),
    ]);
    for (const message of claimed) start(message);
    return claimed.length;
  };

  const runOnce = async (): Promise<number> => {
    await options.beforeRound?.();
    const taken = await claim(concurrency - sending.size);
    await Promise.all(sending.values());
    return taken;
  };

  let stopped = false;
  let wake = () => {};
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** A round: claims for every free place, and as places free, until fewer messages are due than places. */
  const round = async () => {
    await options.beforeRound?.();
    while (!stopped) {
      const free = concurrency - sending.size;
      if (free === 0) await Promise.race(sending.values());
      else if ((await claim(free)) < free) return;
    }
  };

  const polling = async () => {
    while (!stopped) {
      // The database may be away for a moment; the next round tries again.
      await round().catch((error: unknown) => log(`mail worker: ${errorText(error)}`));
      if (!stopped) await pause(options.pollMs);
    }
  };
  const loop = poll ? polling() : Promise.resolve();

  return {
    runOnce,
    stop: async () => {
      stopped = true;
      wake();
      await loop;
      await Promise.all(sending.values());
      await leases.stop();
      transport?.close();
    },
  };
}

/** Renews the worker's leases every `everyMs` while it has messages under way, one renewal at a time. */
function leaseKeeper(renew: () => Promise<unknown>, everyMs: number, log: (line: string) => void) {
  let timer: NodeJS.Timeout | undefined;
  let renewal: Promise<unknown> | undefined;
  const beat = () => {
    renewal ??= renew()
      .catch((error: unknown) => log(`mail worker: renewing leases: ${errorText(error)}`))
      .finally(() => (renewal = undefined));
  };
  return {
    resume: () => {
      timer ??= setInterval(beat, everyMs);
    },
    pause: () => {
      clearInterval(timer);
      timer = undefined;
    },
    stop: async () => {
      clearInterval(timer);
      timer = undefined;
      await renewal;
    },
  };
}
