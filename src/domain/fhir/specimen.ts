import type { CodeableConcept, Specimen } from '@medplum/fhirtypes';
import type { SpecimenType } from '../lab/catalogue.ts';
import type { RejectionReason } from '../lab/orders.ts';
import { identifierSystem, meta, ref, type FhirContext, type Named } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, storedCode, type ResourceDef } from './resource-def.ts';

/** A specimen collected for one test ordered; a rejected one stays, unsatisfactory, beside the one collected again. */
export interface SpecimenRow {
  id: number;
  updatedAt: Date;
  specimenCode: string;
  patient: Named;
  requestId: number;
  type: SpecimenType;
  collectedAt: Date;
  collector: string;
  rejected: { reason: RejectionReason; note: string } | null;
}

/** HL7 v2 table 0487's specimen types where one names Medora's; a swab's kind is not recorded, so it has text alone. */
const V2_0487: Partial<Record<SpecimenType, [string, string]>> = {
  blood: ['BLD', 'Whole blood'],
  serum: ['SER', 'Serum'],
  plasma: ['PLAS', 'Plasma'],
  urine: ['UR', 'Urine'],
  stool: ['STL', 'Stool = Fecal'],
  csf: ['CSF', 'Cerebral spinal fluid'],
  sputum: ['SPT', 'Sputum'],
};

const typeOf = (type: SpecimenType): CodeableConcept => {
  const coded = V2_0487[type];
  return coded
    ? {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0487', code: coded[0], display: coded[1] }],
        text: type,
      }
    : { text: type };
};

export const specimenCodeSystem = (ctx: Pick<FhirContext, 'systems'>) => identifierSystem(ctx, 'lab-specimen');

export const specimenResource: ResourceDef<SpecimenRow, Specimen> = {
  type: 'Specimen',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'subject', type: 'reference', target: 'Patient', documentation: 'The patient' },
    {
      name: 'accession',
      type: 'token',
      documentation: "The specimen's id, as its label's barcode prints it",
      stored: (value, ctx) =>
        value.system === undefined || value.system === specimenCodeSystem(ctx) ? [value.code] : [],
    },
    {
      name: 'status',
      type: 'token',
      documentation: 'available | unsatisfactory (rejected)',
      stored: storedCode({ available: ['available'], unsatisfactory: ['unsatisfactory'] }),
    },
    { name: 'collected', type: 'date', documentation: 'When it was collected' },
  ],
  sortDate: 'collected',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row, ctx) => ({
    resourceType: 'Specimen',
    id: String(row.id),
    meta: meta(row),
    accessionIdentifier: { system: specimenCodeSystem(ctx), value: row.specimenCode },
    status: row.rejected ? 'unsatisfactory' : 'available',
    type: typeOf(row.type),
    subject: ref('Patient', row.patient.id, row.patient.name),
    request: [ref('ServiceRequest', row.requestId)],
    collection: { collector: { display: row.collector }, collectedDateTime: row.collectedAt.toISOString() },
    note: row.rejected
      ? [{ text: `Rejected: ${row.rejected.reason}${row.rejected.note ? ` (${row.rejected.note})` : ''}` }]
      : undefined,
  }),
};
