import type { MedicationAdministration } from '@medplum/fhirtypes';
import type { Route } from '../medicines/formulary.ts';
import type { DoseOutcome } from '../medicines/mar.ts';
import type { Dose } from '../medicines/ports.ts';
import { meta, ref, type Named } from './fhir.ts';
import { encounterOf } from './lab-codes.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, inverse, numericId, storedCode, type ResourceDef } from './resource-def.ts';

/** A dose of the MAR a nurse recorded (given, held, refused or missed); doses still due or cancelled are none. */
export interface MedicationAdministrationRow extends Omit<Dose, 'status' | 'recordedAt'> {
  updatedAt: Date;
  status: DoseOutcome;
  recordedAt: Date;
  patient: Named;
  admissionId: number;
  medicine: Named;
  route: Route;
}

const ADMINISTRATION_STATUS = {
  given: 'completed',
  held: 'not-done',
  refused: 'not-done',
  missed: 'not-done',
} as const satisfies Record<DoseOutcome, MedicationAdministration['status']>;

const UCUM = 'http://unitsofmeasure.org';

export const medicationAdministrationResource: ResourceDef<MedicationAdministrationRow, MedicationAdministration> = {
  type: 'MedicationAdministration',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'subject', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'request', type: 'reference', target: 'MedicationRequest', documentation: 'The order it is a dose of' },
    { name: 'medication', type: 'reference', target: 'Medication', documentation: 'The formulary medicine' },
    {
      name: 'status',
      type: 'token',
      documentation: 'completed (given) | not-done (held, refused or missed)',
      stored: storedCode(inverse(ADMINISTRATION_STATUS)),
    },
    { name: 'effective-time', type: 'date', documentation: 'When it was given, or when it was due if not' },
  ],
  sortDate: 'effective-time',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row) => ({
    resourceType: 'MedicationAdministration',
    id: String(row.id),
    meta: meta(row),
    status: ADMINISTRATION_STATUS[row.status],
    statusReason: row.status !== 'given' && row.reason ? [{ text: `${row.status}: ${row.reason}` }] : undefined,
    medicationReference: ref('Medication', row.medicine.id, row.medicine.name),
    subject: ref('Patient', row.patient.id, row.patient.name),
    context: encounterOf({ appointmentId: null, admissionId: row.admissionId }),
    effectiveDateTime: (row.givenAt ?? row.dueAt ?? row.recordedAt).toISOString(),
    performer: row.recordedBy ? [{ actor: { display: row.recordedBy } }] : undefined,
    request: ref('MedicationRequest', row.requestId),
    dosage:
      row.amount !== null && row.unit !== null
        ? { route: { text: row.route }, dose: { value: row.amount, unit: row.unit, system: UCUM, code: row.unit } }
        : undefined,
  }),
};
