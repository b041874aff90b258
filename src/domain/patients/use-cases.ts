import { listEntry } from '../audit/audit.ts';
import { patientDetailJson } from '../records/records.ts';
import { ownPatientId, requireDesk, type Actor } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { notFound, ensure } from '../shared/errors.ts';
import { fileUrl } from '../shared/files.ts';
import { pageRequest } from '../shared/pagination.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { sendVerification } from '../auth/verification.ts';
import { emailChangeNotice } from '../notifications/templates.ts';
import {
  OwnProfileRequest,
  PatientFieldsShape,
  PatientFieldsWithoutEmailShape,
  type DeskPatientJson,
  type MyProfileJson,
  type PatientJson,
  type PatientVisitJson,
} from './patients-shapes.ts';
import type { PatientsDeps, PatientsStores, ProfileFields } from './ports.ts';
import { patientVisitJson } from './visits.ts';

/** The admin's and the desk's patient list, searched by name, email or phone, with no-shows; every page read is audited. */
export async function listPatients(deps: PatientsDeps, query: Record<string, unknown>, actor: Actor) {
  requireDesk(actor);
  const request = pageRequest(query);
  const page = await deps.patients.list(request);
  await deps.audit.record(listEntry(actor, 'patient', request));
  return page;
}

/** One patient as the front desk sees them: details, no-shows and any address waiting for confirmation, never their medical records. Audited. */
export async function deskPatient(
  deps: PatientsDeps,
  rawId: string | number,
  actor: Actor,
): Promise<{ patient: DeskPatientJson }> {
  requireDesk(actor);
  const id = pathId(rawId, 'Patient');
  const patient = ensure(await deps.patients.card(id), () => notFound('Patient'));
  await deps.audit.record({
    actor,
    action: 'read',
    entity: 'patient',
    entityId: id,
    patientId: id,
    requestId: actor.requestId,
  });
  return { patient };
}

/** One patient with every medical record, for an admin; reading someone's records is audited. */
export async function showPatient(deps: PatientsDeps, rawId: string | number, actor: Actor) {
  const id = pathId(rawId, 'Patient');
  const patient = ensure(await deps.patients.find(id), () => notFound('Patient'));
  const records = await deps.records.listForPatient(id);
  await deps.audit.record({
    actor,
    action: 'read_records',
    entity: 'patient',
    entityId: id,
    patientId: id,
    requestId: actor.requestId,
  });
  return patientDetailJson(patient, records);
}

/** The signed-in patient's own visits with their records and bills, newest first; the read is audited. */
export async function myRecords(deps: PatientsDeps, actor: Actor): Promise<{ records: PatientVisitJson[] }> {
  const patientId = patientOf(actor);
  const visits = await deps.visits.listForPatient(patientId);
  await deps.audit.record({
    actor,
    action: 'read_records',
    entity: 'patient',
    entityId: patientId,
    patientId,
    requestId: actor.requestId,
  });
  return { records: visits.map(patientVisitJson) };
}

const patientJson = (patient: FoundPatient): PatientJson => ({
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
  pending_email: patient.pendingEmail,
});

/** The signed-in patient's own account and patient details. */
export async function myProfile(deps: PatientsDeps, actor: Actor): Promise<MyProfileJson> {
  const patient = await foundPatient(deps, patientOf(actor));
  const email = signInEmail(patient);
  return {
    user: {
      id: patient.userId,
      name: patient.name,
      email,
      role: 'patient',
      profile_image: fileUrl(patient.profileImageId),
    },
    patient: { ...patientJson(patient), email },
  };
}

/** A signed-in patient reached their account by its e-mail, so they have one. */
function signInEmail(patient: FoundPatient): string {
  if (patient.email === null) throw new Error(`patient ${patient.id} is signed in but has no e-mail`);
  return patient.email;
}

/**
 * The profile form: the same rules as signing up, and the email stays unique. A new sign-in e-mail needs the
 * current password, so a session left open somewhere cannot take the account over.
 */
export async function updateMyProfile(deps: PatientsDeps, body: unknown, actor: Actor) {
  const current = await foundPatient(deps, patientOf(actor));
  const { fields, currentPassword } = readOwnProfile(body, clinicToday(deps.clock, deps.timeZone), current.reminders);
  if (newEmail(current, fields) !== null) await deps.confirmPassword(actor, currentPassword);
  await saveOwnProfile(deps, current, fields, actor);
  return myProfile(deps, actor);
}

/**
 * An admin or the desk corrects a patient's contact details by the patient's own rules; fields left out keep
 * their values. A patient registered without an e-mail may stay without one until it is added here; once
 * confirmed, it is their sign-in and cannot be removed. A new e-mail waits until the patient confirms it from that
 * address (see saveStaffEdit); then a walk-in can choose a password through "Forgot password".
 */
export async function updatePatient(
  deps: PatientsDeps,
  rawId: RawId,
  body: unknown,
  actor: Actor,
): Promise<{ patient: PatientJson }> {
  requireDesk(actor);
  const current = await foundPatient(deps, pathId(rawId, 'Patient'));
  // Reminders are the patient's own choice, not a contact detail.
  const { reminders: _theirs, ...changes } = asRecord(body);
  const fields = readStaffEdit(
    { ...profileInput(current), ...changes },
    clinicToday(deps.clock, deps.timeZone),
    current.reminders,
    current.email === null,
  );
  await saveStaffEdit(deps, current, fields, actor);
  return { patient: patientJson(await foundPatient(deps, current.id)) };
}

