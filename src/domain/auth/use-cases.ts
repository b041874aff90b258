import type { Actor } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { DomainError, conflict, unauthenticated } from '../shared/errors.ts';
import { readFields, readInput } from '../shared/read-fields.ts';
import type { UserJson } from '../shared/shared-shapes.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { actorOf, publicUser, sessionExpiry } from './auth.ts';
import {
  NewStaffRequest,
  RegisterRequest,
  SignInRequest,
  type MessageAnswerJson,
  type MfaChallengeJson,
  type SessionJson,
} from './auth-shapes.ts';
import { refuseCommonPassword } from './passwords.ts';
import type { AuthDeps, AuthStores, NewPatientAccount, SessionUser, UserRecord } from './ports.ts';
import type { ThrottleKey } from './throttle.ts';
import { sendVerification } from './verification.ts';
import { registrationAttempt } from '../notifications/templates.ts';
import {
  loginKeys,
  REGISTER_PER_ADDRESS,
  VERIFICATIONS_PER_ACCOUNT,
  secondsToWait,
  tooManyAttempts,
  waitMessage,
} from './throttle.ts';

const BAD_CREDENTIALS = 'Invalid email or password';

/** What a sign-up answers, for an address new to the clinic and for one with an account alike. */
export type RegistrationJson = MessageAnswerJson;

const registrationAnswer = (email: string): RegistrationJson => ({
  message: `We have sent a message to ${email}. Please read it, then sign in with this address and your password.`,
});

/**
 * A patient signs up; the role is always patient whatever the body says. The answer is the same whether or not
 * the address already has an account, so nobody learns who is registered: a new address gets its account and a
 * verification link, an address with an account gets a message telling its owner instead.
 */
export async function register(
  deps: AuthDeps & { timeZone: string },
  body: unknown,
  /** Where the sign-up came from; sign-ups from the web are throttled per address, the demo seed's are not. */
  client: { ip?: string; requestId?: string } = {},
): Promise<RegistrationJson> {
  const v = new Validator(asRecord(body));
  const { name, email, password, phone, birthdate, gender } = readFields(v, RegisterRequest);
  refuseCommonPassword(v, 'password', password);
  v.birthdateRange('birthdate', birthdate, clinicToday(deps.clock, deps.timeZone));
  v.done();
  if (client.ip !== undefined) {
    await reserveAttempt(
      deps,
      [{ key: `register:${client.ip}`, rule: REGISTER_PER_ADDRESS }],
      'Too many accounts were made from this address.',
    );
  }
  // Hashed either way, so an address with an account answers no faster than a new one.
  const passwordHash = await deps.hasher.hash(password);
  const owner = await deps.accounts.findByEmail(email);
  if (owner) await tellOwnerOfSignUp(deps, owner, client);
  else await createPatientAccount(deps, { name, email, passwordHash, phone, birthdate, gender }, client);
  return registrationAnswer(email);
}

async function createPatientAccount(
  deps: AuthDeps,
  account: NewPatientAccount,
  client: { ip?: string; requestId?: string },
): Promise<void> {
  try {
    await deps.transaction(async (tx) => {
      const user = await tx.accounts.createPatient(account);
      await tx.audit.record({
        actor: actorOf(user, client.requestId),
        action: 'register',
        entity: 'patient',
        entityId: user.patientId,
        patientId: user.patientId,
        requestId: client.requestId,
      });
      if (user.patientId !== null) await tx.hl7.queue({ event: 'A04', patientId: user.patientId }, deps.clock.now());
      await sendVerification(deps, tx, user, deps.clock.now());
    });
  } catch (error) {
    // Another sign-up took the address a moment ago: it is answered as any address with an account.
    if (!(error instanceof DomainError && error.code === 'email_taken')) throw error;
    const owner = await deps.accounts.findByEmail(account.email);
    if (owner) await tellOwnerOfSignUp(deps, owner, client);
  }
}

