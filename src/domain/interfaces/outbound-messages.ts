import { Hl7Context, Hl7Message, Hl7Segment } from '@medplum/core';
import type { Hl7EventCode } from '../notifications/hl7-events.ts';
import type { Gender } from '../shared/actor.ts';
import { escapeText, hl7Date, hl7Time } from './hl7-text.ts';

/** The MSH of one message to one receiver. */
export interface Header {
  facility: string;
  receiver: string;
  controlId: string;
  at: Date;
}

export interface PatientFacts {
  id: number;
  name: string;
  birthDate: string | null;
  gender: Gender | null;
  phone: string;
}

export interface Place {
  ward: string;
  room: string;
  bed: string;
}

export interface StayFacts {
  admissionId: number;
  location: Place | null;
  /** The bed before the last transfer (PV1-6 of an A02). */
  priorLocation: Place | null;
  attending: { id: number; name: string };
  admittedAt: Date | null;
  dischargedAt: Date | null;
}

export interface OrderFacts {
  orderNumber: string;
  control: 'NW' | 'CA';
  priority: 'routine' | 'urgent' | 'stat';
  orderedAt: Date;
  doctor: { id: number; name: string };
  tests: { code: string; codeSystem: 'loinc' | 'local'; name: string }[];
}

/** The message structure (MSH-9.3) of each event, as HL7 v2.5.1 chapter 3 assigns them. */
const STRUCTURE: Record<Hl7EventCode, string> = {
  A01: 'ADT_A01',
  A02: 'ADT_A02',
  A03: 'ADT_A03',
  A04: 'ADT_A01',
  A08: 'ADT_A01',
  A11: 'ADT_A09',
  A12: 'ADT_A12',
  A13: 'ADT_A01',
  O21: 'OML_O21',
};

const SEX: Record<Gender, string> = { male: 'M', female: 'F', other: 'O' };
const PRIORITY: Record<OrderFacts['priority'], string> = { routine: 'R', urgent: 'A', stat: 'S' };

const context = new Hl7Context();
const text = (value: string) => escapeText(value, context);
const segment = (fields: string[]) => new Hl7Segment(fields, context);

/** XPN/XCN name parts: Medora keeps one name, so its last word is the family name and the rest the given names. */
function nameParts(name: string): string {
  const words = name.trim().split(/\s+/);
  const family = words.pop() ?? '';
  return `${text(family)}^${text(words.join(' '))}`;
}

const place = (p: Place | null) => (p ? `${text(p.ward)}^${text(p.room)}^${text(p.bed)}` : '');

function msh(h: Header, type: string, event: string, structure: string): Hl7Segment {
  return segment([
    'MSH',
    context.getMsh2(),
    'MEDORA',
    text(h.facility),
    text(h.receiver),
    '',
    hl7Time(h.at),
    '',
    `${type}^${event}^${structure}`,
    h.controlId,
    'P',
    '2.5.1',
  ]);
}

function pid(p: PatientFacts): Hl7Segment {
  const fields = [
    'PID',
    '1',
    '',
    `${p.id}^^^MEDORA^MR`,
    '',
    nameParts(p.name),
    '',
    p.birthDate ? hl7Date(p.birthDate) : '',
  ];
  fields.push(p.gender ? SEX[p.gender] : 'U', '', '', '', '', text(p.phone));
  return segment(fields);
}

function pv1(stay: StayFacts | null): Hl7Segment {
  const fields = Array.from({ length: 46 }, () => '');
  fields[0] = 'PV1';
  fields[1] = '1';
  fields[2] = stay ? 'I' : 'O';
  if (stay) {
    fields[3] = place(stay.location);
    fields[6] = place(stay.priorLocation);
    fields[7] = `${stay.attending.id}^${nameParts(stay.attending.name)}`;
    fields[19] = String(stay.admissionId);
    fields[44] = stay.admittedAt ? hl7Time(stay.admittedAt) : '';
    fields[45] = stay.dischargedAt ? hl7Time(stay.dischargedAt) : '';
  }
  return segment(fields);
}

/** An ADT message of `event` about the patient and, for a stay's events, the stay (PV1-3 its bed). */
export function adtMessage(h: Header, event: Hl7EventCode, patient: PatientFacts, stay: StayFacts | null): string {
  return new Hl7Message(
    [msh(h, 'ADT', event, STRUCTURE[event]), segment(['EVN', event, hl7Time(h.at)]), pid(patient), pv1(stay)],
    context,
  ).toString();
}

/** OML^O21: the order placed (NW) or cancelled (CA), an ORC and an OBR per test, each with the order's number. */
export function omlMessage(h: Header, patient: PatientFacts, stay: StayFacts | null, order: OrderFacts): string {
  const doctor = `${order.doctor.id}^${nameParts(order.doctor.name)}`;
  const number = `${text(order.orderNumber)}^MEDORA`;
  const tests = order.tests.flatMap((t, i) => [
    segment([
      'ORC',
      order.control,
      number,
      '',
      '',
      order.control === 'CA' ? 'CA' : '',
      '',
      '',
      '',
      hl7Time(order.orderedAt),
      '',
      '',
      doctor,
    ]),
    segment(['TQ1', '1', '', '', '', '', '', '', '', PRIORITY[order.priority]]),
    segment([
      'OBR',
      String(i + 1),
      number,
      '',
      `${text(t.code)}^${text(t.name)}^${t.codeSystem === 'loinc' ? 'LN' : 'L'}`,
      // OBR-5 … OBR-15, then OBR-16 the ordering provider.
      ...Array.from({ length: 11 }, () => ''),
      doctor,
    ]),
  ]);
  return new Hl7Message([msh(h, 'OML', 'O21', STRUCTURE.O21), pid(patient), pv1(stay), ...tests], context).toString();
}
