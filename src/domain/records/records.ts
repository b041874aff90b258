import type { Gender } from '../shared/actor.ts';
import { fileUrl } from '../shared/files.ts';
import { MAX_AMOUNT_CENTS, centsToDecimal, parseCents } from '../shared/money.ts';
import { Validator, asRecord } from '../shared/validate.ts';

export const MAX_CLINICAL_TEXT = 5000;
export const MAX_SERVICE_TYPE = 200;
export const MAX_AMENDMENT_REASON = 1000;

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
  const input = asRecord(body);
  const v = new Validator(input);
  const content = readClinicalContent(v);
  const serviceType = v.text('service_type', { max: MAX_SERVICE_TYPE });
  const costCents = readCost(v, input.cost);
  const recordDate = v.date('record_date', { optional: true }) ?? today;
  if (recordDate > today) v.fail('record_date', 'cannot be in the future');
  await checkDiseaseKnown(v, content, diseaseKnown);
  v.done();
  return { ...content, serviceType, costCents, recordDate };
}

/**
 * Reads an amendment: the record's whole clinical content as it should now read, and why. Service type and cost
 * are refused: they are billed, and a bill changes only by an adjustment, never by editing the record.
 */
export async function readAmendment(body: unknown, diseaseKnown: (id: number) => Promise<boolean>): Promise<Amendment> {
  const input = asRecord(body);
  const v = new Validator(input);
  const content = readClinicalContent(v);
  const reason = v.text('reason', { max: MAX_AMENDMENT_REASON });
  for (const billed of ['service_type', 'cost', 'record_date']) {
    if (input[billed] !== undefined) v.fail(billed, 'cannot be amended: the bill changes only by an adjustment');
  }
  await checkDiseaseKnown(v, content, diseaseKnown);
  v.done();
  return { content, reason };
}

/** The clinical content a visit's record and an amendment both carry, read by the same rules. */
function readClinicalContent(v: Validator): ClinicalContent {
  return {
    diseaseId: v.id('disease_id'),
    diagnosis: v.text('diagnosis', { max: MAX_CLINICAL_TEXT }),
    labTests: v.text('lab_tests', { optional: true, max: MAX_CLINICAL_TEXT }),
    prescriptions: v.text('prescriptions', { optional: true, max: MAX_CLINICAL_TEXT }),
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

function readCost(v: Validator, raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return 0;
  const cents = parseCents(raw);
  if (cents === undefined) {
    v.fail('cost', 'must be a non-negative amount with at most 2 decimals');
    return 0;
  }
  if (cents > MAX_AMOUNT_CENTS) v.fail('cost', `must be at most ${centsToDecimal(MAX_AMOUNT_CENTS)}`);
  return cents;
}

export function medicalRecordJson(r: MedicalRecord) {
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
    ...recordHistoryJson(r.history),
  };
}
export type MedicalRecordJson = ReturnType<typeof medicalRecordJson>;

/** Whether a record was amended, and every version of it, oldest first, as its readers show them. */
export function recordHistoryJson(history: RecordVersion[]) {
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

export function patientCardJson(p: PatientCard) {
  return { id: p.id, name: p.name, phone: p.phone, email: p.email, photo: fileUrl(p.photoId) };
}
export type PatientCardJson = ReturnType<typeof patientCardJson>;

/** The patient detail of docs/api.md: profile fields and every medical record, newest first. */
export function patientDetailJson(p: PatientProfile, records: MedicalRecord[]) {
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
export type PatientDetailJson = ReturnType<typeof patientDetailJson>;
