/**
 * Staff accounts: admins create, list and deactivate receptionists, lab technicians and nurses; the desk registers
 * walk-in patients.
 */
import { requireAdmin, requireDesk, type Actor } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import {
  NewNurseRequest,
  NewStaffRequest,
  WalkInRequest,
  type DeactivatedShape,
  type StaffJson,
  type WalkInJson,
} from './auth-shapes.ts';
import type { Static } from '../shared/wire-schema.ts';
import { refuseCommonPassword } from './passwords.ts';
import type { AuthDeps, StaffAccount } from './ports.ts';
import { sendVerification } from './verification.ts';

/** The staff an admin keeps accounts for here (doctors have their own screen). */
type DeskOrLab = 'reception' | 'lab' | 'nurse';
const WHO: Record<DeskOrLab, string> = { reception: 'Receptionist', lab: 'Lab technician', nurse: 'Nurse' };

const staffJson =
  (role: DeskOrLab) =>
  (a: StaffAccount): StaffJson => ({
    id: a.id,
    name: a.name,
    email: a.email,
    role,
    active: a.active,
    created_at: a.createdAt.toISOString(),
    ...(a.department ? { department: a.department } : {}),
  });

/** An admin creates a receptionist's account with a first password (from the admin screen, the API or `medora reception create`). */
export async function createReceptionist(deps: AuthDeps, body: unknown, actor: Actor): Promise<StaffJson> {
  return createStaffAccount(deps, 'reception', body, actor);
}

/** An admin creates a lab technician's account with a first password (the admin API or `medora lab-technicians add`). */
export async function createLabTechnician(deps: AuthDeps, body: unknown, actor: Actor): Promise<StaffJson> {
  return createStaffAccount(deps, 'lab', body, actor);
}

/**
 * An admin creates a nurse's account in a department, whose inpatients they then care for (the admin API or
 * `medora nurses add`); an unknown department is 422 naming `department_id`.
 */
export async function createNurse(deps: AuthDeps, body: unknown, actor: Actor): Promise<StaffJson> {
  requireAdmin(actor);
  const v = new Validator(asRecord(body));
  const { name, email, password, department_id } = readFields(v, NewNurseRequest);
  refuseCommonPassword(v, 'password', password);
  v.done();
  const passwordHash = await deps.hasher.hash(password);
  return deps.transaction(async (tx) => {
    const { user, department } = await tx.accounts.createNurse({
      name,
      email,
      passwordHash,
      departmentId: department_id,
    });
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'user',
      entityId: user.id,
      requestId: actor.requestId,
      details: { role: 'nurse', email, department_id },
    });
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      role: 'nurse',
      active: true,
      created_at: deps.clock.now().toISOString(),
      department,
    };
  });
}

async function createStaffAccount(deps: AuthDeps, role: DeskOrLab, body: unknown, actor: Actor): Promise<StaffJson> {
  requireAdmin(actor);
  const v = new Validator(asRecord(body));
  const { name, email, password } = readFields(v, NewStaffRequest);
  refuseCommonPassword(v, 'password', password);
  v.done();
  const passwordHash = await deps.hasher.hash(password);
  return deps.transaction(async (tx) => {
    const user = await tx.accounts.createStaff({ name, email, passwordHash, role });
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'user',
      entityId: user.id,
      requestId: actor.requestId,
      details: { role, email },
    });
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      role,
      active: true,
      created_at: deps.clock.now().toISOString(),
    };
  });
}

/** The receptionists, active first; `q` searches name and e-mail. */
export async function listReceptionists(
  deps: AuthDeps,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<Page<StaffJson>> {
  return listStaffOf(deps, 'reception', query, actor);
}

/** The lab technicians, active first; `q` searches name and e-mail. */
export async function listLabTechnicians(
  deps: AuthDeps,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<Page<StaffJson>> {
  return listStaffOf(deps, 'lab', query, actor);
}

async function listStaffOf(
  deps: AuthDeps,
  role: DeskOrLab,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<Page<StaffJson>> {
  requireAdmin(actor);
  const page = await deps.accounts.listStaff(role, pageRequest(query));
  return { ...page, items: page.items.map(staffJson(role)) };
}

/** The nurses with their departments, active first; `q` searches name and e-mail. */
export async function listNurses(
  deps: AuthDeps,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<Page<StaffJson>> {
  return listStaffOf(deps, 'nurse', query, actor);
}

/** Deactivates a receptionist: they cannot sign in, and their open sessions stop working at once. */
export async function deactivateReceptionist(
  deps: AuthDeps,
  rawId: RawId,
  actor: Actor,
): Promise<Static<typeof DeactivatedShape>> {
  return deactivateStaffOf(deps, 'reception', rawId, actor);
}

/** Deactivates a lab technician: they cannot sign in, and their open sessions stop working at once. */
export async function deactivateLabTechnician(
  deps: AuthDeps,
  rawId: RawId,
  actor: Actor,
): Promise<Static<typeof DeactivatedShape>> {
  return deactivateStaffOf(deps, 'lab', rawId, actor);
}

/** Deactivates a nurse: they cannot sign in, and their open sessions stop working at once. */
export async function deactivateNurse(
  deps: AuthDeps,
  rawId: RawId,
  actor: Actor,
): Promise<Static<typeof DeactivatedShape>> {
  return deactivateStaffOf(deps, 'nurse', rawId, actor);
}

async function deactivateStaffOf(
  deps: AuthDeps,
  role: DeskOrLab,
  rawId: RawId,
  actor: Actor,
): Promise<Static<typeof DeactivatedShape>> {
  requireAdmin(actor);
  const id = pathId(rawId, WHO[role]);
  await deps.transaction(async (tx) => {
    if (!(await tx.accounts.deactivateStaff(id, role))) throw notFound(WHO[role]);
    await tx.sessions.revokeAll(id, deps.clock.now());
    await tx.audit.record({
      actor,
      action: 'deactivate',
      entity: 'user',
      entityId: id,
      requestId: actor.requestId,
      details: { role },
    });
  });
  return { id, active: false };
}

/**
 * The desk registers a patient in person. The e-mail is optional: without one the patient has no sign-in and
 * gets no e-mail. One the desk enters waits until the patient follows the link sent to it; then it is their
 * sign-in, and they choose a password through "Forgot password".
 */
export async function registerWalkIn(
  deps: AuthDeps & { timeZone: string },
  body: unknown,
  actor: Actor,
): Promise<WalkInJson> {
  requireDesk(actor);
  const v = new Validator(asRecord(body));
  const { name, email = null, phone, birthdate, gender } = readFields(v, WalkInRequest);
  v.birthdateRange('birthdate', birthdate, clinicToday(deps.clock, deps.timeZone));
  v.done();
  // Nobody knows this password: the account is reached by a reset link to its e-mail, once it has one.
  const passwordHash = await deps.hasher.hash(deps.tokens.issue());
  return deps.transaction(async (tx) => {
    const created = await tx.accounts.createWalkIn({
      name,
      pendingEmail: email,
      passwordHash,
      phone,
      birthdate,
      gender,
    });
    await tx.audit.record({
      actor,
      action: 'register',
      entity: 'patient',
      entityId: created.patientId,
      patientId: created.patientId,
      requestId: actor.requestId,
      details: { via: 'front desk', email: email !== null },
    });
    await tx.hl7.queue({ event: 'A04', patientId: created.patientId }, deps.clock.now());
    if (email !== null)
      await sendVerification(deps, tx, { id: created.userId, name, email }, deps.clock.now(), 'first');
    return { patient: { id: created.patientId, name, email: null, pending_email: email, phone, birthdate, gender } };
  });
}