/** The owner of an address someone signed up with hears of it, a few times an hour at most; the sign-up is audited. */
async function tellOwnerOfSignUp(
  deps: AuthDeps,
  owner: UserRecord,
  client: { ip?: string; requestId?: string },
): Promise<void> {
  const now = deps.clock.now();
  const tell = await withinLimit(deps, { key: `register-notice:${owner.id}`, rule: VERIFICATIONS_PER_ACCOUNT });
  await deps.transaction(async (tx) => {
    if (tell)
      await tx.outbox.enqueue(
        registrationAttempt(deps.clinic, { email: owner.email, userId: owner.id, name: owner.name }, now),
      );
    await tx.audit.record({
      actor: null,
      action: 'register_taken_email',
      entity: 'user',
      entityId: owner.id,
      patientId: owner.patientId,
      requestId: client.requestId,
      details: { ip: client.ip ?? null, told: tell },
    });
  });
}

/** Counts an attempt against `key` without refusing anyone: false once the limit is reached (the caller then stays quiet). */
async function withinLimit(deps: Pick<AuthDeps, 'throttle' | 'clock'>, key: ThrottleKey): Promise<boolean> {
  const now = deps.clock.now();
  const wait = await deps.throttle.reserve([key], now, (buckets) =>
    secondsToWait(buckets.get(key.key) ?? { failures: 0, lastFailureAt: null }, key.rule, now),
  );
  return wait === 0;
}

export type LoginJson = SessionJson | MfaChallengeJson;

export interface Client {
  ip: string;
  requestId?: string;
}

/** Checks the password; opens a session, or a challenge when the account has or needs a second factor. */
export async function login(deps: AuthDeps, body: unknown, client: Client): Promise<LoginJson> {
  const { email, password, remember = false } = readInput(SignInRequest, body);
  const [pair, address] = loginKeys(email, client.ip);
  // Counted before the slow hash, so parallel guesses cannot all slip in under the limit.
  await reserveAttempt(deps, [pair, address], 'Too many failed sign-in attempts.');

  const user = await deps.accounts.findByEmail(email);
  const passwordOk = user ? await deps.hasher.verify(user.passwordHash, password) : await verifyNothing(deps);
  if (!user || !passwordOk || !user.active) {
    await deps.audit.record({
      actor: null,
      action: 'login_failed',
      entity: 'user',
      entityId: user?.id,
      requestId: client.requestId,
      // Whatever a stranger typed is not kept: only an e-mail that names an account says something.
      details: user ? { email: user.email, ip: client.ip } : { ip: client.ip },
    });
    throw new DomainError('unauthenticated', 'invalid_credentials', BAD_CREDENTIALS);
  }
  await deps.throttle.succeeded([pair.key], [address.key]);

  const factor = await deps.mfa.find(user.id);
  if (factor?.confirmed || deps.requireMfa.includes(user.role)) {
    const challenge = deps.tokens.issue();
    const expiresAt = new Date(deps.clock.now().getTime() + CHALLENGE_MINUTES * 60_000);
    await deps.challenges.create({
      tokenHash: deps.tokens.digest(challenge),
      userId: user.id,
      persistent: remember,
      expiresAt,
    });
    return { mfa: factor?.confirmed ? 'verify' : 'enrol', challenge };
  }
  return deps.transaction((tx) => openSession(deps, tx, user, remember, client));
}

/** A sign-in's second step has this long after its password was checked. */
export const CHALLENGE_MINUTES = 10;

