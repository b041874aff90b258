import type { AllergyIntolerance } from '@medplum/fhirtypes';
import { type Allergy, substanceName } from '../medicines/allergies.ts';
import { meta, ref, type Named } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, storedCode, type ResourceDef } from './resource-def.ts';

/** One allergy or intolerance of a patient's list, or their recorded "no known allergies". */
export interface AllergyIntoleranceRow extends Omit<Allergy, 'patientId'> {
  updatedAt: Date;
  patient: Named;
}

const CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const VERIFICATION = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';
const NO_KNOWN_ALLERGY = { system: 'http://snomed.info/sct', code: '716186003', display: 'No known allergy' };

export const allergyIntoleranceResource: ResourceDef<AllergyIntoleranceRow, AllergyIntolerance> = {
  type: 'AllergyIntolerance',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient' },
    {
      name: 'clinical-status',
      type: 'token',
      documentation: 'active | inactive | resolved',
      stored: storedCode({ active: ['active'], inactive: ['inactive'], resolved: ['resolved'] }),
    },
    {
      name: 'type',
      type: 'token',
      documentation: 'allergy | intolerance',
      stored: storedCode({ allergy: ['allergy'], intolerance: ['intolerance'] }),
    },
    { name: 'date', type: 'date', documentation: 'When it was recorded' },
  ],
  sortDate: 'date',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row) => {
    const s = row.substance;
    const inError = row.status === 'entered-in-error';
    return {
      resourceType: 'AllergyIntolerance',
      id: String(row.id),
      meta: meta(row),
      // FHIR's invariants ait-1 and ait-2: a clinical status unless entered in error, then none.
      clinicalStatus: inError ? undefined : { coding: [{ system: CLINICAL, code: row.status }] },
      verificationStatus: { coding: [{ system: VERIFICATION, code: inError ? 'entered-in-error' : 'confirmed' }] },
      type: s.kind === 'none_known' ? undefined : row.type,
      category: s.kind === 'medicine' ? ['medication'] : undefined,
      code:
        s.kind === 'none_known' ? { coding: [NO_KNOWN_ALLERGY], text: substanceName(s) } : { text: substanceName(s) },
      patient: ref('Patient', row.patient.id, row.patient.name),
      recordedDate: row.recordedAt.toISOString(),
      recorder: { display: row.recordedBy.name },
      reaction: row.reaction
        ? [{ manifestation: [{ text: row.reaction }], severity: row.severity ?? undefined }]
        : undefined,
    };
  },
};
