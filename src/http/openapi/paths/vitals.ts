import type { ModulePaths } from '../module-paths.ts';
import { array, id, object, ref } from '../../../domain/shared/wire-schema.ts';
import {
  FluidBalanceShape,
  FluidRequestShape,
  FlowsheetShape,
  IdempotencyKeyHeader,
  News2AlertShape,
  News2Shape,
  NursingNoteRequestShape,
  NursingNoteShape,
  Spo2ScaleRequestShape,
  Spo2ScaleShape,
  VitalCorrectionRequestShape,
  VitalSetRequestShape,
  VitalSetShape,
} from '../../../domain/vitals/vitals-shapes.ts';

const WARD_STAFF = ['nurse', 'doctor'] as const;
const READERS = ['nurse', 'doctor', 'admin'] as const;
const WHO =
  'A nurse reaches the inpatients in the beds of their department, a doctor their care team’s patients (or through break the glass); ' +
  'anyone else’s patient, or none, is 404.';

/** The operations of src/http/routes/vitals.ts. */
export const vitalsPaths: ModulePaths = {
  tag: 'Vital signs',
  description:
    'Vital-sign sets on the one observation store (UCUM; a temperature in [degF] is stored in Cel and shown in CLINIC_TEMPERATURE_UNIT), ' +
    'NEWS2 (RCP 2017) on every complete set with its clinical risk, the next set due and alerts on medium or high risk; a stay’s ' +
    'flowsheet, fluid balance (totals per CLINIC_SHIFT_HOURS shift and per 24 h) and nursing notes.',
  schemas: {
    News2: News2Shape,
    VitalSet: VitalSetShape,
    NursingNote: NursingNoteShape,
    News2Alert: News2AlertShape,
  },
  operations: {
    'POST /api/vitals/sets': {
      summary: 'Record a set of vital signs',
      description:
        `At a stay (\`admission_id\`) or a visit (\`appointment_id\`). A value a body cannot show → 422 naming the field; a unit that is not UCUM ` +
        `or does not convert → 422 naming its \`*_unit\`. A complete set is scored by NEWS2 (the stay’s SpO2 scale); medium or high risk ` +
        `alerts the ward and e-mails the patient’s doctor. The same \`Idempotency-Key\` again → 200 with the set stored the first time. A stay ` +
        `that has ended → 409 \`stay_closed\`. ${WHO} Audited.`,
      access: [...WARD_STAFF],
      headers: IdempotencyKeyHeader,
      body: VitalSetRequestShape,
      answers: { 200: ref(VitalSetShape), 201: ref(VitalSetShape) },
      errors: [404, 409],
    },
    'GET /api/vitals/sets/{id}': {
      summary: 'A set of vital signs',
      description: `With its NEWS2 and the next set due. ${WHO}`,
      access: [...READERS],
      answers: { 200: ref(VitalSetShape) },
    },
    'POST /api/vitals/sets/{id}/correct': {
      summary: 'Correct a set',
      description:
        'Never in place: each value given becomes a new version of its observation with the reason, the set is scored again and its ' +
        `version goes up. A stale \`version\` → 409 \`stale_version\`. ${WHO} Audited.`,
      access: [...WARD_STAFF],
      body: VitalCorrectionRequestShape,
      answers: { 200: ref(VitalSetShape) },
      errors: [409],
    },
    'GET /api/admissions/{id}/flowsheet': {
      summary: 'A stay’s flowsheet',
      description: `Each vital and NEWS2 as a series over time (null where a set lacks it: a gap), and every set. ${WHO} Audited as a read.`,
      access: [...READERS],
      answers: { 200: FlowsheetShape },
    },
    'PUT /api/admissions/{id}/spo2-scale': {
      summary: 'Set the stay’s SpO2 scale',
      description: `A doctor of the care team chooses NEWS2’s SpO2 scale 2 (hypercapnic respiratory failure) or back to 1; later sets use it. ${WHO} Audited.`,
      access: 'doctor',
      body: Spo2ScaleRequestShape,
      answers: { 200: Spo2ScaleShape },
    },
    'GET /api/doctor/news2-alerts': {
      summary: 'The NEWS2 alerts of a doctor’s day',
      description:
        'The open stays of the doctor’s care team (the ward’s doctors included) whose latest set scores medium or high, highest first.',
      access: 'doctor',
      answers: { 200: object({ alerts: array(ref(News2AlertShape)) }) },
    },
    'POST /api/admissions/{id}/fluids': {
      summary: 'Record fluid in or out',
      description: `Intake (oral, intravenous, enteral-tube, other) or output (urine, vomit, drain, stool, nasogastric, other) in mL. The same \`Idempotency-Key\` again stores nothing new. ${WHO} Audited.`,
      access: [...WARD_STAFF],
      headers: IdempotencyKeyHeader,
      body: FluidRequestShape,
      answers: { 201: object({ id: id() }) },
    },
    'GET /api/admissions/{id}/fluid-balance': {
      summary: 'A stay’s fluid balance',
      description: `Its events, totals per shift (CLINIC_SHIFT_HOURS from 07:00 on the clinic’s clock) and per 24 h, with the running balance. ${WHO}`,
      access: [...READERS],
      answers: { 200: FluidBalanceShape },
    },
    'POST /api/admissions/{id}/nursing-notes': {
      summary: 'Write a nursing note',
      description:
        'Timestamped and signed by its writer; never edited: a mistake is corrected by a new note naming it in `corrects` (once: a ' +
        `corrected note again → 409 \`already_corrected\`). ${WHO} Audited.`,
      access: [...WARD_STAFF],
      body: NursingNoteRequestShape,
      answers: { 201: ref(NursingNoteShape) },
      errors: [409],
    },
    'GET /api/admissions/{id}/nursing-notes': {
      summary: 'A stay’s nursing notes',
      description: `Oldest first, each with the note that corrects it. ${WHO}`,
      access: [...READERS],
      answers: { 200: object({ notes: array(ref(NursingNoteShape)) }) },
    },
  },
};