type FoundPatient = NonNullable<Awaited<ReturnType<PatientsDeps['patients']['find']>>>;

async function foundPatient(deps: PatientsDeps, id: number): Promise<FoundPatient> {
  const patient = ensure(await deps.patients.find(id), () => notFound('Patient'));
  return patient;
}

/** The patient as the profile form holds them. */
const profileInput = (patient: FoundPatient): Record<string, unknown> => ({
  name: patient.name,
  email: patient.email,
  phone: patient.phone,
  birthdate: patient.birthdate,
  gender: patient.gender,
});

/** The e-mail the fields newly give the patient, if any. */
const newEmail = (current: FoundPatient, fields: ProfileFields): string | null =>
  fields.email !== null && fields.email.toLowerCase() !== current.email?.toLowerCase() ? fields.email : null;

/**
 * The patient's own details and their audit rows in one transaction. A new e-mail, given with their password, is
 * their sign-in at once and gets its confirmation link (reminders wait for it).
 */
async function saveOwnProfile(
  deps: PatientsDeps,
  current: FoundPatient,
  fields: ProfileFields,
  actor: Actor,
): Promise<void> {
  const patientId = current.id;
  await deps.transaction(async (tx) => {
    await tx.patients.update(patientId, fields);
    await tx.audit.record({
      actor,
      action: 'update',
      entity: 'patient',
      entityId: patientId,
      patientId,
      requestId: actor.requestId,
    });
    await tx.hl7.queue({ event: 'A08', patientId }, deps.clock.now());
    const email = newEmail(current, fields);
    if (email !== null) {
      await tx.audit.record({
        actor,
        action: 'email_changed',
        entity: 'user',
        entityId: current.userId,
        patientId,
        requestId: actor.requestId,
        details: { from: current.email, to: email },
      });
      await sendVerification(deps, tx, { id: current.userId, name: fields.name, email }, deps.clock.now());
    }
  });
}

/**
 * Staff's edit and its audit rows in one transaction. A new e-mail does not replace the one the patient signs in
 * with: it waits aside until the patient confirms it from that address — with their password when they have a
 * sign-in (auth's verifyEmail) — while the old address keeps working, receives every message and is told.
 * Switching at once, even marked unverified, would let whoever types their own address here ask "Forgot password"
 * for the account and read the patient's records; the desk is the one role that must never see them.
 */
async function saveStaffEdit(
  deps: PatientsDeps,
  current: FoundPatient,
  fields: ProfileFields,
  actor: Actor,
): Promise<void> {
  const email = newEmail(current, fields);
  await deps.transaction(async (tx) => {
    await tx.patients.update(current.id, { ...fields, email: current.email });
    await tx.audit.record({
      actor,
      action: 'update',
      entity: 'patient',
      entityId: current.id,
      patientId: current.id,
      requestId: actor.requestId,
    });
    await tx.hl7.queue({ event: 'A08', patientId: current.id }, deps.clock.now());
    if (email !== null) await requestEmailChange(deps, tx, current, fields.name, email, actor);
  });
}

/** The new address waits for confirmation; a verification goes to it and a notice to the address in use, if any. */
async function requestEmailChange(
  deps: PatientsDeps,
  tx: PatientsStores,
  current: FoundPatient,
  name: string,
  email: string,
  actor: Actor,
): Promise<void> {
  const now = deps.clock.now();
  await tx.patients.requestEmailChange(current.id, email);
  await tx.audit.record({
    actor,
    action: 'email_change_requested',
    entity: 'user',
    entityId: current.userId,
    patientId: current.id,
    requestId: actor.requestId,
    details: { from: current.email, to: email },
  });
  if (current.email !== null)
    await tx.outbox.enqueue(
      emailChangeNotice(deps.clinic, { email: current.email, userId: current.userId, name }, email, now),
    );
  await sendVerification(
    deps,
    tx,
    { id: current.userId, name, email },
    now,
    current.email === null ? 'first' : 'change',
  );
}

/** The patient's own form: every detail, and their reminders' choice (absent: as it was, as older clients send it). */
function readOwnProfile(
  body: unknown,
  today: string,
  reminders: boolean,
): { fields: ProfileFields; currentPassword: string } {
  const input = asRecord(body);
  const v = new Validator(input);
  const request = readFields(v, OwnProfileRequest);
  v.birthdateRange('birthdate', request.birthdate, today);
  v.done();
  const { name, email, phone, birthdate, gender, current_password: currentPassword = '' } = request;
  const choice = 'reminders' in input ? request.reminders === true : reminders;
  return { fields: { name, email, phone, birthdate, gender, reminders: choice }, currentPassword };
}

/** Staff's edit over the patient's current details; `emailOptional` for a patient who has none yet: it stays none. */
function readStaffEdit(input: unknown, today: string, reminders: boolean, emailOptional: boolean): ProfileFields {
  const v = new Validator(asRecord(input));
  const request = readFields(v, emailOptional ? PatientFieldsWithoutEmailShape : PatientFieldsShape);
  v.birthdateRange('birthdate', request.birthdate, today);
  v.done();
  const { name, email = null, phone, birthdate, gender } = request;
  return { name, email, phone, birthdate, gender, reminders };
}

const patientOf = (actor: Actor) => ownPatientId(actor, 'Only patients have a patient profile');
