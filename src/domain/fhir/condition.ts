import type { Condition } from '@medplum/fhirtypes';
import { catalogueToken, codeSystemUrl } from './code-systems.ts';
import { meta, ref, type Named, type Versioned } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, type ResourceDef } from './resource-def.ts';

/** A medical record's disease and diagnosis, as recorded at the visit. */
export interface ConditionRow extends Versioned {
  patient: Named;
  doctor: Named;
  encounterId: number;
  disease: Named;
  diagnosis: string;
  /** The record's prescriptions and lab tests as the doctor wrote them; empty when none. */
  prescriptions: string;
  labTests: string;
  recordDate: string;
}

export const conditionResource: ResourceDef<ConditionRow, Condition> = {
  type: 'Condition',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'subject', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'encounter', type: 'reference', target: 'Encounter', documentation: 'The visit it was recorded at' },
    {
      name: 'code',
      type: 'token',
      documentation: "The disease (Medora's disease code system)",
      stored: catalogueToken('disease'),
    },
    { name: 'recorded-date', type: 'date', documentation: 'The date of the record' },
  ],
  sortDate: 'recorded-date',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row, ctx) => ({
    resourceType: 'Condition',
    id: String(row.id),
    meta: meta(row),
    verificationStatus: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'confirmed' }],
    },
    category: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/condition-category',
            code: 'encounter-diagnosis',
            display: 'Encounter Diagnosis',
          },
        ],
      },
    ],
    code: {
      coding: [{ system: codeSystemUrl(ctx, 'disease'), code: String(row.disease.id), display: row.disease.name }],
      text: row.disease.name,
    },
    subject: ref('Patient', row.patient.id, row.patient.name),
    encounter: ref('Encounter', row.encounterId),
    recordedDate: row.recordDate,
    recorder: ref('Practitioner', row.doctor.id, row.doctor.name),
    // The record's own text, as the patient reads it on My Records: the diagnosis, then what was prescribed and tested.
    note: [
      { text: row.diagnosis },
      ...(row.prescriptions ? [{ text: `Prescriptions: ${row.prescriptions}` }] : []),
      ...(row.labTests ? [{ text: `Lab tests: ${row.labTests}` }] : []),
    ],
  }),
};
