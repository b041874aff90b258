import type { Actor } from '../shared/actor.ts';
import { centsToDecimal } from '../shared/money.ts';
import {
  BLOCK_KINDS,
  bedState,
  seesClinical,
  type Admission,
  type AdmissionDetail,
  type Bed,
  type DischargeSummary,
  type RoomClass,
  type StayCharge,
} from './inpatient.ts';
import type {
  AdmissionDetailJson,
  AdmissionJson,
  BedJson,
  DischargeSummaryJson,
  RoomClassJson,
  StayChargeJson,
} from './inpatient-shapes.ts';

// Inpatient care's answers as the wire carries them (inpatient-shapes.ts).

const iso = (at: Date | null) => at?.toISOString() ?? null;

export function chargeJson(charge: StayCharge): StayChargeJson {
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

export function summaryJson(summary: DischargeSummary): DischargeSummaryJson {
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
export function admissionJson(a: Admission, actor: Actor, inCare = true): AdmissionJson {
  return { ...admissionFields(a), ...(seesClinical(actor) && inCare ? { reason: a.reason } : {}) };
}

/** An admission with its locations and bills; the reason and the discharge summary only for clinical readers. */
export function admissionDetailJson(a: AdmissionDetail, actor: Actor): AdmissionDetailJson {
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
export function bedJson(bed: Bed, actor: Actor, lateDoses: ReadonlyMap<number, number> = new Map()): BedJson {
  const blockedAs = bedState(bed) === 'blocked' ? BLOCK_KINDS.find((kind) => kind === bed.housekeeping) : undefined;
  return {
    id: bed.id,
    label: bed.label,
    room: bed.room,
    ward: bed.ward,
    state: bedState(bed),
    since: (bed.holder?.since ?? bed.housekeepingSince).toISOString(),
    blocked: blockedAs ? { kind: blockedAs, reason: seesClinical(actor) ? bed.blockedReason : null } : null,
    occupant: bed.holder && {
      admission_id: bed.holder.admissionId,
      patient: bed.holder.patient,
      age: bed.holder.age,
      sex: bed.holder.sex,
      doctor: bed.holder.doctor,
      expected_nights: bed.holder.expectedNights,
      since: bed.holder.since.toISOString(),
      // A flag on the board, never the value; the front desk sees no result at all.
      critical_results: seesClinical(actor) ? bed.holder.criticalResults : null,
      late_doses: lateDoses.get(bed.holder.admissionId) ?? 0,
    },
    retired: bed.retiredAt !== null,
  };
}

export function roomClassJson(roomClass: RoomClass): RoomClassJson {
  return {
    room_id: roomClass.roomId,
    bed_class: roomClass.bedClass,
    nightly_rate: centsToDecimal(roomClass.nightlyRateCents),
    nightly_rate_cents: roomClass.nightlyRateCents,
  };
}
