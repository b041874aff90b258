import type { Actor, Role } from '../shared/actor.ts';
import { fileUrl } from '../shared/files.ts';
import type { SessionUser } from './ports.ts';

export const SESSION_HOURS = 12;
export const REMEMBERED_SESSION_DAYS = 30;


export interface PublicUser {
  id: number;
  name: string;
  email: string;
  role: Role;
  profile_image: string | null;
}

export function publicUser(user: SessionUser): PublicUser {
  return { id: user.id, name: user.name, email: user.email, role: user.role, profile_image: fileUrl(user.profileImageId) };
}

export function actorOf(user: SessionUser, requestId?: string): Actor {
  return {
    userId: user.id,
    role: user.role,
    name: user.name,
    patientId: user.patientId ?? undefined,
    doctorId: user.doctorId ?? undefined,
    requestId,
  };
}

export function sessionExpiry(now: Date, remember: boolean): Date {
  const ms = remember ? REMEMBERED_SESSION_DAYS * 86_400_000 : SESSION_HOURS * 3_600_000;
  return new Date(now.getTime() + ms);
}

