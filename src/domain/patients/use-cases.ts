import { listEntry } from '../audit/audit.ts';
import { patientDetailJson } from '../records/records.ts';
import { GENDERS, ownPatientId, type Actor, type Gender } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { fileUrl } from '../shared/files.ts';
import { pageRequest } from '../shared/pagination.ts';
import { Validator, asRecord, pathId } from '../shared/validate.ts';
import { sendVerification } from '../auth/verification.ts';
import type { PatientsDeps, ProfileFields } from './ports.ts';
import { patientVisitJson, type PatientVisitJson } from './visits.ts';

/** The admin's patient list, searched by name, email or phone; every page read is audited. */
export async function listPatients(deps: PatientsDeps, query: Record<string, unknown>, actor: Actor) {
  const request = pageRequest(query);
  const page = await deps.patients.list(request);
  await deps.audit.record(listEntry(actor, 'patient', request));
  return page;
}

/** One patient with every medical record, for an admin; reading someone's records is audited. */
export async function showPatient(deps: PatientsDeps, rawId: string | number, actor: Actor) {
  const id = pathId(rawId, 'Patient');
  const patient = await deps.patients.find(id);
  if (!patient) throw notFound('Patient');
  const records = await deps.records.listForPatient(id);
  await deps.audit.record({ actor, action: 'read_records', entity: 'patient', entityId: id, patientId: id, requestId: actor.requestId });
  return patientDetailJson(patient, records);
}

/** The signed-in patient's own visits with their records and bills, newest first; the read is audited. */
export async function myRecords(deps: PatientsDeps, actor: Actor): Promise<{ records: PatientVisitJson[] }> {
  const patientId = patientOf(actor);
  const visits = await deps.visits.listForPatient(patientId);
  await deps.audit.record({ actor, action: 'read_records', entity: 'patient', entityId: patientId, patientId, requestId: actor.requestId });
  return { records: visits.map(patientVisitJson) };
}

export interface MyProfileJson {
  user: { id: number; name: string; email: string; role: 'patient'; profile_image: string | null };
  patient: {
    id: number;
    name: string;
    email: string;
    phone: string;
    birthdate: string | null;
    gender: Gender | null;
    photo: string | null;
    description: string;
    reminders: boolean;
    email_verified: boolean;
  };
}

/** The signed-in patient's own account and patient details. */
export async function myProfile(deps: PatientsDeps, actor: Actor): Promise<MyProfileJson> {
  const patient = await deps.patients.find(patientOf(actor));
  if (!patient) throw notFound('Patient');
  return {
    user: { id: patient.userId, name: patient.name, email: patient.email, role: 'patient', profile_image: fileUrl(patient.profileImageId) },
    patient: {
      id: patient.id,
      name: patient.name,
      email: patient.email,
      phone: patient.phone,
      birthdate: patient.birthdate,
      gender: patient.gender,
      photo: fileUrl(patient.photoId),
      description: patient.description,
      reminders: patient.reminders,
      email_verified: patient.emailVerified,
    },
  };
}

/**
 * The profile form: the same rules as signing up, and the email stays unique. A new sign-in e-mail needs the
 * current password, so a session left open somewhere cannot take the account over.
 */
export async function updateMyProfile(deps: PatientsDeps, body: unknown, actor: Actor) {
  const patientId = patientOf(actor);
  const current = await deps.patients.find(patientId);
  if (!current) throw notFound('Patient');
  const fields = readProfile(body, clinicToday(deps.clock, deps.timeZone), current.reminders);
  const emailChanged = current.email.toLowerCase() !== fields.email.toLowerCase();
  if (emailChanged) {
    const password = asRecord(body).current_password;
    await deps.confirmPassword(actor, typeof password === 'string' ? password : '');
  }
  await deps.transaction(async (tx) => {
    await tx.patients.update(patientId, fields);
    await tx.audit.record({ actor, action: 'update', entity: 'patient', entityId: patientId, patientId, requestId: actor.requestId });
    if (emailChanged) {
      await tx.audit.record({
        actor,
        action: 'email_changed',
        entity: 'user',
        entityId: actor.userId,
        patientId,
        requestId: actor.requestId,
        details: { from: current.email, to: fields.email },
      });
      await sendVerification(deps, tx, { id: actor.userId, name: fields.name, email: fields.email }, deps.clock.now());
    }
  });
  return myProfile(deps, actor);
}

function readProfile(body: unknown, today: string, reminders: boolean): ProfileFields {
  const input = asRecord(body);
  const v = new Validator(input);
  const name = v.text('name', { max: 200 });
  const email = v.email('email');
  const phone = v.text('phone', { max: 40 });
  const birthdate = v.birthdate('birthdate', today);
  const gender = v.oneOf('gender', GENDERS);
  v.done();
  // Absent, the choice stays as it was: older clients send the profile without it.
  return { name, email, phone, birthdate, gender, reminders: 'reminders' in input ? v.boolean('reminders') : reminders };
}

const patientOf = (actor: Actor) => ownPatientId(actor, 'Only patients have a patient profile');
