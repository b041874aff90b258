import type { Gender } from '../shared/actor.ts';
import { fileUrl } from '../shared/files.ts';
import { centsToDecimal, parseCents } from '../shared/money.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import {
  AmendRecordShape,
  RecordVisitShape,
  type MedicalRecordJson,
  type PatientCardJson,
  type PatientDetailJson,
  type RecordHistoryJson,
} from './records-shapes.ts';

export interface Named {
  id: number;
  name: string;
}

export interface MedicalRecord {
  id: number;
  appointmentId: number;
  patientId: number;
  disease: Named | null;
  diagnosis: string;
  labTests: string;
  prescriptions: string;
  serviceType: string;
  costCents: number;
  recordDate: string;
  doctor: Named;
  /** Every version, the current one last; more than one when the record was amended. */
  history: RecordVersion[];
}

/** The clinical content of a record: what an amendment may change. Its service and cost are billed and stay. */
export interface ClinicalContent {
  diseaseId: number;
  diagnosis: string;
  labTests: string;
  prescriptions: string;
}

/** One version of a record's clinical content, with who wrote it, when and why (no reason for the first). */
export interface RecordVersion {
  version: number;
  disease: Named | null;
  diagnosis: string;
  labTests: string;
  prescriptions: string;
  writtenBy: Named;
  writtenAt: Date;
  reason: string | null;
}

export interface Amendment {
  content: ClinicalContent;
  reason: string;
  /** The version it amends: an amendment of any other (one made meanwhile) is refused. */
  version: number;
}

/** The record's current version: the last of its history. */
export const currentVersion = (r: Pick<MedicalRecord, 'history'>): number => r.history.at(-1)?.version ?? 1;

/** A record's ETag: its current version, which If-Match names to amend it. */
export const recordEtag = (version: number) => `"${version}"`;

/** The version an If-Match header names (`"3"`, or W/"3"), or NaN for anything else (`*`, a list). */
function versionOfIfMatch(header: string): number {
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  return match ? Number(match[1]) : NaN;
}

/** What a doctor writes down about one visit. */
export interface Visit {
  diseaseId: number;
  diagnosis: string;
  labTests: string;
  prescriptions: string;
  serviceType: string;
  costCents: number;
  recordDate: string;
}

export type NewMedicalRecord = Visit & { appointmentId: number; patientId: number; doctorId: number };

export interface PatientCard {
  id: number;
  name: string;
  /** None for a patient registered at the desk without one. */
  email: string | null;
  phone: string;
  photoId: number | null;
}

export interface PatientProfile extends PatientCard {
  userId: number;
  birthdate: string | null;
  gender: Gender | null;
  description: string;
}

/**
 * Reads a visit from the form: disease, diagnosis and service type are required; cost is a non-negative
 * amount with at most two decimals (none means a free visit); the record date defaults to `today` and
 * cannot be in the future. `diseaseKnown` says whether the chosen disease exists in the catalogue.
 */
export async function readVisit(
  body: unknown,
  today: string,
  diseaseKnown: (id: number) => Promise<boolean>,
): Promise<Visit> {
  const v = new Validator(asRecord(body));
  const visit = readFields(v, RecordVisitShape);
  const content = clinicalContentOf(visit);
  const costCents = visit.cost === undefined ? 0 : (parseCents(visit.cost) ?? 0);
  const recordDate = visit.record_date ?? today;
  if (recordDate > today) v.fail('record_date', 'cannot be in the future');
  await checkDiseaseKnown(v, content, diseaseKnown);
  v.done();
  return { ...content, serviceType: visit.service_type, costCents, recordDate };
}

/**
 * Reads an amendment: the record's whole clinical content as it should now read, why, and the version it amends
 * (`version` in the body or If-Match; both, they must agree). Service type and cost
 * are refused: they are billed, and a bill changes only by an adjustment, never by editing the record.
 */
