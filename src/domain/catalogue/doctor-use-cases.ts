import type { Actor } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { conflict, invalid, notFound, ensure } from '../shared/errors.ts';
import { pageRequest } from '../shared/pagination.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { readPhoto, type Photo } from './catalogue.ts';
import { refuseCommonPassword } from '../auth/passwords.ts';
import type { DoctorDeps, DoctorProfileFields, DoctorStore, DoctorTxDeps } from './ports.ts';
import { DoctorUpdateRequest, NewDoctorRequest, type Doctor, type DoctorDeletionJson } from './catalogue-shapes.ts';

interface DoctorInput extends DoctorProfileFields {
  password: string;
  photo: Photo | undefined;
}

function readDoctor(input: Record<string, unknown>, today: string, opts: { passwordRequired: boolean }): DoctorInput {
  const v = new Validator(input);
  const read = readFields(v, opts.passwordRequired ? NewDoctorRequest : DoctorUpdateRequest);
  const password = read.password ?? '';
  refuseCommonPassword(v, 'password', password);
  v.birthdateRange('birthdate', read.birthdate, today);
  v.done();
  return {
    name: read.name,
    email: read.email,
    password,
    phone: read.phone ?? '',
    gender: read.gender ?? null,
    specializationId: read.specialization_id ?? null,
    departmentId: read.department_id ?? null,
    bio: read.bio ?? '',
    birthdate: read.birthdate ?? null,
    address: read.address ?? '',
    photo: readPhoto(input.photo),
  };
}

/** A doctor as the edit form holds them, so a PUT may send only the fields it changes. */
function editableFields(doctor: Doctor): Record<string, unknown> {
  return {
    name: doctor.name,
    email: doctor.email,
    phone: doctor.phone,
    gender: doctor.gender,
    specialization_id: doctor.specialization?.id,
    department_id: doctor.department?.id,
    bio: doctor.bio,
    birthdate: doctor.birthdate,
    address: doctor.address,
  };
}

/** Active doctors, searched by name, email, specialization or department. */
export const listDoctors = (deps: DoctorDeps, query: Record<string, unknown>) => deps.doctors.list(pageRequest(query));

async function foundDoctor(doctors: DoctorStore, id: number): Promise<Doctor> {
  const doctor = ensure(await doctors.find(id), () => notFound('Doctor'));
  return doctor;
}

export const getDoctor = (deps: DoctorDeps, id: RawId) => foundDoctor(deps.doctors, pathId(id, 'Doctor'));

/** The active doctor signing in with `email`: how the command line names a doctor. */
export async function getDoctorByEmail(deps: DoctorDeps, email: string): Promise<Doctor> {
  const doctor = await deps.doctors.findByEmail(email.trim());
  if (!doctor) throw invalid({ doctor: [`no active doctor signs in with ${email}`] });
  return doctor;
}

/** The doctor's account (role doctor), photo and doctor row, all or nothing. */
export async function createDoctor(deps: DoctorDeps, body: unknown, actor: Actor): Promise<Doctor> {
  const fields = readNewDoctor(deps, body);
  // Hashing is slow on purpose; done before the transaction so it holds no connection meanwhile.
  const passwordHash = await deps.hasher.hash(fields.password);
  return deps.transaction((tx) => insertDoctor(tx, fields, passwordHash, actor));
}

/** The same doctor as `createDoctor`, inside the caller's transaction, its password hashed beforehand (the import's way). */
export async function createDoctorHashed(
  deps: DoctorTxDeps & Pick<DoctorDeps, 'clock' | 'timeZone'>,
  body: unknown,
  passwordHash: string,
  actor: Actor,
): Promise<Doctor> {
  return insertDoctor(deps, readNewDoctor(deps, body), passwordHash, actor);
}

const readNewDoctor = (deps: Pick<DoctorDeps, 'clock' | 'timeZone'>, body: unknown) =>
  readDoctor(asRecord(body), clinicToday(deps.clock, deps.timeZone), { passwordRequired: true });

async function insertDoctor(
  tx: DoctorTxDeps,
  fields: ReturnType<typeof readNewDoctor>,
  passwordHash: string,
  actor: Actor,
): Promise<Doctor> {
  const { password: _hashedAlready, photo, ...profile } = fields;
  const photoId = photo ? await tx.images.save(photo.contentType, photo.bytes) : null;
  const id = await tx.doctors.create({ ...profile, passwordHash, photoId });
  await tx.schedules.createDefaultPattern(id, profile.departmentId);
  await tx.audit.record({ actor, action: 'create', entity: 'doctor', entityId: id, requestId: actor.requestId });
  return foundDoctor(tx.doctors, id);
}

/** Changes the fields sent; a new password or photo replaces the old one, an absent one keeps it. */
export async function updateDoctor(deps: DoctorDeps, rawId: RawId, body: unknown, actor: Actor): Promise<Doctor> {
  const id = pathId(rawId, 'Doctor');
  const current = await foundDoctor(deps.doctors, id);
  const today = clinicToday(deps.clock, deps.timeZone);
  const { password, photo, ...profile } = readDoctor({ ...editableFields(current), ...asRecord(body) }, today, {
    passwordRequired: false,
  });
  const passwordHash = password ? await deps.hasher.hash(password) : undefined;
  return deps.transaction(async (tx) => {
    const photoId = photo ? await tx.images.save(photo.contentType, photo.bytes) : undefined;
    await tx.doctors.update(id, { ...profile, passwordHash, photoId });
    await tx.audit.record({ actor, action: 'update', entity: 'doctor', entityId: id, requestId: actor.requestId });
    return foundDoctor(tx.doctors, id);
  });
}

/**
 * Removes a doctor without losing history: refused while they still have scheduled appointments from today on;
 * a doctor with past appointments or records is deactivated; one with nothing attached is erased.
 */
export async function deleteDoctor(deps: DoctorDeps, rawId: RawId, actor: Actor): Promise<DoctorDeletionJson> {
  const id = pathId(rawId, 'Doctor');
  const today = clinicToday(deps.clock, deps.timeZone);
  return deps.transaction(async (tx) => {
    const attached = ensure(await tx.doctors.lockAttachments(id, today), () => notFound('Doctor'));
    if (attached.upcoming > 0) {
      const appointments =
        attached.upcoming === 1 ? '1 scheduled appointment' : `${attached.upcoming} scheduled appointments`;
      throw conflict(
        'doctor_has_appointments',
        `This doctor still has ${appointments}; cancel them before deleting the doctor`,
      );
    }
    const result = attached.hasHistory ? 'deactivated' : 'removed';
    if (result === 'removed') await tx.doctors.remove(id);
    else await tx.doctors.deactivate(id, deps.clock.now());
    await tx.audit.record({
      actor,
      action: 'delete',
      entity: 'doctor',
      entityId: id,
      requestId: actor.requestId,
      details: { result },
    });
    return { result };
  });
}
