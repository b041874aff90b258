/**
 * The HL7 sender: the outbox's messages to their receivers over MLLP with @medplum/hl7's client, one receiver's in
 * order. A message counts as sent only on AA; AE (and a receiver down, silent or slow past HL7_ACK_TIMEOUT_MS) is
 * tried again with the e-mail outbox's backoff, the same MSH-10 each time; AR is dead-lettered for a person.
 */
import { Hl7Message } from '@medplum/core';
import { Hl7Client, ReturnAckCategory } from '@medplum/hl7';
import { type ClaimedHl7, hl7OutboxQueue } from '../db/hl7-outbox.pg.ts';
import type { Queryable } from '../db/db.ts';
import { DEFAULT_RETRY, nextAttempt, type RetryPolicy } from '../domain/notifications/delivery.ts';
import type { Clock } from '../domain/shared/clock.ts';
import { type DeliveryContext, errorText, type LeaseWorker, startLeaseWorker } from '../outbox/lease-worker.ts';

export interface Hl7SenderOptions {
  db: Queryable;
  clock: Clock;
  pollMs: number;
  leaseMs: number;
  ackTimeoutMs: number;
  concurrency?: number;
  retry?: RetryPolicy;
  workerId?: string;
  log?: (line: string) => void;
}

/** Sends one message and waits for its application acknowledgement. */
async function exchange(message: ClaimedHl7, timeoutMs: number): Promise<Hl7Message> {
  const client = new Hl7Client({ host: message.receiver.host, port: message.receiver.port, connectTimeout: timeoutMs });
  try {
    return await client.sendAndWait(Hl7Message.parse(message.message), {
      returnAck: ReturnAckCategory.APPLICATION,
      timeoutMs,
    });
  } finally {
    await client.close();
  }
}

export function startHl7Sender(options: Hl7SenderOptions, { poll = true } = {}): LeaseWorker {
  const { clock, retry = DEFAULT_RETRY, log = () => {} } = options;
  const queue = hl7OutboxQueue(options.db);

  const deliver = async (message: ClaimedHl7, { holder, record }: DeliveryContext) => {
    const to = `hl7 ${message.controlId} to ${message.receiver.name}`;
    let ack: Hl7Message;
    try {
      ack = await exchange(message, options.ackTimeoutMs);
    } catch (error) {
      const reason = errorText(error).slice(0, 500);
      const next = nextAttempt({ temporary: true, reason }, message.attempts, clock.now(), retry);
      log(`${to}: attempt ${message.attempts} failed: ${reason}`);
      const outcome = { ackCode: null, ack: null };
      await record(() =>
        next
          ? queue.retry(holder, message.id, next, reason, outcome)
          : queue.dead(holder, message.id, `given up after ${message.attempts} attempt(s): ${reason}`, outcome),
      );
      return;
    }
    const code = ack.getSegment('MSA')?.getComponent(1, 1) ?? '';
    const outcome = { ackCode: ['AA', 'AE', 'AR', 'CA', 'CE', 'CR'].includes(code) ? code : null, ack: ack.toString() };
    if (code === 'AA' || code === 'CA') {
      await record(() => queue.sent(message.id, clock.now(), outcome));
      return;
    }
    const said = ack.getSegment('ERR')?.getField(8)?.toString() || ack.getSegment('MSA')?.getField(3)?.toString() || '';
    const reason = `${code || 'no acknowledgement code'}${said ? `: ${said}` : ''}`.slice(0, 500);
    // AR (and CR): the receiver will never take this message; AE (CE): it may, once what it says is put right.
    const next =
      code === 'AR' || code === 'CR'
        ? undefined
        : nextAttempt({ temporary: true, reason }, message.attempts, clock.now(), retry);
    log(`${to}: answered ${reason}`);
    await record(() =>
      next
        ? queue.retry(holder, message.id, next, reason, outcome)
        : queue.dead(holder, message.id, `refused after ${message.attempts} attempt(s): ${reason}`, outcome),
    );
  };

  return startLeaseWorker(
    {
      name: 'hl7',
      queue,
      clock,
      pollMs: options.pollMs,
      leaseMs: options.leaseMs,
      concurrency: options.concurrency ?? 5,
      workerId: options.workerId,
      deliver,
      log,
    },
    { poll },
  );
}
