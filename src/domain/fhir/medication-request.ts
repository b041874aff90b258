import type { Dosage, MedicationRequest } from '@medplum/fhirtypes';
import { medicineLabel } from '../medicines/formulary.ts';
import { orderInWords } from '../medicines/medicines-answers.ts';
import type { MedicationOrderStatus } from '../medicines/mar.ts';
import type { MedicationRequestView } from '../medicines/ports.ts';
import { meta, ref } from './fhir.ts';
import { encounterOf } from './lab-codes.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, inverse, numericId, storedCode, type ResourceDef } from './resource-def.ts';

/** A prescription written at a visit or an inpatient medication order of a stay. */
export interface MedicationRequestRow extends MedicationRequestView {
  updatedAt: Date;
}

const REQUEST_STATUS = {
  active: 'active',
  discontinued: 'stopped',
  completed: 'completed',
} as const satisfies Record<MedicationOrderStatus, MedicationRequest['status']>;

const CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/medicationrequest-category';
const UCUM = 'http://unitsofmeasure.org';

const quantity = (value: number, unit: string) => ({ value, unit, system: UCUM, code: unit });

function dosageOf(row: MedicationRequestRow): Dosage {
  const f = row.frequency;
  const bounds = { start: row.startsAt.toISOString(), end: row.endsAt?.toISOString() };
  const repeat =
    f.kind === 'times_a_day'
      ? { frequency: f.times, period: 1, periodUnit: 'd' as const }
      : f.kind === 'every_hours'
        ? { frequency: 1, period: f.hours, periodUnit: 'h' as const }
        : f.kind === 'at_times'
          ? { timeOfDay: f.times.map((t) => `${t}:00`) }
          : {};
  return {
    text: orderInWords(row),
    patientInstruction: row.instructions || undefined,
    timing: { repeat: { boundsPeriod: bounds, ...repeat } },
    asNeededBoolean: f.kind === 'as_needed' ? true : undefined,
    route: { text: row.route },
    doseAndRate: [{ doseQuantity: quantity(row.dose.amount, row.dose.unit) }],
    maxDosePerPeriod:
      f.kind === 'as_needed'
        ? { numerator: { value: f.maxPerDay }, denominator: { value: 1, unit: 'd', system: UCUM, code: 'd' } }
        : undefined,
  };
}

export const medicationRequestResource: ResourceDef<MedicationRequestRow, MedicationRequest> = {
  type: 'MedicationRequest',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'subject', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'requester', type: 'reference', target: 'Practitioner', documentation: 'The prescribing doctor' },
    { name: 'medication', type: 'reference', target: 'Medication', documentation: 'The formulary medicine' },
    {
      name: 'status',
      type: 'token',
      documentation: 'active | stopped (discontinued) | completed',
      stored: storedCode(inverse(REQUEST_STATUS)),
    },
    {
      name: 'category',
      type: 'token',
      documentation: 'outpatient (a prescription at a visit) | inpatient (an order during a stay)',
      stored: storedCode({ outpatient: ['outpatient'], inpatient: ['inpatient'] }),
    },
    { name: 'authoredon', type: 'date', documentation: 'When it was prescribed or ordered' },
  ],
  sortDate: 'authoredon',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row, ctx) => {
    const inpatient = row.source.kind === 'stay';
    return {
      resourceType: 'MedicationRequest',
      id: String(row.id),
      meta: meta(row),
      status: REQUEST_STATUS[row.status],
      statusReason: row.discontinuedReason ? { text: row.discontinuedReason } : undefined,
      intent: 'order',
      category: [
        {
          coding: [
            inpatient
              ? { system: CATEGORY_SYSTEM, code: 'inpatient', display: 'Inpatient' }
              : { system: CATEGORY_SYSTEM, code: 'outpatient', display: 'Outpatient' },
          ],
        },
      ],
      reportedBoolean: false,
      medicationReference: ref('Medication', row.medicine.id, medicineLabel(row.medicine)),
      subject: ref('Patient', row.patient.id, row.patient.name),
      encounter: encounterOf(
        row.source.kind === 'stay'
          ? { appointmentId: null, admissionId: row.source.admissionId }
          : { appointmentId: row.source.appointmentId, admissionId: null },
      ),
      authoredOn: row.requestedAt.toISOString(),
      requester: ref('Practitioner', row.doctor.id, row.doctor.name),
      // Why a doctor prescribed despite a recorded allergy is for the clinic's staff, not the patient's download.
      note:
        ctx.staff && row.allergyOverride
          ? [{ text: `Prescribed despite a recorded allergy: ${row.allergyOverride.reason}` }]
          : undefined,
      dosageInstruction: [dosageOf(row)],
      dispenseRequest:
        row.quantity !== null || row.durationDays !== null
          ? {
              quantity: row.quantity === null ? undefined : { value: row.quantity },
              expectedSupplyDuration:
                row.durationDays === null ? undefined : { value: row.durationDays, unit: 'd', system: UCUM, code: 'd' },
            }
          : undefined,
    };
  },
};
