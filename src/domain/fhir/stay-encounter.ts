import type { Encounter, EncounterLocation } from '@medplum/fhirtypes';
import { clinicRef, meta, ref, type FhirContext, type Named, type Versioned } from './fhir.ts';
import { BED_ID_PREFIX } from './bed-location.ts';
import { prefixedId } from './resource-def.ts';

/** A stay's Encounter id: `stay-<admission id>`, beside the visits' numeric ones. */
export const STAY_ID_PREFIX = 'stay-';
export const isStayId = prefixedId(STAY_ID_PREFIX);

/** One bed a stay occupied, from when to when (open while the patient is still in it). */
export interface BedStay {
  bedId: number;
  label: string;
  startedAt: Date;
  endedAt: Date | null;
}

/** An admission that put the patient in a bed: admitted, discharge ordered or discharged. */
export interface StayRow extends Versioned {
  kind: 'stay';
  patient: Named;
  /** The doctor who asked for the admission. */
  doctor: Named;
  ward: Named;
  reason: string;
  status: 'admitted' | 'discharge_ordered' | 'discharged';
  admittedAt: Date;
  dischargedAt: Date | null;
  beds: BedStay[];
}

export const STAY_STATUS = {
  admitted: 'in-progress',
  discharge_ordered: 'in-progress',
  discharged: 'finished',
} as const satisfies Record<StayRow['status'], Encounter['status']>;

const INPATIENT = {
  system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
  code: 'IMP',
  display: 'inpatient encounter',
};
const ADMITTER = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType', code: 'ADM', display: 'admitter' }],
};

const bedLocation = (stay: BedStay): EncounterLocation => ({
  location: ref('Location', `${BED_ID_PREFIX}${stay.bedId}`, stay.label),
  status: stay.endedAt ? 'completed' : 'active',
  period: stay.endedAt
    ? { start: stay.startedAt.toISOString(), end: stay.endedAt.toISOString() }
    : { start: stay.startedAt.toISOString() },
});

/** A stay as an inpatient Encounter, with the beds it occupied in order; the front desk gets no reason (DESIGN §3). */
export function stayEncounter(row: StayRow, ctx: FhirContext): Encounter {
  return {
    resourceType: 'Encounter',
    id: `${STAY_ID_PREFIX}${row.id}`,
    meta: meta(row),
    status: STAY_STATUS[row.status],
    class: INPATIENT,
    serviceType: { text: row.ward.name },
    subject: ref('Patient', row.patient.id, row.patient.name),
    participant: [{ type: [ADMITTER], individual: ref('Practitioner', row.doctor.id, row.doctor.name) }],
    period: row.dischargedAt
      ? { start: row.admittedAt.toISOString(), end: row.dischargedAt.toISOString() }
      : { start: row.admittedAt.toISOString() },
    reasonCode: ctx.clinical ? [{ text: row.reason }] : undefined,
    // Medora records that a patient left, not where to: no discharge-disposition code is claimed.
    hospitalization: row.dischargedAt ? { dischargeDisposition: { text: 'Discharged' } } : undefined,
    location: row.beds.map(bedLocation),
    serviceProvider: clinicRef(ctx),
  };
}
