import type { Observation, ObservationReferenceRange } from '@medplum/fhirtypes';
import type { Interpretation } from '../lab/interpretation.ts';
import { OBSERVATION_STATUSES, type ObservationStatus, type ObservationValue } from '../lab/reports.ts';
import { meta, ref, type Named, type Versioned } from './fhir.ts';
import { labCodeToken, labConcept, ucumQuantity, type LabCode } from './lab-codes.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, storedCode, type ResourceDef } from './resource-def.ts';

/** A result on the one observation store, as it stands now (its version counts the corrections). */
export interface ObservationRow extends Versioned {
  patient: Named;
  category: 'laboratory' | 'imaging' | 'vital-signs';
  test: LabCode;
  value: ObservationValue;
  interpretation: Interpretation | null;
  range: { low: number | null; high: number | null } | null;
  status: ObservationStatus;
  effectiveAt: Date;
  /** When this version was recorded. */
  issued: Date;
  requestId: number | null;
  reportId: number | null;
  specimenId: number | null;
}

export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const INTERPRETATION_NAMES: Record<Interpretation, string> = {
  N: 'Normal',
  L: 'Low',
  H: 'High',
  LL: 'Critical low',
  HH: 'Critical high',
};
const CATEGORY_NAMES = { laboratory: 'Laboratory', imaging: 'Imaging', 'vital-signs': 'Vital Signs' } as const;

const resultValue = (
  value: ObservationValue,
): Pick<Observation, 'valueQuantity' | 'valueCodeableConcept' | 'valueString'> =>
  value.type === 'quantity'
    ? { valueQuantity: ucumQuantity(value.value, value.unit) }
    : value.type === 'coded'
      ? { valueCodeableConcept: { text: value.code } }
      : { valueString: value.text };

function referenceRange(row: ObservationRow): ObservationReferenceRange[] | undefined {
  if (!row.range || row.value.type !== 'quantity' || (row.range.low === null && row.range.high === null))
    return undefined;
  const unit = row.value.unit;
  return [
    {
      ...(row.range.low === null ? {} : { low: ucumQuantity(row.range.low, unit) }),
      ...(row.range.high === null ? {} : { high: ucumQuantity(row.range.high, unit) }),
    },
  ];
}

const same = <S extends string>(codes: readonly S[]) =>
  Object.fromEntries(codes.map((c) => [c, [c]])) as Record<S, S[]>;

export const observationResource: ResourceDef<ObservationRow, Observation> = {
  type: 'Observation',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'subject', type: 'reference', target: 'Patient', documentation: 'The patient' },
    {
      name: 'code',
      type: 'token',
      documentation: 'The test (LOINC, or Medora lab-test codes)',
      stored: labCodeToken,
    },
    {
      name: 'category',
      type: 'token',
      documentation: 'laboratory | imaging',
      stored: storedCode(same(['laboratory', 'imaging', 'vital-signs'])),
    },
    {
      name: 'status',
      type: 'token',
      documentation: OBSERVATION_STATUSES.join(' | '),
      stored: storedCode(same(OBSERVATION_STATUSES)),
    },
    { name: 'date', type: 'date', documentation: 'When the value was true (effectiveDateTime)' },
    { name: 'based-on', type: 'reference', target: 'ServiceRequest', documentation: 'The test ordered' },
    { name: 'specimen', type: 'reference', target: 'Specimen', documentation: 'The specimen measured' },
  ],
  sortDate: 'date',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row, ctx) => ({
    resourceType: 'Observation',
    id: String(row.id),
    meta: meta(row),
    basedOn: row.requestId === null ? undefined : [ref('ServiceRequest', row.requestId)],
    status: row.status,
    category: [
      { coding: [{ system: OBSERVATION_CATEGORY, code: row.category, display: CATEGORY_NAMES[row.category] }] },
    ],
    code: labConcept(row.test, ctx),
    subject: ref('Patient', row.patient.id, row.patient.name),
    effectiveDateTime: row.effectiveAt.toISOString(),
    issued: row.issued.toISOString(),
    ...resultValue(row.value),
    interpretation:
      row.interpretation === null
        ? undefined
        : [
            {
              coding: [
                {
                  system: INTERPRETATION,
                  code: row.interpretation,
                  display: INTERPRETATION_NAMES[row.interpretation],
                },
              ],
            },
          ],
    specimen: row.specimenId === null ? undefined : ref('Specimen', row.specimenId),
    referenceRange: referenceRange(row),
  }),
};
