import type { DiagnosticReport } from '@medplum/fhirtypes';
import type { Category } from '../lab/catalogue.ts';
import { REPORT_STATUSES, type ReportStatus } from '../lab/reports.ts';
import { meta, ref, type Named, type Versioned } from './fhir.ts';
import { encounterOf, labCodeToken, labConcept, type LabCode } from './lab-codes.ts';
import { orderNumberSystem } from './service-request.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, storedCode, type ResourceDef } from './resource-def.ts';

/** One report per order: its tests' results, signed off (final), then corrected or amended. */
export interface LabReportRow extends Versioned {
  orderNumber: string;
  patient: Named;
  doctor: Named;
  appointmentId: number | null;
  admissionId: number | null;
  status: ReportStatus;
  /** The one test or panel ordered; for several, LOINC's "Laboratory report" or "Diagnostic imaging study". */
  code: LabCode;
  categories: Category[];
  /** When the values were true: the first result's time, else the first collection's, else the order's. */
  effectiveAt: Date;
  /** When this version was made available: sign-off or the latest result, whichever came last. */
  issued: Date | null;
  requestIds: number[];
  specimenIds: number[];
  resultIds: number[];
}

const DIAGNOSTIC_SERVICE = 'http://terminology.hl7.org/CodeSystem/v2-0074';
/** HL7 v2 table 0074's diagnostic service sections. */
export const REPORT_CATEGORY = {
  laboratory: { code: 'LAB', display: 'Laboratory' },
  imaging: { code: 'RAD', display: 'Radiology' },
} as const satisfies Record<Category, { code: string; display: string }>;

export const diagnosticReportResource: ResourceDef<LabReportRow, DiagnosticReport> = {
  type: 'DiagnosticReport',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient' },
    { name: 'subject', type: 'reference', target: 'Patient', documentation: 'The patient' },
    {
      name: 'code',
      type: 'token',
      documentation: 'The test or panel ordered (LOINC, or Medora lab-test codes)',
      stored: labCodeToken,
    },
    {
      name: 'category',
      type: 'token',
      documentation: 'LAB | RAD (HL7 v2 table 0074)',
      stored: storedCode({ LAB: ['laboratory'], RAD: ['imaging'] }),
    },
    {
      name: 'status',
      type: 'token',
      documentation: REPORT_STATUSES.join(' | '),
      stored: storedCode(Object.fromEntries(REPORT_STATUSES.map((s) => [s, [s]]))),
    },
    { name: 'date', type: 'date', documentation: 'When the values were true (effectiveDateTime)' },
    { name: 'based-on', type: 'reference', target: 'ServiceRequest', documentation: 'A test ordered' },
    { name: 'specimen', type: 'reference', target: 'Specimen', documentation: 'A specimen measured' },
    { name: 'result', type: 'reference', target: 'Observation', documentation: 'A result' },
  ],
  sortDate: 'date',
  isId: numericId,
  patientOf: (row) => row.patient.id,
  toFhir: (row, ctx) => ({
    resourceType: 'DiagnosticReport',
    id: String(row.id),
    meta: meta(row),
    identifier: [{ system: orderNumberSystem(ctx), value: row.orderNumber }],
    basedOn: row.requestIds.map((id) => ref('ServiceRequest', id)),
    status: row.status,
    category: row.categories.map((c) => ({
      coding: [{ system: DIAGNOSTIC_SERVICE, ...REPORT_CATEGORY[c] }],
    })),
    code: labConcept(row.code, ctx),
    subject: ref('Patient', row.patient.id, row.patient.name),
    encounter: encounterOf(row),
    effectiveDateTime: row.effectiveAt.toISOString(),
    issued: row.issued?.toISOString(),
    specimen: row.specimenIds.length ? row.specimenIds.map((id) => ref('Specimen', id)) : undefined,
    result: row.resultIds.length ? row.resultIds.map((id) => ref('Observation', id)) : undefined,
  }),
};
