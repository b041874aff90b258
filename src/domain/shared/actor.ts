import { forbidden } from './errors.ts';

export const ROLES = ['patient', 'doctor', 'admin', 'reception', 'lab', 'nurse'] as const;
export type Role = (typeof ROLES)[number];

export const GENDERS = ['male', 'female', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

/** Who is asking: the signed-in user, with the patient or doctor row their role implies. */
export interface Actor {
  userId: number;
  role: Role;
  name: string;
  patientId?: number;
  doctorId?: number;
  /** A nurse's department: the ward whose inpatients they care for. */
  wardId?: number;
  requestId?: string;
}

/** The CLI acts as an admin of its own. */
export const cliActor = (requestId = 'cli'): Actor => ({ userId: 0, role: 'admin', name: 'medora cli', requestId });

// The one meaning of "acting as": the role and the row it implies, both present. Each message says what the
// caller was after, since a wrong-role request is refused by the router first and reaches these only from the CLI.

/** The actor's own patient id, or 403 with `message` for anyone who is not a patient. */
export function ownPatientId(actor: Actor, message: string): number {
  if (actor.role !== 'patient' || actor.patientId === undefined) throw forbidden(message);
  return actor.patientId;
}

/** The actor's own doctor id, or 403 with `message` for anyone who is not a doctor. */
export function ownDoctorId(actor: Actor, message: string): number {
  if (actor.role !== 'doctor' || actor.doctorId === undefined) throw forbidden(message);
  return actor.doctorId;
}

/** Reception and admins work the front desk: booking, moving and cancelling for patients, check-in, payments. */
export const DESK_ROLES = ['reception', 'admin'] as const satisfies readonly Role[];
export const isDesk = (actor: Actor) => (DESK_ROLES as readonly Role[]).includes(actor.role);

export function requireDesk(actor: Actor): void {
  if (!isDesk(actor)) throw forbidden('Only the front desk may do this');
}

export function requireAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw forbidden();
}
