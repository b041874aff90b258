/** Following an e-mail confirmation link, and asking for a new one. */
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid, unauthenticated } from '../shared/errors.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { actorOf } from './auth.ts';
import { MAX_SIGN_IN_PASSWORD_LENGTH } from './passwords.ts';
import type { AuthDeps, AuthStores, UserRecord } from './ports.ts';
import { reserveAttempt, type Client } from './use-cases.ts';
import { sendVerification } from './verification.ts';
import type { VerificationPurpose } from '../notifications/templates.ts';
import { loginKeys, VERIFICATIONS_PER_ACCOUNT } from './throttle.ts';

/** What a verification link confirms, before it is used; `change` needs the account's password with it. */
export interface VerificationPreviewJson {
  email: string;
  purpose: VerificationPurpose;
}

/** What a verification link's token confirms, for which account, beside the address it signs in with now (none for a walk-in). */
type LinkTarget = { account: UserRecord; email: string } & (
  | { purpose: 'own' | 'first'; current: string | null }
  | { purpose: 'change'; current: string }
);

/** Tells the verification page what the link confirms, without using it. */
export async function previewVerification(deps: AuthDeps, body: unknown): Promise<VerificationPreviewJson> {
  const target = await linkTarget(deps, readToken(body), deps.clock.now());
  return { email: target.email, purpose: target.purpose };
}

/**
 * Follows a verification link. The account's own address is verified, if it is still the account's. An address
 * staff entered becomes the sign-in address: with the account's password when it signs in with another (the link
 * alone would hand the account to whoever reads the new address), by the link alone when it has none.
 */
export async function verifyEmail(deps: AuthDeps, body: unknown, client: Client): Promise<{ email: string }> {
  const v = new Validator(asRecord(body));
  const token = v.text('token', { max: 200 });
  const password = v.untrimmed('password', { optional: true, max: MAX_SIGN_IN_PASSWORD_LENGTH });
  v.done();
  const target = await linkTarget(deps, token, deps.clock.now());
  if (target.purpose === 'change') await confirmAccountPassword(deps, target.account, target.current, password, client);
  const now = deps.clock.now();
  return deps.transaction(async (tx) => {
    const link = await tx.links.use('verify_email', token, now);
    if (!link || !(await confirmAddress(tx, target, now))) throw linkInvalid();
    await tx.audit.record({
      actor: target.purpose === 'change' ? actorOf(target.account, client.requestId) : null,
      action: target.purpose === 'own' ? 'email_verified' : 'email_changed',
      entity: 'user',
      entityId: target.account.id,
      patientId: target.account.patientId,
      requestId: client.requestId,
      details:
        target.purpose === 'own'
          ? { email: target.email }
          : { from: target.current, to: target.email, confirmed_by: 'link' },
    });
    return { email: target.email };
  });
}

const readToken = (body: unknown): string => {
  const v = new Validator(asRecord(body));
  const token = v.text('token', { max: 200 });
  v.done();
  return token;
};

/** The account and address an unused, unexpired link is for, if the address is still the account's or still waits for it. */
async function linkTarget(deps: AuthStores, token: string, now: Date): Promise<LinkTarget> {
  const link = await deps.links.peek('verify_email', token, now);
  const account = link?.userId ? await deps.accounts.findById(link.userId) : undefined;
  if (!link?.email || !account?.active) throw linkInvalid();
  if (sameAddress(account.email, link.email))
    return { account, email: link.email, purpose: 'own', current: account.email };
  const change = await deps.accounts.emailChange(account.id);
  if (!change || !sameAddress(change.pending, link.email)) throw linkInvalid();
  return change.current === null
    ? { account, email: link.email, purpose: 'first', current: null }
    : { account, email: link.email, purpose: 'change', current: change.current };
}

const confirmAddress = (tx: AuthStores, target: LinkTarget, now: Date): Promise<boolean> =>
  target.purpose === 'own'
    ? tx.accounts.markVerified(target.account.id, target.email, now)
    : tx.accounts.confirmEmailChange(target.account.id, target.email, now);

// A walk-in's account row has no address (the column allows none for patients), whatever UserRecord's type says.
const sameAddress = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/**
 * The account's password, checked and counted as a sign-in with the address it signs in with: whoever holds the
 * link guesses no faster here than at the sign-in page, and never fills the owner's own count.
 */
async function confirmAccountPassword(
  deps: AuthDeps,
  account: UserRecord,
  signInEmail: string,
  password: string,
  client: Client,
): Promise<void> {
  if (!password) throw new DomainError('invalid', 'password_required', PASSWORD_NEEDED, { password: ['is required'] });
  const [pair, address] = loginKeys(signInEmail, client.ip);
  await reserveAttempt(deps, [pair, address], 'Too many failed sign-in attempts.');
  if (!(await deps.hasher.verify(account.passwordHash, password))) {
    await deps.audit.record({
      actor: null,
      action: 'login_failed',
      entity: 'user',
      entityId: account.id,
      requestId: client.requestId,
      details: { email: signInEmail, ip: client.ip, via: 'email_change' },
    });
    throw invalid({ password: ['is wrong'] });
  }
  await deps.throttle.succeeded([pair.key], [address.key]);
}

const PASSWORD_NEEDED = 'Enter your Medora password to confirm the new sign-in e-mail.';

const VERIFICATION_INVALID =
  'This link has expired, was used already, or is for an address the account no longer has. Sign in to send a new one.';
const linkInvalid = () =>
  new DomainError('invalid', 'verification_link_invalid', VERIFICATION_INVALID, { token: [VERIFICATION_INVALID] });

/** Sends the signed-in user a new verification link (the old one expired, or the message went astray). */
export async function resendVerification(deps: AuthDeps, actor: Actor): Promise<{ email: string }> {
  const user = await deps.accounts.findById(actor.userId);
  if (!user) throw unauthenticated();
  await reserveAttempt(
    deps,
    [{ key: `verify:${user.id}`, rule: VERIFICATIONS_PER_ACCOUNT }],
    'Too many verification messages.',
  );
  await deps.transaction((tx) => sendVerification(deps, tx, user, deps.clock.now()));
  return { email: user.email };
}
