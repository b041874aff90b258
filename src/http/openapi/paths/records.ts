import type { ModulePaths } from '../module-paths.ts';
import {
  AmendRecordShape,
  IfMatchHeader,
  MedicalRecordShape,
  PatientCardShape,
  PatientDetailShape,
  RecordVersionShape,
  RecordVisitShape,
  RecordedVisitShape,
} from '../../../domain/records/records-shapes.ts';
import { listOf, ref, string } from '../../../domain/shared/wire-schema.ts';
import { pageQuery } from '../components.ts';

/** The operations of src/http/routes/records.ts. */
export const recordsPaths: ModulePaths = {
  tag: 'Records',
  description:
    'Medical records: a doctor records a visit of their own appointment once it has begun (409 `visit_not_started` before), which completes ' +
    "the appointment and raises its bill in one transaction, and reads the patients they have seen. Another doctor's appointment, or a patient who never saw " +
    'this doctor, is answered 404. The doctor who wrote a record, or an admin, amends its clinical content with a reason; every version is kept ' +
    '(`history`, oldest first, the current one last) and each amendment is audited. Every read of clinical content is audited. Reception never ' +
    'receives it.',
  schemas: {
    MedicalRecord: MedicalRecordShape,
    RecordVersion: RecordVersionShape,
    PatientDetail: PatientDetailShape,
  },
  operations: {
    'POST /api/doctor/appointments/{id}/medical-record': {
      summary: 'Record a visit',
      description:
        "Doctors only, for their own appointment (another's → 404); audited. The record is written, the appointment completed and, unless the visit is free " +
        "(cost 0), a bill raised and the patient e-mailed it. Not `scheduled` or `checked_in` → 409 `invalid_transition`; before the visit's start → 409 " +
        '`visit_not_started`; an unknown disease, or a record date in the future or before the visit → 422 naming the field.',
      access: 'doctor',
      body: RecordVisitShape,
      answers: { 201: RecordedVisitShape },
      errors: [409],
    },
    'POST /api/medical-records/{id}/amendments': {
      summary: 'Amend a record',
      description:
        "The doctor who wrote the record (another's → 404) or an admin; audited (`amend`). The body is the clinical content as it should now read " +
        'and the reason; it becomes the current version, the earlier ones stay in `history`. Service type, cost and record date are billed and ' +
        'cannot be amended (422 naming the field): a bill changes only by an adjustment. An amendment names the version it amends, the ' +
        'record\'s `version` as read: in the body as `version`, or its ETag (`"3"`) in `If-Match` (both: they must agree; neither → 422 ' +
        '`version`). A record amended meanwhile is not overwritten: 409 `record_changed`, whose message and `errors.version` name the ' +
        "current version; read it again and amend that. The answer carries the new version's ETag.",
      access: ['doctor', 'admin'],
      headers: IfMatchHeader,
      body: AmendRecordShape,
      answers: { 201: { content: { 'application/json': ref(MedicalRecordShape) }, headers: { ETag: string() } } },
      errors: [409],
    },
    'GET /api/doctor/patients': {
      summary: "The doctor's patients",
      description:
        'Doctors only; audited. Everyone who has had an appointment with them; `q` searches name, e-mail and phone.',
      access: 'doctor',
      query: pageQuery,
      answers: { 200: listOf('patients', PatientCardShape) },
    },
    'GET /api/doctor/patients/{id}': {
      summary: 'One of my patients, with their records',
      description: 'Doctors only; audited (`read_records`). A patient who never saw this doctor → 404.',
      access: 'doctor',
      answers: { 200: ref(PatientDetailShape) },
    },
  },
};
