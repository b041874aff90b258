import { requireAdmin, type Actor } from '../shared/actor.ts';
import { notFound, ensure } from '../shared/errors.ts';
import { readInput } from '../shared/read-fields.ts';
import { fileUrl } from '../shared/files.ts';
import type { UserJson } from '../shared/shared-shapes.ts';
import { AccountEmailRequest } from './auth-shapes.ts';
import type { AccountStore, SessionUser, UserRecord } from './ports.ts';

export const SESSION_HOURS = 12;
export const REMEMBERED_SESSION_DAYS = 30;

export function publicUser(user: SessionUser): UserJson {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    profile_image: fileUrl(user.profileImageId),
  };
}

export function actorOf(user: SessionUser, requestId?: string): Actor {
  return {
    userId: user.id,
    role: user.role,
    name: user.name,
    patientId: user.patientId ?? undefined,
    doctorId: user.doctorId ?? undefined,
    wardId: user.wardId ?? undefined,
    requestId,
  };
}

export function sessionExpiry(now: Date, remember: boolean): Date {
  const ms = remember ? REMEMBERED_SESSION_DAYS * 86_400_000 : SESSION_HOURS * 3_600_000;
  return new Date(now.getTime() + ms);
}

/** The account an admin names by e-mail (`{ "email": … }`) to help with its sign-in; 404 when there is none. */
export async function accountNamedBy(
  accounts: Pick<AccountStore, 'findByEmail'>,
  body: unknown,
  actor: Actor,
): Promise<UserRecord> {
  requireAdmin(actor);
  const { email } = readInput(AccountEmailRequest, body);
  const user = ensure(await accounts.findByEmail(email), () => notFound('User'));
  return user;
}
