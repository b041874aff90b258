import type { Actor, Gender } from '../shared/actor.ts';
import type { PaymentStatus } from '../billing/billing.ts';

export interface Named {
  id: number;
  name: string;
}

/** A bed's own state between patients; blocked beds carry a reason. */
export const HOUSEKEEPING = ['ready', 'cleaning', 'maintenance', 'isolation'] as const;
export type Housekeeping = (typeof HOUSEKEEPING)[number];
export const BLOCK_KINDS = ['maintenance', 'isolation'] as const satisfies readonly Housekeeping[];
export type BlockKind = (typeof BLOCK_KINDS)[number];

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
/**
 * The admissions a list shows by its `status`: waiting for a bed (the default), in a bed now, past, or all; or those
 * the desk has to act on (waiting for a bed, or a discharge ordered and not yet confirmed).
 */
export type AdmissionGroup = 'action' | 'waiting' | 'current' | 'past' | 'all';
export const ADMISSION_GROUPS: Record<AdmissionGroup, readonly AdmissionStatus[]> = {
  action: ['requested', 'reserved', 'discharge_ordered'],
  waiting: ['requested', 'reserved'],
  current: ['admitted', 'discharge_ordered'],
  past: ['discharged', 'cancelled'],
  all: ['requested', 'reserved', 'admitted', 'discharge_ordered', 'discharged', 'cancelled'],
};
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
  holder: {
    admissionId: number;
    status: AdmissionStatus;
    patient: Named;
    /** Whole years, null without a birth date. */
    age: number | null;
    sex: Gender | null;
    doctor: Named;
    expectedNights: number;
    since: Date;
    /** The patient's critical lab results not yet acknowledged (domain/lab). */
    criticalResults: number;
  } | null;
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

/** A bill's line: the nights spent in one bed at its rate. */
export interface ChargeLine {
  bedId: number;
  bed: string;
  room: string;
  firstNight: string;
  lastNight: string;
  nights: number;
  rateCents: number;
  amountCents: number;
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
  /** yyyy-MM-dd, as the printed discharge summary shows it; null when not given. */
  patientBirthDate: string | null;
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

// --- requests, as the use cases read them (inpatient-shapes.ts)

export interface AdmissionRequest {
  patientId: number;
  departmentId: number;
  expectedNights: number;
  reason: string;
  appointmentId: number | null;
}

export type SummaryFields = Omit<DischargeSummary, 'doctor' | 'writtenAt'>;

/** Reception works the beds and the desk: names, places and dates, never the clinical reason or summary. */
export const seesClinical = (actor: Actor) => actor.role !== 'reception';
