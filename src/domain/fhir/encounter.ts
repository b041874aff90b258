import type { Encounter } from '@medplum/fhirtypes';
import { clinicRef, meta, ref, type FhirContext } from './fhir.ts';
import type { VisitRow } from './appointment.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, inverse, numericId, storedCode, type ResourceDef } from './resource-def.ts';
import { STAY_STATUS, isStayId, stayEncounter, type StayRow } from './stay-encounter.ts';

/** A visit that took place, the patient checked in or seen, with the id of its appointment and its record if written. */
export interface VisitEncounterRow extends VisitRow {
  kind: 'visit';
  status: 'checked_in' | 'completed';
  record: { id: number; serviceType: string } | null;
}

/** An Encounter is a visit that took place or a stay in a bed. */
export type EncounterRow = VisitEncounterRow | StayRow;

const VISIT_STATUS = { checked_in: 'arrived', completed: 'finished' } as const satisfies Record<
  VisitEncounterRow['status'],
  Encounter['status']
>;

const AMBULATORY = { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB', display: 'ambulatory' };
const ATTENDER = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType', code: 'ATND', display: 'attender' }],
};
const ENCOUNTER_CLASSES = { AMB: ['AMB'], IMP: ['IMP'] };

const visitEncounter = (row: VisitEncounterRow, ctx: FhirContext): Encounter => ({
  resourceType: 'Encounter',
  id: String(row.id),
  meta: meta(row),
  status: VISIT_STATUS[row.status],
  class: AMBULATORY,
  serviceType: row.record ? { text: row.record.serviceType } : undefined,
  subject: ref('Patient', row.patient.id, row.patient.name),
  participant: [{ type: [ATTENDER], individual: ref('Practitioner', row.doctor.id, row.doctor.name) }],
  appointment: [ref('Appointment', row.id)],
  period:
    row.status === 'completed'
      ? { start: row.start.toISOString(), end: row.end.toISOString() }
      : { start: row.start.toISOString() },
  // The diagnosis is clinical content: the front desk's Encounter has none (DESIGN §3).
  diagnosis: row.record && ctx.clinical ? [{ condition: ref('Condition', row.record.id), rank: 1 }] : undefined,
  location: row.room ? [{ location: ref('Location', row.room.id, row.room.name) }] : undefined,
  serviceProvider: clinicRef(ctx),
});

export const encounterResource: ResourceDef<EncounterRow, Encounter> = {
  type: 'Encounter',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient seen or admitted' },
    { name: 'subject', type: 'reference', target: 'Patient', documentation: 'The patient seen or admitted' },
    {
      name: 'practitioner',
      type: 'reference',
      target: 'Practitioner',
      documentation: 'The doctor seen, or who asked for the admission',
    },
    { name: 'appointment', type: 'reference', target: 'Appointment', documentation: 'The appointment of the visit' },
    { name: 'date', type: 'date', documentation: 'When the visit or the stay starts' },
    {
      name: 'status',
      type: 'token',
      documentation: 'arrived | in-progress | finished',
      stored: storedCode(inverse({ ...VISIT_STATUS, ...STAY_STATUS })),
    },
    {
      name: 'class',
      type: 'token',
      documentation: 'AMB (a visit) | IMP (a stay in a bed)',
      stored: storedCode(ENCOUNTER_CLASSES),
    },
  ],
  sortDate: 'date',
  isId: (id) => numericId(id) || isStayId(id),
  patientOf: (row) => row.patient.id,
  toFhir: (row, ctx) => (row.kind === 'stay' ? stayEncounter(row, ctx) : visitEncounter(row, ctx)),
};
