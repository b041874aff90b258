import type { Actor } from '../shared/actor.ts';
import type { PaymentStatus } from '../billing/billing.ts';
import { MAX_AMOUNT_CENTS, centsToDecimal, parseCents } from '../shared/money.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import type { ChargeLine } from './charges.ts';

export interface Named {
  id: number;
  name: string;
}

/** A bed's own state between patients; blocked beds carry a reason. */
export const HOUSEKEEPING = ['ready', 'cleaning', 'maintenance', 'isolation'] as const;
export type Housekeeping = (typeof HOUSEKEEPING)[number];
export const BLOCK_KINDS = ['maintenance', 'isolation'] as const satisfies readonly Housekeeping[];

/** What the bed board shows for a bed. */
export const BED_STATES = ['vacant', 'reserved', 'occupied', 'discharge_ordered', 'cleaning', 'blocked'] as const;
export type BedState = (typeof BED_STATES)[number];

export const ADMISSION_STATUSES = [
  'requested',
  'reserved',
  'admitted',
  'discharge_ordered',
  'discharged',
  'cancelled',
] as const;
export type AdmissionStatus = (typeof ADMISSION_STATUSES)[number];
/** Where a patient is in bed: what a transfer or discharge may act on. */
export const IN_BED: readonly AdmissionStatus[] = ['admitted', 'discharge_ordered'];

/** A mistaken admission may be undone for this long after it was made, before anyone relies on it. */
export const UNDO_WINDOW_MINUTES = 15;

export interface Bed {
  id: number;
  label: string;
  room: Named;
  ward: Named;
  housekeeping: Housekeeping;
  blockedReason: string | null;
  housekeepingSince: Date;
  retiredAt: Date | null;
  /** The admission holding the bed, if any. */
  holder: { admissionId: number; status: AdmissionStatus; patient: Named; since: Date } | null;
}

export interface RoomClass {
  roomId: number;
  bedClass: string;
  nightlyRateCents: number;
}

export function bedState(bed: Pick<Bed, 'holder' | 'housekeeping'>): BedState {
  if (bed.holder?.status === 'reserved') return 'reserved';
  if (bed.holder?.status === 'admitted') return 'occupied';
  if (bed.holder?.status === 'discharge_ordered') return 'discharge_ordered';
  if (bed.housekeeping === 'cleaning') return 'cleaning';
  return bed.housekeeping === 'ready' ? 'vacant' : 'blocked';
}

export interface Location {
  bedId: number;
  bed: string;
  room: Named;
  ward: Named;
  rateCents: number;
  startedAt: Date;
  endedAt: Date | null;
}

export interface DischargeSummary {
  doctor: Named;
  diagnosis: string;
  treatment: string;
  medication: string;
  instructions: string;
  followUp: string;
  writtenAt: Date;
}

export interface StayCharge {
  billingId: number;
  kind: 'interim' | 'final';
  firstNight: string;
  lastNight: string;
  paymentStatus: PaymentStatus;
  lines: ChargeLine[];
}

export interface Admission {
  id: number;
  patient: Named;
  ward: Named;
  requestedBy: Named;
  appointmentId: number | null;
  expectedNights: number;
  reason: string;
  status: AdmissionStatus;
  bed: { id: number; label: string; room: Named } | null;
  requestedAt: Date;
  reservedAt: Date | null;
  admittedAt: Date | null;
  dischargeOrderedAt: Date | null;
  dischargedAt: Date | null;
  cancelledAt: Date | null;
}

/** An admission with where it has been, its discharge summary and its bills. */
export interface AdmissionDetail extends Admission {
  locations: Location[];
  summary: DischargeSummary | null;
  charges: StayCharge[];
}

// --- input

export interface AdmissionRequest {
  patientId: number;
  departmentId: number;
  expectedNights: number;
  reason: string;
  appointmentId: number | null;
}

export function readAdmissionRequest(body: unknown): AdmissionRequest {
  const v = new Validator(asRecord(body));
  const patientId = v.id('patient_id');
  const departmentId = v.id('department_id');
  const appointmentId = v.id('appointment_id', { optional: true }) ?? null;
  const raw = asRecord(body).expected_nights;
  const expectedNights =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(expectedNights) || expectedNights < 1 || expectedNights > 365)
    v.fail('expected_nights', 'must be a whole number of nights from 1 to 365');
  const reason = v.text('reason', { max: 5000 });
  v.done();
  return { patientId, departmentId, expectedNights, reason, appointmentId };
}

export type SummaryFields = Omit<DischargeSummary, 'doctor' | 'writtenAt'>;

export function readDischargeSummary(body: unknown): SummaryFields {
  const v = new Validator(asRecord(body));
  const summary = {
    diagnosis: v.text('diagnosis', { max: 5000 }),
    treatment: v.text('treatment', { max: 5000 }),
    medication: v.text('medication', { optional: true, max: 5000 }),
    instructions: v.text('instructions', { optional: true, max: 5000 }),
    followUp: v.text('follow_up', { optional: true, max: 5000 }),
  };
  v.done();
  return summary;
}

export function readBedLabel(body: unknown): string {
  const v = new Validator(asRecord(body));
  const label = v.text('label', { max: 40, line: true });
  v.done();
  return label;
}

export function readBedId(body: unknown): number {
  const v = new Validator(asRecord(body));
  const bedId = v.id('bed_id');
  v.done();
  return bedId;
}

