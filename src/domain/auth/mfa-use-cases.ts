import type { Actor } from '../shared/actor.ts';
import { DomainError, conflict, forbidden, invalid, notFound, ensure } from '../shared/errors.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { accountNamedBy, actorOf } from './auth.ts';
import { confirmPassword } from './password-use-cases.ts';
import { MAX_SIGN_IN_PASSWORD_LENGTH } from './passwords.ts';
import type { AuthDeps, SessionUser } from './ports.ts';
import { MFA_CODES_PER_ACCOUNT } from './throttle.ts';
import { openSession, reserveAttempt, type Client, type SessionJson } from './use-cases.ts';

export const RECOVERY_CODE_COUNT = 10;

/** A new authenticator to scan: the QR code, and the secret to type where a camera is not at hand. */
export interface MfaSetupJson {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

export interface MfaStatusJson {
  enabled: boolean;
  /** The clinic requires a second factor for this role (REQUIRE_MFA). */
  required: boolean;
  /** Whether this role may use one: staff do, patients do not. */
  available: boolean;
  recovery_codes_left: number;
}

const STAFF_ONLY = 'Two-step sign-in is for staff accounts';
const mayUseMfa = (role: string) => role === 'admin' || role === 'doctor';

export async function mfaStatus(deps: AuthDeps, actor: Actor): Promise<MfaStatusJson> {
  const factor = await deps.mfa.find(actor.userId);
  const enabled = factor?.confirmed ?? false;
  return {
    enabled,
    required: deps.requireMfa.includes(actor.role),
    available: mayUseMfa(actor.role),
    recovery_codes_left: enabled ? await deps.mfa.recoveryCodesLeft(actor.userId) : 0,
  };
}

/** A signed-in staff member starts adding an authenticator; it counts once `confirmMfa` gets its first code. */
export async function beginMfa(deps: AuthDeps, actor: Actor): Promise<MfaSetupJson> {
  if (!mayUseMfa(actor.role)) throw forbidden(STAFF_ONLY);
  const user = ensure(await deps.accounts.findById(actor.userId), () => notFound('User'));
  return newAuthenticator(deps, user);
}

/** The first code from the new authenticator turns it on; the answer holds the recovery codes, shown this once. */
export async function confirmMfa(deps: AuthDeps, body: unknown, actor: Actor): Promise<{ recovery_codes: string[] }> {
  if (!mayUseMfa(actor.role)) throw forbidden(STAFF_ONLY);
  const code = readCode(body);
  const step = await checkNewAuthenticator(deps, actor.userId, code);
  return deps.transaction(async (tx) => {
    const codes = await enable(deps, tx, actor.userId, step);
    await tx.audit.record({
      actor,
      action: 'mfa_enabled',
      entity: 'user',
      entityId: actor.userId,
      requestId: actor.requestId,
    });
    return { recovery_codes: codes };
  });
}

/** Turns the second factor off, the password required; refused while the clinic requires one for the role. */
export async function disableMfa(deps: AuthDeps, body: unknown, actor: Actor): Promise<void> {
  if (deps.requireMfa.includes(actor.role))
    throw conflict('mfa_required', 'Your clinic requires two-step sign-in for your role');
  await confirmPassword(deps, actor, readPassword(body), 'password');
  await deps.transaction(async (tx) => {
    if (!(await tx.mfa.remove(actor.userId))) throw conflict('mfa_not_enabled', 'Two-step sign-in is not on');
    await tx.audit.record({
      actor,
      action: 'mfa_disabled',
      entity: 'user',
      entityId: actor.userId,
      requestId: actor.requestId,
    });
  });
}

/** Ten new recovery codes in place of the old ones, the password required. */
export async function renewRecoveryCodes(
  deps: AuthDeps,
  body: unknown,
  actor: Actor,
): Promise<{ recovery_codes: string[] }> {
  await confirmPassword(deps, actor, readPassword(body), 'password');
  const factor = await deps.mfa.find(actor.userId);
  if (!factor?.confirmed) throw conflict('mfa_not_enabled', 'Two-step sign-in is not on');
  const codes = newRecoveryCodes(deps);
  await deps.transaction(async (tx) => {
    await tx.mfa.replaceRecoveryCodes(
      actor.userId,
      codes.map((c) => digestCode(deps, c)),
    );
    await tx.audit.record({
      actor,
      action: 'mfa_recovery_codes_renewed',
      entity: 'user',
      entityId: actor.userId,
      requestId: actor.requestId,
    });
  });
  return { recovery_codes: codes };
}

/** An admin removes a user's authenticator (a lost phone, no codes left); the user signs in with the password again. */
export async function resetUserMfa(deps: AuthDeps, body: unknown, actor: Actor): Promise<{ email: string }> {
  const user = await accountNamedBy(deps.accounts, body, actor);
  await deps.transaction(async (tx) => {
    if (!(await tx.mfa.remove(user.id)))
      throw conflict('mfa_not_enabled', `${user.email} has no two-step sign-in to reset`);
    await tx.audit.record({
      actor,
      action: 'mfa_reset',
      entity: 'user',
      entityId: user.id,
      requestId: actor.requestId,
    });
  });
  return { email: user.email };
}

/** During a sign-in that requires a second factor the user has not set up yet: the authenticator to scan. */
export async function beginMfaAtSignIn(deps: AuthDeps, body: unknown): Promise<MfaSetupJson> {
  const { user } = await challengeOf(deps, body);
  const factor = await deps.mfa.find(user.id);
  if (factor?.confirmed) throw conflict('mfa_enabled', 'This account already has an authenticator; enter its code');
  return newAuthenticator(deps, user);
}

/**
 * The second step of a sign-in: a code from the authenticator, or one of the recovery codes. When the
 * authenticator is new (REQUIRE_MFA at first sign-in), its first code turns it on and the answer carries the
 * recovery codes.
 */
export async function completeSignIn(
  deps: AuthDeps,
  body: unknown,
  client: Client,
): Promise<SessionJson & { recovery_codes?: string[] }> {
  const { user, persistent, challengeHash } = await challengeOf(deps, body);
  const input = asRecord(body);
  const v = new Validator(input);
  const code = v.text('code', { optional: true, max: 20 }).replace(/\s/g, '');
  const recoveryCode = v.text('recovery_code', { optional: true, max: 40 });
  v.done();
  if (!code && !recoveryCode) throw invalid({ code: ['is required'] });

  const key = `mfa:${user.id}`;
  await reserveAttempt(deps, [{ key, rule: MFA_CODES_PER_ACCOUNT }], 'Too many wrong codes.');
  const factor = await deps.mfa.find(user.id);
  const enrolling = !factor?.confirmed;
  const now = deps.clock.now();
  const step = code && factor ? deps.totp.stepOf(factor.secret, code, now) : undefined;
  if (enrolling && step === undefined)
    throw invalid({ code: [factor ? 'is not the code your authenticator shows' : 'Set up your authenticator first'] });

  const answer = await deps.transaction(async (tx) => {
    let recovery_codes: string[] | undefined;
    if (enrolling && step !== undefined) {
      recovery_codes = await enable(deps, tx, user.id, step);
    } else if (code) {
      if (step === undefined || !(await tx.mfa.acceptStep(user.id, step))) throw wrongCode('code');
    } else if (!(await tx.mfa.useRecoveryCode(user.id, digestCode(deps, recoveryCode), now))) {
      throw wrongCode('recovery_code');
    }
    // Used up last, so a wrong code leaves the challenge for the next try; a race for it rolls the code back.
    if (!(await tx.challenges.finish(challengeHash, now))) throw challengeExpired();
    const session = await openSession(deps, tx, user, persistent, client, code ? 'totp' : 'recovery_code');
    if (recovery_codes) {
      await tx.audit.record({
        actor: actorOf(user, client.requestId),
        action: 'mfa_enabled',
        entity: 'user',
        entityId: user.id,
        requestId: client.requestId,
      });
    }
    return recovery_codes ? { ...session, recovery_codes } : session;
  });
  await deps.throttle.succeeded([key], []);
  return answer;
}

async function challengeOf(
  deps: AuthDeps,
  body: unknown,
): Promise<{ user: SessionUser; persistent: boolean; challengeHash: string }> {
  const v = new Validator(asRecord(body));
  const challenge = v.text('challenge', { max: 200 });
  v.done();
  const challengeHash = deps.tokens.digest(challenge);
  const found = await deps.challenges.find(challengeHash, deps.clock.now());
  const user = found && (await deps.accounts.findById(found.userId));
  if (!found || !user?.active) throw challengeExpired();
  return { user, persistent: found.persistent, challengeHash };
}

async function newAuthenticator(deps: AuthDeps, user: SessionUser): Promise<MfaSetupJson> {
  const secret = deps.totp.newSecret();
  if (!(await deps.mfa.begin(user.id, secret))) throw conflict('mfa_enabled', 'Two-step sign-in is already on');
  const uri = deps.totp.uri(secret, user.email, deps.clinic.name);
  return { secret, otpauth_uri: uri, qr_svg: await deps.totp.qrSvg(uri) };
}

/** The time step of the new authenticator's first code, or 422. */
async function checkNewAuthenticator(deps: AuthDeps, userId: number, code: string): Promise<number> {
  const factor = await deps.mfa.find(userId);
  if (!factor || factor.confirmed) throw conflict('mfa_not_started', 'Start adding an authenticator first');
  const step = deps.totp.stepOf(factor.secret, code, deps.clock.now());
  if (step === undefined) throw invalid({ code: ['is not the code your authenticator shows'] });
  return step;
}

async function enable(deps: AuthDeps, tx: Pick<AuthDeps, 'mfa'>, userId: number, step: number): Promise<string[]> {
  const codes = newRecoveryCodes(deps);
  await tx.mfa.confirm(
    userId,
    step,
    codes.map((c) => digestCode(deps, c)),
    deps.clock.now(),
  );
  return codes;
}

const newRecoveryCodes = (deps: AuthDeps) =>
  Array.from({ length: RECOVERY_CODE_COUNT }, () => deps.tokens.recoveryCode());
/** Codes are compared as typed from paper: case, spaces and dashes do not matter. */
const digestCode = (deps: AuthDeps, code: string) =>
  deps.tokens.digest(`recovery:${code.toLowerCase().replace(/[\s-]/g, '')}`);

function readCode(body: unknown): string {
  const v = new Validator(asRecord(body));
  const code = v.text('code', { max: 20 }).replace(/\s/g, '');
  v.done();
  return code;
}

function readPassword(body: unknown): string {
  const v = new Validator(asRecord(body));
  const password = v.untrimmed('password', { max: MAX_SIGN_IN_PASSWORD_LENGTH });
  v.done();
  return password;
}

const wrongCode = (field: 'code' | 'recovery_code') =>
  invalid({
    [field]: [
      field === 'code'
        ? 'is not the code your authenticator shows, or was used already'
        : 'is not one of your unused recovery codes',
    ],
  });
const challengeExpired = () =>
  new DomainError(
    'unauthenticated',
    'challenge_expired',
    'This sign-in has expired. Please enter your e-mail and password again.',
  );
