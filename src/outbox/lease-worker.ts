/**
 * The outboxes' sender loop, one for e-mails and HL7 messages alike: claims due messages under a lease in this
 * worker's name (any number of workers, in any number of processes), renews the leases while they are sent, and
 * hands each to `deliver`, which records its outcome. A worker that dies loses its messages to another once their
 * leases run out; a write of an outcome that fails for a moment is tried again while the lease is still renewed.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../domain/shared/clock.ts';
import { DomainError } from '../domain/shared/errors.ts';

/** A claimed message: its id and how many attempts it has had, this one included. */
export interface Claimed {
  id: number;
  attempts: number;
}

export interface LeaseQueue<M extends Claimed> {
  /** Claims up to `limit` due messages (and messages whose lease ran out), none of `sending`, for `holder`. */
  claim(holder: string, now: Date, leaseUntil: Date, limit: number, sending: number[]): Promise<M[]>;
  /** Extends the leases `holder` still holds of `ids`; answers those it held. */
  renew(holder: string, ids: number[], leaseUntil: Date): Promise<number[]>;
}

export interface LeaseWorkerOptions<M extends Claimed> {
  /** Names the worker in its log lines: `mail`, `hl7`. */
  name: string;
  queue: LeaseQueue<M>;
  clock: Clock;
  pollMs: number;
  /** How long a claimed message stays this worker's unless renewed; renewed every third of that while it is sent. */
  leaseMs: number;
  /** Messages sent at once, each under its own lease. */
  concurrency: number;
  workerId?: string;
  /** Timed work of the same rounds, before each claims. */
  beforeRound?: () => Promise<unknown>;
  /** Sends one message and records its outcome (with `record`, whose writes outlast a database away for a moment). */
  deliver(message: M, context: DeliveryContext): Promise<void>;
  /** After the worker stopped and its messages are done. */
  close?: () => void;
  log?: (line: string) => void;
}

export interface DeliveryContext {
  holder: string;
  record<T>(write: () => Promise<T>): Promise<T>;
}

export interface LeaseWorker {
  /** Sends what is due now, up to `concurrency` messages at once; answers how many messages it took. */
  runOnce(): Promise<number>;
  /** Stops polling and waits for the messages under way. */
  stop(): Promise<void>;
}

export const newWorkerId = () => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function startLeaseWorker<M extends Claimed>(options: LeaseWorkerOptions<M>, { poll = true } = {}): LeaseWorker {
  const { name, queue, clock, concurrency, log = () => {} } = options;
  const holder = options.workerId ?? newWorkerId();
  /** Messages under way, by id, each with the promise of its whole attempt. */
  const sending = new Map<number, Promise<void>>();
  const leaseEnd = () => new Date(clock.now().getTime() + options.leaseMs);
  const leases = leaseKeeper(
    () => queue.renew(holder, [...sending.keys()], leaseEnd()),
    options.leaseMs / 3,
    (line) => log(`${name} worker: ${line}`),
  );
  let stopped = false;

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

  const start = (message: M) => {
    const attempt = options
      .deliver(message, { holder, record })
      .catch((error: unknown) =>
        log(`${name} ${message.id}: ${errorText(error)}; another worker takes it over once its lease runs out`),
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
      await round().catch((error: unknown) => log(`${name} worker: ${errorText(error)}`));
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
      options.close?.();
    },
  };
}

/** Renews the worker's leases every `everyMs` while it has messages under way, one renewal at a time. */
function leaseKeeper(renew: () => Promise<unknown>, everyMs: number, log: (line: string) => void) {
  let timer: NodeJS.Timeout | undefined;
  let renewal: Promise<unknown> | undefined;
  const beat = () => {
    renewal ??= renew()
      .catch((error: unknown) => log(`renewing leases: ${errorText(error)}`))
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
