/** Signing in and out: the API calls that start or end the session held in auth.ts. */
import { navigate } from 'wouter/use-browser-location';
import type { PublicUser } from '../domain/auth/auth.ts';
import type { LoginJson } from '../domain/auth/use-cases.ts';
import type { Gender, Role } from '../domain/shared/actor.ts';
import { apiGet, apiPost } from './api.ts';
import { endSession, startSession, user } from './auth.ts';
import { endpoints, routes } from './paths.ts';

export interface Credentials {
  email: string;
  password: string;
  remember: boolean;
}

export interface Registration {
  name: string;
  email: string;
  password: string;
  phone: string;
  birthdate: string;
  gender: Gender;
}

export async function signIn(credentials: Credentials): Promise<Role> {
  const answer = await apiPost<LoginJson>(endpoints.login, credentials);
  startSession(answer);
  return answer.role;
}

export async function register(registration: Registration): Promise<void> {
  await apiPost(endpoints.register, registration);
}

/** Signs out and goes to /login, even when the server cannot be told (the session expires there on its own). */
export async function signOut(): Promise<void> {
  try {
    await apiPost(endpoints.logout);
  } catch (error) {
    console.error('logout failed', error);
  } finally {
    endSession();
    navigate(routes.login, { replace: true });
  }
}

/** Refreshes the signed-in user; a failed fetch signs the user out (spec §4). */
export async function loadCurrentUser(): Promise<void> {
  try {
    user.value = await apiGet<PublicUser>(endpoints.currentUser);
  } catch (error) {
    console.error('current user fetch failed', error);
    endSession();
  }
}

/** Where a role lands after signing in: the admin dashboard, or the role's own area. */
export const landingFor = (role: Role) => (role === 'admin' ? routes.admin.dashboard : routes.userArea(role));
