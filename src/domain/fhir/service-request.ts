import type { ServiceRequest } from '@medplum/fhirtypes';
import type { Category } from '../lab/catalogue.ts';
import type { ItemStatus, Priority } from '../lab/orders.ts';
import { identifierSystem, meta, ref, type Named } from './fhir.ts';
import { encounterOf, labCodeToken, labConcept, type LabCode } from './lab-codes.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, inverse, numericId, storedCode, type ResourceDef } from './resource-def.ts';

/** One test ordered (a panel's member tests each one), under its order's number. */
export interface LabRequestRow {
  id: number;
  updatedAt: Date;
  orderNumber: string;
  patient: Named;
  doctor: Named;
  appointmentId: number | null;
  admissionId: number | null;
  priority: Priority;
  clinicalNote: string;
  orderedAt: Date;
  status: ItemStatus;
  category: Category;
  test: LabCode;
  /** The specimen in use (not rejected), if one was collected. */
  specimenId: number | null;
}

/** A test ordered on FHIR's request-status (required binding): a rejected specimen leaves the request open. */
const REQUEST_STATUS = {
  waiting: 'active',
  collected: 'active',
  rejected: 'active',
  resulted: 'completed',
  cancelled: 'revoked',
} as const satisfies Record<ItemStatus, ServiceRequest['status']>;

/** SNOMED CT's categories of a request, as US Core's ServiceRequest category example names them. */
export const REQUEST_CATEGORY = {
  laboratory: { system: 'http://snomed.info/sct', code: '108252007', display: 'Laboratory procedure' },
  imaging: { system: 'http://snomed.info/sct', code: '363679005', display: 'Imaging' },
} as const satisfies Record<Category, { system: string; code: string; display: string }>;

export const orderNumberSystem = (ctx: Parameters<typeof identifierSystem>[0]) => identifierSystem(ctx, 'lab-order');

export const serviceRequestResource: ResourceDef<LabRequestRow, ServiceRequest> = {
  type: 'ServiceRequest',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'subject', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'requester', type: 'reference', target: 'Practitioner', documentation: 'The ordering doctor' },
    {
      name: 'code',
      type: 'token',
      documentation: 'The test (LOINC, or Medora lab-test codes)',
      stored: labCodeToken,
    },
    {
      name: 'category',
      type: 'token',
      documentation: '108252007 (laboratory procedure) | 363679005 (imaging)',
      stored: storedCode({ '108252007': ['laboratory'], '363679005': ['imaging'] }),
    },
    {
      name: 'status',
      type: 'token',
      documentation: 'active | completed | revoked',
      stored: storedCode(inverse(REQUEST_STATUS)),
    },
    {
      name: 'requisition',
      type: 'token',
      documentation: "The order's number, every test of one order sharing it",
      stored: (value, ctx) =>
        value.system === undefined || value.system === orderNumberSystem(ctx) ? [value.code] : [],
    },
    { name: 'authored', type: 'date', documentation: 'When it was ordered' },
  ],
  sortDate: 'authored',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row, ctx) => ({
    resourceType: 'ServiceRequest',
    id: String(row.id),
    meta: meta(row),
    requisition: { system: orderNumberSystem(ctx), value: row.orderNumber },
    status: REQUEST_STATUS[row.status],
    intent: 'order',
    category: [{ coding: [REQUEST_CATEGORY[row.category]] }],
    priority: row.priority,
    code: labConcept(row.test, ctx),
    subject: ref('Patient', row.patient.id, row.patient.name),
    encounter: encounterOf(row),
    authoredOn: row.orderedAt.toISOString(),
    requester: ref('Practitioner', row.doctor.id, row.doctor.name),
    specimen: row.specimenId === null ? undefined : [ref('Specimen', row.specimenId)],
    note: ctx.clinical && row.clinicalNote ? [{ text: row.clinicalNote }] : undefined,
  }),
};
