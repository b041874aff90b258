import { Hl7Message, Hl7Segment } from '@medplum/core';
import * as lab from '../lab/use-cases.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { escapeText, unescapeText } from './hl7-text.ts';
import { ERROR_WORDS, Hl7Refusal, messageTypeOf, readOru, type OruOrder } from './oru.ts';
import type { InboundDeps, ReceivedStatus } from './ports.ts';

export interface Received {
  controlId: string | null;
  ackCode: 'AA' | 'AE' | 'AR';
  /** The acknowledgement to send back, as text. */
  ack: string;
  /** Why it was refused (ERR-8), for a person. */
  error: string | null;
  /** True when this sender's message was stored before: it was not processed again. */
  duplicate: boolean;
}

const EMPTY_HEADER = 'MSH|^~\\&|';

/**
 * A message from another system (the MLLP listener, `medora hl7 import`): stored in the transaction of its effects
 * and acknowledged AA; the same sender's MSH-10 again is answered as it was the first time and changes nothing; a
 * message that cannot be taken is kept with the AE or AR and ERR segment it is answered with. Only a database that
 * cannot answer leaves a message unacknowledged, for the sender to send again.
 */
export async function receiveMessage(deps: InboundDeps, text: string): Promise<Received> {
  const receivedAt = deps.clock.now();
  const parsed = parse(text);
  const message = parsed ?? Hl7Message.parse(EMPTY_HEADER);
  const msh = message.header;
  const source = [msh.getField(3)?.toString() ?? '', msh.getField(4)?.toString() ?? ''].join('^').slice(0, 200);
  const controlId = msh.getField(10)?.toString().slice(0, 200) || null;
  const kept = {
    source,
    controlId,
    messageType: parsed ? messageTypeOf(message).slice(0, 20) : '',
    message: text,
    receivedAt,
  };
  if (controlId) {
    const ack = await deps.inbox.ackOf(source, controlId);
    if (ack !== undefined) return answered(controlId, ack, true);
  }
  try {
    if (!parsed) throw new Hl7Refusal('AR', 100, 'MSH^1', 'The message does not begin with an MSH segment');
    if (!controlId) throw new Hl7Refusal('AR', 101, 'MSH^1^10', 'The message control id (MSH-10) is missing');
    const done = await deps.transaction(async (tx) => {
      const id = await tx.inbox.claim({ ...kept, status: 'processed', ackCode: 'AA', ack: '', error: null });
      if (id === undefined) return undefined;
      const status = await processResults(tx, message, { source, controlId, receivedAt });
      const ack = message.buildAck({ ackCode: 'AA' }).toString();
      await tx.inbox.finish(id, { status, ackCode: 'AA', ack, error: null });
      return ack;
    });
    return done === undefined ? stored(deps, source, controlId) : answered(controlId, done, false);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'unavailable') throw error;
    const refusal = asRefusal(error);
    const ack = message.buildAck({ ackCode: refusal.ackCode, errSegment: errSegment(message, refusal) }).toString();
    const id = await deps.inbox.claim({
      ...kept,
      status: 'error',
      ackCode: refusal.ackCode,
      ack,
      error: refusal.message,
    });
    if (id === undefined && controlId) return stored(deps, source, controlId);
    return answered(controlId, ack, false);
  }
}

function parse(text: string): Hl7Message | undefined {
  try {
    return Hl7Message.parse(text.replace(/^[\s\u000b]+|[\s\u001c]+$/g, ''));
  } catch {
    return undefined;
  }
}

async function stored(deps: InboundDeps, source: string, controlId: string): Promise<Received> {
  const ack = await deps.inbox.ackOf(source, controlId);
  if (ack === undefined) throw new Error(`HL7 message ${controlId} of ${source} was stored and is gone`);
  return answered(controlId, ack, true);
}

