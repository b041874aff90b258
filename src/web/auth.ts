/**
 * The browser's only global state: who is signed in. The token and role live in localStorage so a reload
 * keeps the session; the user is fetched again when the signed-in header appears.
 */
import { computed, signal } from '@preact/signals-react';
import type { PublicUser } from '../domain/auth/auth.ts';
import type { LoginJson } from '../domain/auth/use-cases.ts';
import type { Role } from '../domain/shared/actor.ts';

const TOKEN_KEY = 'medora.token';
const ROLE_KEY = 'medora.role';

const storedRole = localStorage.getItem(ROLE_KEY);

export const token = signal<string | null>(localStorage.getItem(TOKEN_KEY));
export const role = signal<Role | null>(isRole(storedRole) ? storedRole : null);
export const user = signal<PublicUser | null>(null);
export const isAuthenticated = computed(() => token.value !== null && role.value !== null);

export function startSession(answer: LoginJson): void {
  localStorage.setItem(TOKEN_KEY, answer.token);
  localStorage.setItem(ROLE_KEY, answer.role);
  token.value = answer.token;
  role.value = answer.role;
  user.value = answer.user;
}

export function endSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(ROLE_KEY);
  token.value = null;
  role.value = null;
  user.value = null;
}

function isRole(value: string | null): value is Role {
  return value === 'admin' || value === 'doctor' || value === 'patient';
}
