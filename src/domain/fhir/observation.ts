import type { Observation, ObservationReferenceRange } from '@medplum/fhirtypes';
import type { Interpretation } from '../lab/interpretation.ts';
import { OBSERVATION_STATUSES, type ObservationStatus, type ObservationValue } from '../lab/reports.ts';
import { meta, ref, type Named, type Versioned } from './fhir.ts';
import { encounterOf, ucumQuantity } from './lab-codes.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, prefixedId, storedCode, type ResourceDef } from './resource-def.ts';
import {
  FLUID_ID_PREFIX,
  NEWS2_ID_PREFIX,
  observationCodeToken,
  observationComponents,
  observationConcept,
  observationValue,
  vitalProfiles,
  type ObservationCode,
  type ObservationComponentRow,
} from './vital-observation.ts';

export const OBSERVATION_CATEGORIES = ['laboratory', 'imaging', 'vital-signs', 'survey', 'exam'] as const;

/**
 * A result on the one observation store, as it stands now (its version counts the corrections): a lab result, a
 * vital sign, a set's NEWS2 or a fluid intake or output (vital-observation.ts).
 */
export interface ObservationRow extends Versioned {
  /** The row's id, or `news2-<set>` / `fluid-<event>`. */
  fhirId: string;
  patient: Named;
  category: (typeof OBSERVATION_CATEGORIES)[number];
  test: ObservationCode;
  /** None when the components hold the values (blood pressure). */
  value: ObservationValue | null;
  components: ObservationComponentRow[];
  /** How a fluid went in or out. */
  method: string | null;
  appointmentId: number | null;
  admissionId: number | null;
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
const CATEGORY_NAMES = {
  laboratory: 'Laboratory',
  imaging: 'Imaging',
  'vital-signs': 'Vital Signs',
  survey: 'Survey',
  exam: 'Exam',
} as const;

function referenceRange(row: ObservationRow): ObservationReferenceRange[] | undefined {
  if (!row.range || row.value?.type !== 'quantity' || (row.range.low === null && row.range.high === null))
    return undefined;
  const unit = row.value.unit;
  return [
    {
      ...(row.range.low === null ? {} : { low: ucumQuantity(row.range.low, unit) }),
      ...(row.range.high === null ? {} : { high: ucumQuantity(row.range.high, unit) }),
    },
  ];
}

const isNews2Id = prefixedId(NEWS2_ID_PREFIX);
const isFluidId = prefixedId(FLUID_ID_PREFIX);

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
      documentation: 'The test or vital sign (LOINC, SNOMED CT, Medora lab-test or nursing codes)',
      stored: observationCodeToken,
    },
    {
      name: 'category',
      type: 'token',
      documentation: OBSERVATION_CATEGORIES.join(' | '),
      stored: storedCode(same(OBSERVATION_CATEGORIES)),
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
  isId: (id) => numericId(id) || isNews2Id(id) || isFluidId(id),
  patientOf: (row) => row.patient.id,
  toFhir: (row, ctx) => ({
    resourceType: 'Observation',
    id: row.fhirId,
    meta: { ...meta(row), profile: row.category === 'vital-signs' ? vitalProfiles(row.test.code) : undefined },
    basedOn: row.requestId === null ? undefined : [ref('ServiceRequest', row.requestId)],
    status: row.status,
    category: [
      { coding: [{ system: OBSERVATION_CATEGORY, code: row.category, display: CATEGORY_NAMES[row.category] }] },
    ],
    code: observationConcept(row.test, ctx),
    subject: ref('Patient', row.patient.id, row.patient.name),
    encounter: encounterOf(row),
    effectiveDateTime: row.effectiveAt.toISOString(),
    issued: row.issued.toISOString(),
    ...(row.value === null ? {} : observationValue(row.value)),
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
    method: row.method === null ? undefined : { text: row.method },
    specimen: row.specimenId === null ? undefined : ref('Specimen', row.specimenId),
    referenceRange: referenceRange(row),
    component: observationComponents(row.components, ctx),
  }),
};
