/**
 * The browser's only global state: who is signed in. The session itself is an HttpOnly cookie the page never
 * sees; what is kept here, in localStorage, is only the role, so a reload draws the right area at once. The
 * server has the last word: the user is fetched again when the signed-in header appears, and any 401 ends this.
 */
import { signal } from '@preact/signals-react';
import type { Role } from '../domain/shared/actor.ts';
import type { UserJson } from '../domain/shared/shared-shapes.ts';

const ROLE_KEY = 'medora.role';
// Keyed by every role, so a new role cannot be left out.
const ROLE_NAMES: Record<Role, true> = {
  admin: true,
  doctor: true,
  patient: true,
  reception: true,
  lab: true,
  nurse: true,
};

const storedRole = localStorage.getItem(ROLE_KEY);

export const role = signal<Role | null>(isRole(storedRole) ? storedRole : null);
export const user = signal<UserJson | null>(null);

export function startSession(answer: { user: UserJson; role: Role }): void {
  localStorage.setItem(ROLE_KEY, answer.role);
  role.value = answer.role;
  user.value = answer.user;
}

export function endSession(): void {
  localStorage.removeItem(ROLE_KEY);
  role.value = null;
  user.value = null;
}

function isRole(value: string | null): value is Role {
  return value !== null && Object.hasOwn(ROLE_NAMES, value);
}
