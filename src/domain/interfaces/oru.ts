import type { Hl7Message, Hl7Segment } from '@medplum/core';
import type { ResultInput } from '../lab/use-cases.ts';
import { readHl7Time, unescapeText } from './hl7-text.ts';

/**
 * Why a received message cannot be taken, as its acknowledgement says it: AE (an error the sender may correct and
 * send again) or AR (a message Medora does not take), with HL7 table 0357's error code and where it is.
 */
export class Hl7Refusal extends Error {
  constructor(
    readonly ackCode: 'AE' | 'AR',
    /** HL7 table 0357: 100 segment sequence, 101 required field missing, 102 data type, 200 unsupported type … */
    readonly errorCode: number,
    /** ERR-2, e.g. `OBX^3^5`: segment, its position among its kind, field. */
    readonly location: string,
    message: string,
  ) {
    super(message);
    this.name = 'Hl7Refusal';
  }
}

/** HL7 table 0357's words for the codes Medora answers with. */
export const ERROR_WORDS: Record<number, string> = {
  100: 'Segment sequence error',
  101: 'Required field missing',
  102: 'Data type error',
  103: 'Table value not found',
  200: 'Unsupported message type',
  201: 'Unsupported event code',
  204: 'Unknown key identifier',
  207: 'Application internal error',
};

export interface OruResult {
  /** Where the result is in the message: `OBX^<n>`. */
  location: string;
  /** OBX-1, or the OBX's position within its order when the sender left it empty. */
  setId: string;
  codeSystem: 'loinc' | 'local';
  code: string;
  value: ResultInput;
  /** OBX-11: P preliminary, F final. */
  status: 'P' | 'F';
  effectiveAt: Date | undefined;
}

