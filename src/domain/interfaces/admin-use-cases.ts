import { requireAdmin, type Actor } from '../shared/actor.ts';
import { conflict, ensure, notFound } from '../shared/errors.ts';
import { pageRequest } from '../shared/pagination.ts';
import { readInput } from '../shared/read-fields.ts';
import { asRecord, pathId, type RawId } from '../shared/validate.ts';
import {
  OutboundQuery,
  ReceivedQuery,
  ReceiverRequestShape,
  ReceiverUpdateShape,
  type OutboundMessageJson,
  type ReceivedMessageJson,
  type ReceiverJson,
} from './interfaces-shapes.ts';
import type { InterfacesDeps, OutboundMessage, Receiver, StoredReceived } from './ports.ts';

const iso = (d: Date) => d.toISOString();

const receiverJson = (r: Receiver): ReceiverJson => ({
  id: r.id,
  name: r.name,
  host: r.host,
  port: r.port,
  events: r.events,
  active: r.active,
  created_at: iso(r.createdAt),
  queued: r.queued,
  dead: r.dead,
  last_sent_at: r.lastSentAt && iso(r.lastSentAt),
});

const outboundJson = (m: OutboundMessage): OutboundMessageJson => ({
  id: m.id,
  receiver_id: m.receiverId,
  receiver: m.receiver,
  event: m.event,
  control_id: m.controlId,
  patient_id: m.patientId,
  status: m.status,
  attempts: m.attempts,
  ack_code: m.ackCode,
  ack: m.ack,
  last_error: m.lastError,
  message: m.message,
  created_at: iso(m.createdAt),
  sent_at: m.sentAt && iso(m.sentAt),
});

const receivedJson = (m: StoredReceived): ReceivedMessageJson => ({
  id: m.id,
  source: m.source,
  control_id: m.controlId,
  message_type: m.messageType,
  status: m.status,
  ack_code: m.ackCode,
  ack: m.ack,
  error: m.error,
  message: m.message,
  received_at: iso(m.receivedAt),
});

/** The receivers by name, each with its queue depth, its dead letters and when it last took a message. */
export async function listReceivers(deps: InterfacesDeps, query: unknown, actor: Actor) {
  requireAdmin(actor);
  const found = await deps.interfaces.receivers(pageRequest(asRecord(query)));
  return { ...found, items: found.items.map(receiverJson) };
}

async function receiverAnswer(deps: InterfacesDeps, id: number): Promise<ReceiverJson> {
  return receiverJson(ensure(await deps.interfaces.receiver(id), () => notFound('Receiver')));
}

/** A receiver the changes of the events it takes are queued for from now on; audited. */
export async function createReceiver(deps: InterfacesDeps, body: unknown, actor: Actor) {
  requireAdmin(actor);
  const fields = readInput(ReceiverRequestShape, body);
  return deps.transaction(async (tx) => {
    const id = await tx.interfaces.createReceiver(fields);
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'hl7_receiver',
      entityId: id,
      requestId: actor.requestId,
      details: { ...fields },
    });
    return receiverAnswer(tx, id);
  });
}

/**
 * Where a receiver is, which events it takes and whether it is active; what is queued already stays as it was
 * built. An inactive receiver is sent nothing, its queue waiting for it to be active again.
 */
export async function updateReceiver(deps: InterfacesDeps, receiverId: RawId, body: unknown, actor: Actor) {
  requireAdmin(actor);
  const id = pathId(receiverId, 'Receiver');
  const fields = readInput(ReceiverUpdateShape, body);
  return deps.transaction(async (tx) => {
    if (!(await tx.interfaces.lockReceiver(id))) throw notFound('Receiver');
    await tx.interfaces.updateReceiver(id, fields);
    await tx.audit.record({
      actor,
      action: 'update',
      entity: 'hl7_receiver',
      entityId: id,
      requestId: actor.requestId,
      details: { ...fields },
    });
    return receiverAnswer(tx, id);
  });
}

/** No more messages are queued for the receiver nor sent to it; what is queued is kept, to send if it comes back. */
export async function deactivateReceiver(deps: InterfacesDeps, receiverId: RawId, actor: Actor) {
  requireAdmin(actor);
  const id = pathId(receiverId, 'Receiver');
  return deps.transaction(async (tx) => {
    if (!(await tx.interfaces.lockReceiver(id))) throw notFound('Receiver');
    const before = await receiverAnswer(tx, id);
    if (before.active) {
      await tx.interfaces.updateReceiver(id, { ...before, active: false });
      await tx.audit.record({
        actor,
        action: 'deactivate',
        entity: 'hl7_receiver',
        entityId: id,
        requestId: actor.requestId,
      });
    }
    return receiverAnswer(tx, id);
  });
}

/** Messages sent or to send, newest first: by receiver, by status (`dead`: the dead letters). */
export async function outboundMessages(deps: InterfacesDeps, query: unknown, actor: Actor) {
  requireAdmin(actor);
  const { receiver_id: receiverId, status } = readInput(OutboundQuery, query);
  const found = await deps.interfaces.outbound({ receiverId, status }, pageRequest(asRecord(query)));
  return { ...found, items: found.items.map(outboundJson) };
}

/** Messages received, newest first, each with the acknowledgement it was answered with. */
export async function receivedMessages(deps: InterfacesDeps, query: unknown, actor: Actor) {
  requireAdmin(actor);
  const { status } = readInput(ReceivedQuery, query);
  const found = await deps.interfaces.received({ status }, pageRequest(asRecord(query)));
  return { ...found, items: found.items.map(receivedJson) };
}

/**
 * A dead letter sent again: back in its receiver's queue at its own place, so it goes before any message of that
 * receiver queued after it and still waiting, with the same MSH-10; audited. Only a dead one (409 `not_dead`).
 */
export async function resendMessage(deps: InterfacesDeps, messageId: RawId, actor: Actor) {
  requireAdmin(actor);
  const id = pathId(messageId, 'Message');
  return deps.transaction(async (tx) => {
    const message = ensure(await tx.interfaces.lockOutbound(id), () => notFound('Message'));
    if (message.status !== 'dead')
      throw conflict('not_dead', `Message ${message.controlId} is ${message.status}, not dead`);
    await tx.interfaces.requeue(id, tx.clock.now());
    await tx.audit.record({
      actor,
      action: 'resend',
      entity: 'hl7_message',
      entityId: id,
      patientId: message.patientId,
      requestId: actor.requestId,
      details: { receiver_id: message.receiverId, control_id: message.controlId, event: message.event },
    });
    return outboundJson(ensure(await tx.interfaces.lockOutbound(id), () => notFound('Message')));
  });
}
