import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { readFields, readInput } from '../shared/read-fields.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import type { Static } from '../shared/wire-schema.ts';
import { accountNamedBy, actorOf } from './auth.ts';
import {
  AccountEmailRequest,
  PasswordChangeRequest,
  PasswordResetRequest,
  type MessageAnswerJson,
  type ResetLinkShape,
  type SessionJson,
} from './auth-shapes.ts';
import { refuseCommonPassword } from './passwords.ts';
import type { AuthDeps } from './ports.ts';
import { PASSWORD_CHECKS_PER_ACCOUNT, RESET_REQUESTS_PER_ACCOUNT_AND_ADDRESS, RESETS_PER_ADDRESS } from './throttle.ts';
import { passwordResetMessage } from '../notifications/templates.ts';
import { openSession, reserveAttempt, type Client } from './use-cases.ts';

/** A staff reset link works this long, once. */
export const RESET_LINK_MINUTES = 30;

/**
 * The signed-in user's current password, checked before a change that needs it (a new password, a new sign-in
 * e-mail): wrong → 422 on `field`. Counted like sign-in attempts, so a stolen session cannot guess it.
 */
export async function confirmPassword(
  deps: AuthDeps,
  actor: Actor,
  password: string,
  field = 'current_password',
): Promise<void> {
  if (!password) throw invalid({ [field]: ['is required'] });
  const key = `password:${actor.userId}`;
  await reserveAttempt(deps, [{ key, rule: PASSWORD_CHECKS_PER_ACCOUNT }], 'Too many wrong passwords.');
  const user = await deps.accounts.findById(actor.userId);
  if (!user || !(await deps.hasher.verify(user.passwordHash, password)))
    throw invalid({ [field]: ['is not your current password'] });
  await deps.throttle.succeeded([key], []);
}

/**
 * A new password of the user's own choosing, the current one required. Every session of the user ends — a
 * session someone else may hold among them — and this one is issued anew, so the user stays signed in here.
 */
export async function changePassword(
  deps: AuthDeps,
  body: unknown,
  token: string,
  actor: Actor,
  client: Client,
): Promise<SessionJson> {
  const v = new Validator(asRecord(body));
  const { current_password: current, new_password: next } = readFields(v, PasswordChangeRequest);
  refuseCommonPassword(v, 'new_password', next);
  v.done();
  if (current === next) throw invalid({ new_password: ['must differ from your current password'] });
  await confirmPassword(deps, actor, current);
  const passwordHash = await deps.hasher.hash(next);
  const session = await deps.sessions.findSession(deps.tokens.digest(token), deps.clock.now());
  if (!session)
    throw new DomainError('unauthenticated', 'unauthenticated', 'Your session has ended. Please sign in again.');
  return deps.transaction(async (tx) => {
    await tx.accounts.setPassword(actor.userId, passwordHash);
    await tx.audit.record({
      actor,
      action: 'password_changed',
      entity: 'user',
      entityId: actor.userId,
      requestId: actor.requestId,
    });
    return openSession(deps, tx, session.user, session.persistent, client, 'password_change');
  });
}

/** The link's parts; the HTTP edge adds its `url`. */
export type ResetLinkJson = Omit<Static<typeof ResetLinkShape>, 'url'>;

/**
 * An admin's one-time link for a user who cannot sign in: the admin hands it over and never sees or chooses the
 * new password. An earlier unused link of the user stops working.
 */
export async function issueResetLink(deps: AuthDeps, body: unknown, actor: Actor): Promise<ResetLinkJson> {
  const user = await accountNamedBy(deps.accounts, body, actor);
  const token = deps.tokens.issue();
  const expiresAt = resetExpiry(deps.clock.now());
  await deps.transaction(async (tx) => {
    await tx.resets.issue({
      userId: user.id,
      tokenHash: deps.tokens.digest(token),
      expiresAt,
      createdBy: actor.userId || null,
    });
    await tx.audit.record({
      actor,
      action: 'password_reset_issued',
      entity: 'user',
      entityId: user.id,
      patientId: user.patientId,
      requestId: actor.requestId,
    });
  });
  return { token, expires_at: expiresAt.toISOString(), user: { name: user.name, email: user.email, role: user.role } };
}

export const RESET_REQUESTED =
  'If an account uses this address, we have sent it a link to choose a new password. It works for 30 minutes.';

/**
 * "Forgot password": a reset link by e-mail, to the address the account signs in with — one its owner gave or
 * confirmed, never one staff entered and nobody confirmed (that one waits aside, see verifyEmail). The answer is
 * the same whether or not the address has an account, and requests are counted per address and per account from
 * each address, so nobody learns who is registered or floods an inbox, and nobody keeps the owner waiting.
 */
export async function requestPasswordReset(deps: AuthDeps, body: unknown, client: Client): Promise<MessageAnswerJson> {
  const { email } = readInput(AccountEmailRequest, body);
  await reserveAttempt(
    deps,
    [
      { key: `reset:${client.ip}`, rule: RESETS_PER_ADDRESS },
      { key: `reset-request:${email.toLowerCase()}|${client.ip}`, rule: RESET_REQUESTS_PER_ACCOUNT_AND_ADDRESS },
    ],
    'Too many password reset requests.',
  );
  const user = await deps.accounts.findByEmail(email);
  if (user?.active) {
    const now = deps.clock.now();
    await deps.transaction(async (tx) => {
      // The e-mail's token is minted when it is sent.
      const resetId = await tx.resets.issue({
        userId: user.id,
        tokenHash: null,
        expiresAt: resetExpiry(now),
        createdBy: null,
      });
      await tx.outbox.enqueue(
        passwordResetMessage(
          deps.clinic,
          resetId,
          { email: user.email, userId: user.id, name: user.name },
          RESET_LINK_MINUTES,
          now,
        ),
      );
      await tx.audit.record({
        actor: null,
        action: 'password_reset_requested',
        entity: 'user',
        entityId: user.id,
        patientId: user.patientId,
        requestId: client.requestId,
        details: { ip: client.ip },
      });
    });
  }
  return { message: RESET_REQUESTED };
}

const resetExpiry = (now: Date) => new Date(now.getTime() + RESET_LINK_MINUTES * 60_000);

/** Sets the password a reset link was issued for; the link is used up and every session of the user ends. */
export async function resetPassword(deps: AuthDeps, body: unknown, client: Client): Promise<{ email: string }> {
  const v = new Validator(asRecord(body));
  const { token, password } = readFields(v, PasswordResetRequest);
  refuseCommonPassword(v, 'password', password);
  v.done();
  await reserveAttempt(
    deps,
    [{ key: `reset:${client.ip}`, rule: RESETS_PER_ADDRESS }],
    'Too many password resets from this address.',
  );
  const passwordHash = await deps.hasher.hash(password);
  return deps.transaction(async (tx) => {
    const userId = await tx.resets.use(deps.tokens.digest(token), deps.clock.now());
    const user = userId === undefined ? undefined : await tx.accounts.findById(userId);
    if (!user) throw new DomainError('invalid', 'reset_link_invalid', LINK_INVALID, { token: [LINK_INVALID] });
    await tx.accounts.setPassword(user.id, passwordHash);
    await tx.audit.record({
      actor: actorOf(user, client.requestId),
      action: 'password_reset',
      entity: 'user',
      entityId: user.id,
      patientId: user.patientId,
      requestId: client.requestId,
      details: { ip: client.ip },
    });
    return { email: user.email };
  });
}

const LINK_INVALID = 'This link has expired or was already used. Ask the front desk for a new one.';