export interface OruOrder {
  location: string;
  /** OBR-2 (or ORC-2): the number Medora gave the order, compared whole. */
  placerOrderNumber: string;
  /** OBR-25 F, or every result's OBX-11 F: the lab signed the report off. */
  final: boolean;
  /** OBR-7, when the results' OBX-14 do not say. */
  observedAt: Date | undefined;
  results: OruResult[];
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const TEXT_TYPES = ['ST', 'TX', 'FT'];
const CODED_TYPES = ['CE', 'CWE', 'CNE'];

const field = (segment: Hl7Segment, n: number) => segment.getField(n)?.toString() ?? '';
const component = (segment: Hl7Segment, n: number, c = 1) => segment.getComponent(n, c);

/** The message type and trigger, MSH-9.1 and MSH-9.2. */
export function messageTypeOf(message: Hl7Message): string {
  const msh = message.header;
  return [component(msh, 9, 1), component(msh, 9, 2)].filter(Boolean).join('^');
}

/** Reads an ORU^R01's orders and their results (v2.5.1 chapter 7), or refuses it as its acknowledgement will say. */
export function readOru(message: Hl7Message, timeZone: string): OruOrder[] {
  const type = messageTypeOf(message);
  if (component(message.header, 9, 1) !== 'ORU')
    throw new Hl7Refusal('AR', 200, 'MSH^1^9', `Medora takes results (ORU^R01), not ${type || 'an untyped message'}`);
  if (component(message.header, 9, 2) !== 'R01')
    throw new Hl7Refusal('AR', 201, 'MSH^1^9', `Unsupported event ${type}`);
  const orders: OruOrder[] = [];
  let orc: Hl7Segment | undefined;
  const counts = new Map<string, number>();
  for (const segment of message.segments) {
    const n = (counts.get(segment.name) ?? 0) + 1;
    counts.set(segment.name, n);
    if (segment.name === 'ORC') orc = segment;
    if (segment.name === 'OBR') orders.push(readObr(segment, n, orc, timeZone));
    if (segment.name === 'OBX') {
      const order = orders.at(-1);
      if (!order) throw new Hl7Refusal('AE', 100, `OBX^${n}`, 'A result (OBX) comes before any order (OBR)');
      order.results.push(readObx(message, segment, n, order.results.length + 1, timeZone));
    }
  }
  if (orders.length === 0) throw new Hl7Refusal('AE', 101, 'OBR^1', 'The message has no order (OBR)');
  for (const order of orders) {
    if (order.results.length === 0)
      throw new Hl7Refusal('AE', 101, order.location, `Order ${order.placerOrderNumber} has no result (OBX)`);
    order.final ||= order.results.every((r) => r.status === 'F');
  }
  return orders;
}

function readObr(obr: Hl7Segment, n: number, orc: Hl7Segment | undefined, timeZone: string): OruOrder {
  const location = `OBR^${n}`;
  const placer = component(obr, 2) || (orc ? component(orc, 2) : '');
  if (!placer) throw new Hl7Refusal('AE', 101, `${location}^2`, 'The placer order number (OBR-2) is missing');
  if (placer.length > 40)
    throw new Hl7Refusal('AE', 102, `${location}^2`, 'The placer order number (OBR-2) is longer than 40 characters');
  const status = field(obr, 25);
  if (status && !['P', 'F'].includes(status))
    throw new Hl7Refusal(
      'AE',
      103,
      `${location}^25`,
      `Result status ${status} is not taken over HL7: Medora takes preliminary (P) and final (F) results; correct a result in Medora`,
    );
  const time = field(obr, 7);
  const observedAt = time ? readHl7Time(time, timeZone) : undefined;
  if (time && !observedAt) throw new Hl7Refusal('AE', 102, `${location}^7`, `${time} is no HL7 date and time`);
  return { location, placerOrderNumber: placer, final: status === 'F', observedAt, results: [] };
}

function readObx(message: Hl7Message, obx: Hl7Segment, n: number, position: number, timeZone: string): OruResult {
  const location = `OBX^${n}`;
  const at = (f: number) => `${location}^${f}`;
  const code = component(obx, 3, 1);
  if (!code) throw new Hl7Refusal('AE', 101, at(3), 'The observation code (OBX-3) is missing');
  const status = field(obx, 11) || 'F';
  if (status !== 'P' && status !== 'F')
    throw new Hl7Refusal(
      'AE',
      103,
      at(11),
      `Result status ${status} is not taken over HL7: Medora takes preliminary (P) and final (F) results; correct a result in Medora`,
    );
  const time = field(obx, 14);
  const effectiveAt = time ? readHl7Time(time, timeZone) : undefined;
  if (time && !effectiveAt) throw new Hl7Refusal('AE', 102, at(14), `${time} is no HL7 date and time`);
  return {
    location,
    setId: field(obx, 1) || String(position),
    codeSystem: component(obx, 3, 3) === 'LN' ? 'loinc' : 'local',
    code,
    value: readValue(message, obx, at),
    status,
    effectiveAt,
  };
}

function readValue(message: Hl7Message, obx: Hl7Segment, at: (f: number) => string): ResultInput {
  const type = field(obx, 2);
  const raw = field(obx, 5);
  if (!raw) throw new Hl7Refusal('AE', 101, at(5), 'The observation value (OBX-5) is missing');
  if (type === 'NM' || type === 'SN') {
    const number = type === 'SN' ? component(obx, 5, 2) : raw;
    if (!NUMBER.test(number)) throw new Hl7Refusal('AE', 102, at(5), `${raw} is not a number`);
    const unit = component(obx, 6, 1);
    if (!unit) throw new Hl7Refusal('AE', 101, at(6), 'A numeric result needs its unit (OBX-6)');
    return { type: 'quantity', value: Number(number), unit: unescapeText(unit, message.context) };
  }
  if (CODED_TYPES.includes(type)) return { type: 'coded', code: unescapeText(component(obx, 5, 1), message.context) };
  if (TEXT_TYPES.includes(type)) return { type: 'text', text: unescapeText(raw, message.context) };
  throw new Hl7Refusal('AE', 102, at(2), `Value type ${type || '(none)'} is not taken: NM, SN, CE, CWE, ST, TX or FT`);
}
