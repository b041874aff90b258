/** Signing in and out: the API calls that start or end the session held in auth.ts. */
import { navigate } from 'wouter/use-browser-location';
import type { LoginJson, RegistrationJson } from '../domain/auth/use-cases.ts';
import type { Gender, Role } from '../domain/shared/actor.ts';
import { apiGet, apiPost } from './api.ts';
import { endSession, startSession, user } from './auth.ts';
import { endpoints, routes } from './paths.ts';
import type { MfaSetupJson, SessionJson } from '../domain/auth/auth-shapes.ts';
import type { UserJson } from '../domain/shared/shared-shapes.ts';

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

/** A browser session: the server set its cookie, and the body holds everything but the token. */
type BrowserSession = Omit<SessionJson, 'token'> & { recovery_codes?: string[] };
type BrowserSignIn = Exclude<LoginJson, SessionJson> | BrowserSession;

/** What a sign-in step led to: the user is in, or a second factor is asked for. */
export type SignInStep =
  | { kind: 'signed-in'; role: Role; recoveryCodes?: string[] }
  | { kind: 'mfa'; mfa: 'verify' | 'enrol'; challenge: string };

function stepOf(answer: BrowserSignIn): SignInStep {
  if ('mfa' in answer) return { kind: 'mfa', mfa: answer.mfa, challenge: answer.challenge };
  startSession(answer);
  return { kind: 'signed-in', role: answer.role, recoveryCodes: answer.recovery_codes };
}

export async function signIn(credentials: Credentials): Promise<SignInStep> {
  return stepOf(await apiPost<BrowserSignIn>(endpoints.session, credentials));
}

/** The second step: a code from the authenticator, or a recovery code. */
export async function completeSignIn(
  challenge: string,
  code: { code: string } | { recovery_code: string },
): Promise<SignInStep> {
  return stepOf(await apiPost<BrowserSignIn>(endpoints.sessionMfa, { challenge, ...code }));
}

/** The authenticator to scan when the clinic requires one and the user has none yet. */
export const mfaSetupAtSignIn = (challenge: string) => apiPost<MfaSetupJson>(endpoints.loginMfaSetup, { challenge });

/** Signs a patient up; the answer says what to do next, in the same words whether or not the address had an account. */
export async function register(registration: Registration): Promise<string> {
  return (await apiPost<RegistrationJson>(endpoints.register, registration)).message;
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

/** Ends every session of the user, this one too, and goes to /login. */
export async function signOutEverywhere(): Promise<void> {
  await apiPost(endpoints.logoutEverywhere);
  endSession();
  navigate(routes.login, { replace: true });
}

/** Refreshes the signed-in user; a failed fetch signs the user out (spec §4). */
export async function loadCurrentUser(): Promise<void> {
  try {
    user.value = await apiGet<UserJson>(endpoints.currentUser);
  } catch (error) {
    console.error('current user fetch failed', error);
    endSession();
  }
}

/** Where a role lands after signing in: the admin dashboard, or the role's own area. */
export const landingFor = (role: Role) => (role === 'admin' ? routes.admin.dashboard : routes.userArea(role));