export async function readAmendment(
  body: unknown,
  diseaseKnown: (id: number) => Promise<boolean>,
  ifMatch?: string,
): Promise<Amendment> {
  const input = asRecord(body);
  const v = new Validator(input);
  const amendment = readFields(v, AmendRecordShape);
  const content = clinicalContentOf(amendment);
  const { reason, version: inBody } = amendment;
  const inHeader = ifMatch === undefined ? undefined : versionOfIfMatch(ifMatch);
  if (inHeader !== undefined && Number.isNaN(inHeader))
    v.fail('version', 'If-Match must be the ETag of the version amended, such as "3"');
  else if (inBody !== undefined && inHeader !== undefined && inBody !== inHeader)
    v.fail('version', `is ${inBody}, but If-Match names version ${inHeader}`);
  else if (inBody === undefined && inHeader === undefined && !v.failed('version')) {
    v.fail(
      'version',
      "is required: the version of the record this amends (the record's version, or its ETag in If-Match)",
    );
  }
  const version = inBody ?? inHeader ?? 0;
  for (const billed of ['service_type', 'cost', 'record_date']) {
    if (input[billed] !== undefined) v.fail(billed, 'cannot be amended: the bill changes only by an adjustment');
  }
  await checkDiseaseKnown(v, content, diseaseKnown);
  v.done();
  return { content, reason, version };
}

/** The clinical content a visit's record and an amendment both carry (records-shapes.ts reads them alike). */
function clinicalContentOf(read: {
  disease_id: number;
  diagnosis: string;
  lab_tests?: string;
  prescriptions?: string;
}): ClinicalContent {
  return {
    diseaseId: read.disease_id,
    diagnosis: read.diagnosis,
    labTests: read.lab_tests ?? '',
    prescriptions: read.prescriptions ?? '',
  };
}

/** Asked after every field is read, so an unknown disease is listed after the form's own problems. */
async function checkDiseaseKnown(
  v: Validator,
  { diseaseId }: ClinicalContent,
  diseaseKnown: (id: number) => Promise<boolean>,
): Promise<void> {
  if (diseaseId !== undefined && !(await diseaseKnown(diseaseId))) v.fail('disease_id', 'does not exist');
}

export function medicalRecordJson(r: MedicalRecord): MedicalRecordJson {
  return {
    id: r.id,
    appointment_id: r.appointmentId,
    disease: r.disease,
    diagnosis: r.diagnosis,
    lab_tests: r.labTests,
    prescriptions: r.prescriptions,
    service_type: r.serviceType,
    cost: centsToDecimal(r.costCents),
    cost_cents: r.costCents,
    record_date: r.recordDate,
    doctor: r.doctor,
    version: currentVersion(r),
    ...recordHistoryJson(r.history),
  };
}

/** Whether a record was amended, and every version of it, oldest first, as its readers show them. */
export function recordHistoryJson(history: RecordVersion[]): RecordHistoryJson {
  return {
    amended: history.length > 1,
    history: history.map((h) => ({
      version: h.version,
      disease: h.disease,
      diagnosis: h.diagnosis,
      lab_tests: h.labTests,
      prescriptions: h.prescriptions,
      written_by: h.writtenBy,
      written_at: h.writtenAt.toISOString(),
      reason: h.reason,
    })),
  };
}

export function patientCardJson(p: PatientCard): PatientCardJson {
  return { id: p.id, name: p.name, phone: p.phone, email: p.email, photo: fileUrl(p.photoId) };
}

/** The patient detail of docs/api.md: profile fields and every medical record, newest first. */
export function patientDetailJson(p: PatientProfile, records: MedicalRecord[]): PatientDetailJson {
  return {
    id: p.id,
    user: { id: p.userId, name: p.name, email: p.email },
    name: p.name,
    email: p.email,
    phone: p.phone,
    birthdate: p.birthdate,
    gender: p.gender,
    photo: fileUrl(p.photoId),
    description: p.description,
    medical_records: records.map(medicalRecordJson),
  };
}