export function readOptionalBedId(body: unknown): number | undefined {
  const v = new Validator(asRecord(body));
  const bedId = v.id('bed_id', { optional: true });
  v.done();
  return bedId;
}

export function readRoomClass(body: unknown): { bedClass: string; nightlyRateCents: number } {
  const input = asRecord(body);
  const v = new Validator(input);
  const bedClass = v.text('bed_class', { max: 60, line: true });
  const nightlyRateCents = parseCents(input.nightly_rate);
  if (nightlyRateCents === undefined || nightlyRateCents > MAX_AMOUNT_CENTS)
    v.fail('nightly_rate', 'must be an amount from 0 to 1000000 with at most two decimals');
  v.done();
  return { bedClass, nightlyRateCents: nightlyRateCents ?? 0 };
}

export function readBlock(body: unknown): { kind: (typeof BLOCK_KINDS)[number]; reason: string } {
  const v = new Validator(asRecord(body));
  const kind = v.oneOf('kind', BLOCK_KINDS);
  const reason = v.text('reason', { max: 500 });
  v.done();
  return { kind, reason };
}

// --- answers

/** Reception works the beds and the desk: names, places and dates, never the clinical reason or summary. */
export const seesClinical = (actor: Actor) => actor.role !== 'reception';

const iso = (at: Date | null) => at?.toISOString() ?? null;

export function chargeJson(charge: StayCharge) {
  const total = charge.lines.reduce((n, line) => n + line.amountCents, 0);
  return {
    billing_id: charge.billingId,
    kind: charge.kind,
    first_night: charge.firstNight,
    last_night: charge.lastNight,
    payment_status: charge.paymentStatus,
    amount: centsToDecimal(total),
    amount_cents: total,
    lines: charge.lines.map((line) => ({
      bed_id: line.bedId,
      bed: line.bed,
      room: line.room,
      first_night: line.firstNight,
      last_night: line.lastNight,
      nights: line.nights,
      nightly_rate: centsToDecimal(line.rateCents),
      nightly_rate_cents: line.rateCents,
      amount: centsToDecimal(line.amountCents),
      amount_cents: line.amountCents,
    })),
  };
}

export function summaryJson(summary: DischargeSummary) {
  return {
    doctor: summary.doctor,
    diagnosis: summary.diagnosis,
    treatment: summary.treatment,
    medication: summary.medication,
    instructions: summary.instructions,
    follow_up: summary.followUp,
    written_at: summary.writtenAt.toISOString(),
  };
}

function admissionFields(a: Admission) {
  return {
    id: a.id,
    status: a.status,
    patient: a.patient,
    ward: a.ward,
    requested_by: a.requestedBy,
    appointment_id: a.appointmentId,
    expected_nights: a.expectedNights,
    bed: a.bed,
    requested_at: a.requestedAt.toISOString(),
    reserved_at: iso(a.reservedAt),
    admitted_at: iso(a.admittedAt),
    discharge_ordered_at: iso(a.dischargeOrderedAt),
    discharged_at: iso(a.dischargedAt),
    cancelled_at: iso(a.cancelledAt),
  };
}

/** An admission in a list; the clinical reason only for those who may read it. */
export function admissionJson(a: Admission, actor: Actor, inCare = true) {
  return { ...admissionFields(a), ...(seesClinical(actor) && inCare ? { reason: a.reason } : {}) };
}
export type AdmissionJson = ReturnType<typeof admissionJson>;

/** An admission with its locations and bills; the reason and the discharge summary only for clinical readers. */
export function admissionDetailJson(a: AdmissionDetail, actor: Actor) {
  return {
    ...admissionJson(a, actor),
    locations: a.locations.map((l) => ({
      bed_id: l.bedId,
      bed: l.bed,
      room: l.room,
      ward: l.ward,
      nightly_rate: centsToDecimal(l.rateCents),
      nightly_rate_cents: l.rateCents,
      from: l.startedAt.toISOString(),
      to: iso(l.endedAt),
    })),
    charges: a.charges.map(chargeJson),
    ...(seesClinical(actor) ? { discharge_summary: a.summary && summaryJson(a.summary) } : {}),
  };
}

/** `lateDoses`: the occupant's medication doses overdue on the ward's MAR (the bed board counts them; 0 elsewhere). */
export function bedJson(bed: Bed, actor: Actor, lateDoses: ReadonlyMap<number, number> = new Map()) {
  const blocked = bedState(bed) === 'blocked';
  return {
    id: bed.id,
    label: bed.label,
    room: bed.room,
    ward: bed.ward,
    state: bedState(bed),
    since: (bed.holder?.since ?? bed.housekeepingSince).toISOString(),
    blocked: blocked ? { kind: bed.housekeeping, reason: seesClinical(actor) ? bed.blockedReason : null } : null,
    occupant: bed.holder && {
      admission_id: bed.holder.admissionId,
      patient: bed.holder.patient,
      since: bed.holder.since.toISOString(),
      late_doses: lateDoses.get(bed.holder.admissionId) ?? 0,
    },
    retired: bed.retiredAt !== null,
  };
}
export type BedJson = ReturnType<typeof bedJson>;

export function roomClassJson(roomClass: RoomClass) {
  return {
    room_id: roomClass.roomId,
    bed_class: roomClass.bedClass,
    nightly_rate: centsToDecimal(roomClass.nightlyRateCents),
    nightly_rate_cents: roomClass.nightlyRateCents,
  };
}