/** A new session for `user`, with its audit row, inside the caller's transaction. */
export async function openSession(
  deps: Pick<AuthDeps, 'tokens' | 'clock'>,
  tx: AuthStores,
  user: SessionUser,
  persistent: boolean,
  client: Client,
  via: 'password' | 'totp' | 'recovery_code' | 'password_change' = 'password',
): Promise<SessionJson> {
  const token = deps.tokens.issue();
  const expiresAt = sessionExpiry(deps.clock.now(), persistent);
  await tx.sessions.create({ userId: user.id, tokenHash: deps.tokens.digest(token), expiresAt, persistent });
  if (via !== 'password_change') {
    await tx.audit.record({
      actor: actorOf(user, client.requestId),
      action: 'login',
      entity: 'user',
      entityId: user.id,
      requestId: client.requestId,
      details: { ip: client.ip, remember: persistent, via },
    });
  }
  return { user: publicUser(user), token, role: user.role, persistent, expires_at: expiresAt.toISOString() };
}

/** Counts this attempt against `keys`, or refuses it with 429 and the seconds to wait while one must wait. */
export async function reserveAttempt(
  deps: Pick<AuthDeps, 'throttle' | 'clock'>,
  keys: ThrottleKey[],
  refusal: string,
): Promise<void> {
  const now = deps.clock.now();
  const wait = await deps.throttle.reserve(keys, now, (buckets) =>
    Math.max(
      0,
      ...keys.map((k) => secondsToWait(buckets.get(k.key) ?? { failures: 0, lastFailureAt: null }, k.rule, now)),
    ),
  );
  if (wait > 0) throw tooManyAttempts(wait, `${refusal} ${waitMessage(wait)}`);
}

// Hash anyway for an unknown email, so the answer takes as long as for a wrong password.
let decoyHash: Promise<string> | undefined;
async function verifyNothing(deps: AuthDeps): Promise<false> {
  decoyHash ??= deps.hasher.hash('decoy password that matches nothing');
  await deps.hasher.verify(await decoyHash, 'not the decoy');
  return false;
}

/**
 * The signed-in actor behind a session token, or an `unauthenticated` error. `forWrite`: the request writes, and its
 * session lookup waits for the database as long as its write will.
 */
export async function authenticate(
  deps: AuthDeps,
  token: string | undefined,
  requestId?: string,
  forWrite = false,
): Promise<Actor> {
  if (!token) throw unauthenticated();
  const user = await deps.sessions.findUser(deps.tokens.digest(token), deps.clock.now(), forWrite);
  if (!user) throw unauthenticated('Your session has ended. Please sign in again.');
  return actorOf(user, requestId);
}

export async function logout(deps: AuthDeps, token: string, actor: Actor): Promise<void> {
  await deps.transaction(async (tx) => {
    await tx.sessions.revoke(deps.tokens.digest(token), deps.clock.now());
    await tx.audit.record({
      actor,
      action: 'logout',
      entity: 'user',
      entityId: actor.userId,
      requestId: actor.requestId,
    });
  });
}

/** Ends every session of the actor, this one included: a phone left somewhere, a shared computer. */
export async function logoutEverywhere(deps: AuthDeps, actor: Actor): Promise<void> {
  await deps.transaction(async (tx) => {
    await tx.sessions.revokeAll(actor.userId, deps.clock.now());
    await tx.audit.record({
      actor,
      action: 'logout_everywhere',
      entity: 'user',
      entityId: actor.userId,
      requestId: actor.requestId,
    });
  });
}

export async function currentUser(deps: AuthDeps, actor: Actor): Promise<UserJson> {
  const user = await deps.accounts.findById(actor.userId);
  if (!user) throw unauthenticated();
  return publicUser(user);
}

/** `medora admin create`: an admin account from the terminal. */
export async function createAdmin(deps: AuthDeps, body: unknown): Promise<UserJson> {
  const v = new Validator(asRecord(body));
  const { name, email, password } = readFields(v, NewStaffRequest);
  refuseCommonPassword(v, 'password', password);
  v.done();
  if (await deps.accounts.findByEmail(email))
    throw conflict('email_taken', `An account with email ${email} already exists`, { email: ['is already taken'] });
  const user = await deps.accounts.createAdmin({ name, email, passwordHash: await deps.hasher.hash(password) });
  return publicUser(user);
}
