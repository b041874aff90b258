/** Accounts of the front desk: admins create, list and deactivate receptionists; the desk registers walk-in patients. */
import { GENDERS, requireAdmin, requireDesk, type Actor } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { newPassword } from './passwords.ts';
import type { AuthDeps, StaffAccount } from './ports.ts';
import { sendVerification } from './verification.ts';

export interface StaffJson {
  id: number;
  name: string;
  email: string;
  role: 'reception';
  active: boolean;
  created_at: string;
}

const staffJson = (a: StaffAccount): StaffJson => ({
  id: a.id,
  name: a.name,
  email: a.email,
  role: 'reception',
  active: a.active,
  created_at: a.createdAt.toISOString(),
});

/** An admin creates a receptionist's account with a first password (from the admin screen, the API or `medora reception create`). */
export async function createReceptionist(deps: AuthDeps, body: unknown, actor: Actor): Promise<StaffJson> {
  requireAdmin(actor);
  const v = new Validator(asRecord(body));
  const name = v.text('name', { max: 200, line: true });
  const email = v.email('email');
  const password = newPassword(v, 'password');
  v.done();
  const passwordHash = await deps.hasher.hash(password);
  return deps.transaction(async (tx) => {
    const user = await tx.accounts.createStaff({ name, email, passwordHash, role: 'reception' });
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'user',
      entityId: user.id,
      requestId: actor.requestId,
      details: { role: 'reception', email },
    });
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      role: 'reception',
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
  requireAdmin(actor);
  const page = await deps.accounts.listStaff('reception', pageRequest(query));
  return { ...page, items: page.items.map(staffJson) };
}

/** Deactivates a receptionist: they cannot sign in, and their open sessions stop working at once. */
export async function deactivateReceptionist(
  deps: AuthDeps,
  rawId: RawId,
  actor: Actor,
): Promise<{ id: number; active: false }> {
  requireAdmin(actor);
  const id = pathId(rawId, 'Receptionist');
  await deps.transaction(async (tx) => {
    if (!(await tx.accounts.deactivateStaff(id, 'reception'))) throw notFound('Receptionist');
    await tx.sessions.revokeAll(id, deps.clock.now());
    await tx.audit.record({
      actor,
      action: 'deactivate',
      entity: 'user',
      entityId: id,
      requestId: actor.requestId,
      details: { role: 'reception' },
    });
  });
  return { id, active: false };
}

export interface WalkInJson {
  /** `email` is none until the patient confirms `pending_email`, the address the desk entered. */
  patient: {
    id: number;
    name: string;
    email: null;
    pending_email: string | null;
    phone: string;
    birthdate: string;
    gender: string;
  };
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
  const input = asRecord(body);
  const v = new Validator(input);
  const name = v.text('name', { max: 200, line: true });
  const email = v.email('email', { optional: true });
  const phone = v.text('phone', { max: 40 });
  const birthdate = v.birthdate('birthdate', clinicToday(deps.clock, deps.timeZone));
  const gender = v.oneOf('gender', GENDERS);
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
    if (email !== null)
      await sendVerification(deps, tx, { id: created.userId, name, email }, deps.clock.now(), 'first');
    return { patient: { id: created.patientId, name, email: null, pending_email: email, phone, birthdate, gender } };
  });
}
