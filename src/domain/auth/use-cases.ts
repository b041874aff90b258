import { GENDERS, type Actor } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { DomainError, conflict, unauthenticated } from '../shared/errors.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import {
  MAX_FAILURES_PER_IP,
  MAX_FAILURES_PER_PAIR,
  actorOf,
  loginWindowStart,
  publicUser,
  sessionExpiry,
  type PublicUser,
} from './auth.ts';
import { MAX_SIGN_IN_PASSWORD_LENGTH, newPassword } from './passwords.ts';
import type { AuthDeps } from './ports.ts';

const BAD_CREDENTIALS = 'Invalid email or password';

/** A patient signs up; the role is always patient whatever the body says. */
export async function register(
  deps: AuthDeps & { timeZone: string },
  body: unknown,
  requestId?: string,
): Promise<PublicUser> {
  const v = new Validator(asRecord(body));
  const name = v.text('name', { max: 200 });
  const email = v.email('email');
  const password = newPassword(v, 'password');
  const phone = v.text('phone', { max: 40 });
  const birthdate = v.birthdate('birthdate', clinicToday(deps.clock, deps.timeZone));
  const gender = v.oneOf('gender', GENDERS);
  v.done();
  const passwordHash = await deps.hasher.hash(password);
  const user = await deps.accounts.createPatient({ name, email, passwordHash, phone, birthdate, gender });
  await deps.audit.record({
    actor: actorOf(user, requestId),
    action: 'register',
    entity: 'patient',
    entityId: user.patientId,
    patientId: user.patientId,
    requestId,
  });
  return publicUser(user);
}

export interface LoginInput {
  email: string;
  password: string;
  remember: boolean;
  ip: string;
  requestId?: string;
}

/** Checks the password and opens a session; every wrong email or password gets the same answer. */
export async function login(deps: AuthDeps, body: unknown, client: { ip: string; requestId?: string }) {
  const input = asRecord(body);
  const v = new Validator(input);
  const email = v.text('email', { max: 254 });
  const password = v.untrimmed('password', { max: MAX_SIGN_IN_PASSWORD_LENGTH });
  const remember = v.boolean('remember');
  v.done();
  const now = deps.clock.now();
  await refuseWhenThrottled(deps, email, client.ip, now);

  const user = await deps.accounts.findByEmail(email);
  const passwordOk = user ? await deps.hasher.verify(user.passwordHash, password) : await verifyNothing(deps);
  if (!user || !passwordOk || !user.active) {
    await deps.loginAttempts.record({ email, ip: client.ip, succeeded: false, at: now });
    await deps.audit.record({
      actor: null,
      action: 'login_failed',
      entity: 'user',
      entityId: user?.id,
      requestId: client.requestId,
      details: { email, ip: client.ip },
    });
    throw new DomainError('unauthenticated', 'invalid_credentials', BAD_CREDENTIALS);
  }

  const token = deps.tokens.issue();
  await deps.sessions.create({ userId: user.id, tokenHash: deps.tokens.digest(token), expiresAt: sessionExpiry(now, remember) });
  await deps.loginAttempts.record({ email, ip: client.ip, succeeded: true, at: now });
  await deps.audit.record({
    actor: actorOf(user, client.requestId),
    action: 'login',
    entity: 'user',
    entityId: user.id,
    requestId: client.requestId,
    details: { ip: client.ip, remember },
  });
  return { user: publicUser(user), token, role: user.role };
}

async function refuseWhenThrottled(deps: AuthDeps, email: string, ip: string, now: Date): Promise<void> {
  const since = loginWindowStart(now);
  const [pair, fromIp] = await Promise.all([
    deps.loginAttempts.failuresForPair(email, ip, since),
    deps.loginAttempts.failuresFromIp(ip, since),
  ]);
  if (pair >= MAX_FAILURES_PER_PAIR || fromIp >= MAX_FAILURES_PER_IP) {
    throw new DomainError('too_many', 'too_many_attempts', 'Too many failed sign-in attempts. Please wait 15 minutes and try again.');
  }
}

// Hash anyway for an unknown email, so the answer takes as long as for a wrong password.
let decoyHash: Promise<string> | undefined;
async function verifyNothing(deps: AuthDeps): Promise<false> {
  decoyHash ??= deps.hasher.hash('decoy password that matches nothing');
  await deps.hasher.verify(await decoyHash, 'not the decoy');
  return false;
}

/** The signed-in actor behind a bearer token, or an `unauthenticated` error. */
export async function authenticate(deps: AuthDeps, token: string | undefined, requestId?: string): Promise<Actor> {
  if (!token) throw unauthenticated();
  const user = await deps.sessions.findUser(deps.tokens.digest(token), deps.clock.now());
  if (!user) throw unauthenticated('Your session has ended. Please sign in again.');
  return actorOf(user, requestId);
}

export async function logout(deps: AuthDeps, token: string, actor: Actor): Promise<void> {
  await deps.sessions.revoke(deps.tokens.digest(token), deps.clock.now());
  await deps.audit.record({ actor, action: 'logout', entity: 'user', entityId: actor.userId, requestId: actor.requestId });
}

export async function currentUser(deps: AuthDeps, actor: Actor): Promise<PublicUser> {
  const user = await deps.accounts.findById(actor.userId);
  if (!user) throw unauthenticated();
  return publicUser(user);
}

/** `medora admin create`: an admin account from the terminal. */
export async function createAdmin(deps: AuthDeps, body: unknown): Promise<PublicUser> {
  const v = new Validator(asRecord(body));
  const name = v.text('name', { max: 200 });
  const email = v.email('email');
  const password = newPassword(v, 'password');
  v.done();
  if (await deps.accounts.findByEmail(email)) throw conflict('email_taken', `An account with email ${email} already exists`, { email: ['is already taken'] });
  const user = await deps.accounts.createAdmin({ name, email, passwordHash: await deps.hasher.hash(password) });
  return publicUser(user);
}