function answered(controlId: string | null, ack: string, duplicate: boolean): Received {
  const parsed = Hl7Message.parse(ack);
  const code = parsed.getSegment('MSA')?.getComponent(1, 1);
  const ackCode = code === 'AE' || code === 'AR' ? code : 'AA';
  const err = parsed.getSegment('ERR')?.getField(8)?.toString();
  return { controlId, ackCode, ack, error: err ? unescapeText(err, parsed.context) : null, duplicate };
}

/** A use case's refusal (a unit it cannot convert, a result already there, …) as HL7 says it. */
function asRefusal(error: unknown, where = ''): Hl7Refusal {
  if (error instanceof Hl7Refusal) return error;
  if (error instanceof DomainError) {
    const fields = Object.entries(error.fields ?? {}).map(([f, m]) => `${f} ${m.join(', ')}`);
    const text = [error.message, ...fields.filter((f) => !error.message.includes(f))].join('; ');
    return new Hl7Refusal('AE', error.kind === 'invalid' ? 102 : 207, where, text);
  }
  return new Hl7Refusal('AE', 207, where, error instanceof Error ? error.message : String(error));
}

/** The ERR segment (v2.5.1): ERR-2 where, ERR-3 the code of table 0357, ERR-4 severity, ERR-8 the words for a person. */
function errSegment(message: Hl7Message, refusal: Hl7Refusal): Hl7Segment {
  const c = message.context;
  const words = ERROR_WORDS[refusal.errorCode] ?? 'Error';
  return new Hl7Segment(
    [
      'ERR',
      '',
      refusal.location,
      `${refusal.errorCode}^${words}^HL70357`,
      'E',
      '',
      '',
      '',
      escapeText(refusal.message, c),
    ],
    c,
  );
}

/**
 * Each order's results recorded through the lab's own use cases, as the interface's account: matched by the
 * placer order number kept whole, converted to the test's unit and interpreted; an order signed off (F) is
 * finalised. A result whose order or test Medora does not know goes to *Unmatched results*.
 */
async function processResults(
  tx: InboundDeps,
  message: Hl7Message,
  from: { source: string; controlId: string; receivedAt: Date },
): Promise<ReceivedStatus> {
  const orders = readOru(message, tx.timeZone);
  const actor: Actor = {
    userId: await tx.inbox.interfaceUser(),
    role: 'lab',
    name: 'HL7 interface',
    requestId: `hl7:${from.controlId}`.slice(0, 100),
  };
  let unmatched = 0;
  for (const order of orders) unmatched += await recordOrder(tx, order, from, actor);
  return unmatched > 0 ? 'unmatched' : 'processed';
}

async function recordOrder(
  tx: InboundDeps,
  order: OruOrder,
  from: { source: string; controlId: string; receivedAt: Date },
  actor: Actor,
): Promise<number> {
  const orderId = await tx.lab.orderIdByNumber(order.placerOrderNumber);
  const view = orderId === undefined ? undefined : (await tx.lab.orderViews([orderId]))[0];
  let unmatched = 0;
  for (const result of order.results) {
    const effectiveAt = result.effectiveAt ?? order.observedAt ?? from.receivedAt;
    const item = view?.items.find((i) => i.code === result.code);
    if (!item) {
      await tx.inbox.addUnmatched({
        source: from.source.slice(0, 100),
        messageId: `${from.controlId}/${order.location}/${result.setId}`.slice(0, 200),
        orderNumber: order.placerOrderNumber,
        codeSystem: result.codeSystem,
        code: result.code,
        value: result.value,
        effectiveAt,
        receivedAt: from.receivedAt,
      });
      unmatched++;
      continue;
    }
    await located(result.location, () =>
      lab.enterResult(tx, { itemId: item.id, result: result.value, effectiveAt }, actor),
    );
  }
  if (view && order.final && unmatched < order.results.length)
    await located(order.location, () => lab.finalizeReport(tx, { orderId: view.id }, actor));
  return unmatched;
}

/** Runs a use case, naming the segment its refusal came from. */
async function located<T>(location: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw error instanceof DomainError && error.kind !== 'unavailable' ? asRefusal(error, location) : error;
  }
}
