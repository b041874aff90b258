import { DomainError } from '../shared/errors.ts';

/**
 * How failures of one kind slow the next attempt: the first `free` within the window go at once, then each
 * further one waits twice as long as the last, from `baseSeconds` up to `maxSeconds` — a backoff, not a wall.
 */
export interface ThrottleRule {
  free: number;
  baseSeconds: number;
  maxSeconds: number;
  windowMinutes: number;
}

/** What is known of one key's recent failures. */
export interface Bucket {
  failures: number;
  lastFailureAt: Date | null;
}

// One account from one address: ten tries, then 5 s, 10 s, 20 s … up to 15 minutes between guesses.
export const LOGIN_PER_ACCOUNT_AND_ADDRESS: ThrottleRule = {
  free: 10,
  baseSeconds: 5,
  maxSeconds: 15 * 60,
  windowMinutes: 15,
};
// One address across accounts (password spraying). A clinic behind one NAT shares an address, so this only
// slows the address down, for 30 seconds at most: a colleague's correct password is never kept out for long.
export const LOGIN_PER_ADDRESS: ThrottleRule = { free: 100, baseSeconds: 1, maxSeconds: 30, windowMinutes: 15 };
// Sign-ups from one address: a waiting-room kiosk signs up a patient every few minutes; a script making accounts
// is slowed from 10 s to an hour between them.
export const REGISTER_PER_ADDRESS: ThrottleRule = { free: 20, baseSeconds: 10, maxSeconds: 60 * 60, windowMinutes: 60 };

// A signed-in user's current password (to change it or the sign-in e-mail), and a second factor's codes: the
// same backoff as one account from one address, whatever the address.
export const PASSWORD_CHECKS_PER_ACCOUNT: ThrottleRule = LOGIN_PER_ACCOUNT_AND_ADDRESS;
export const MFA_CODES_PER_ACCOUNT: ThrottleRule = { free: 5, baseSeconds: 5, maxSeconds: 15 * 60, windowMinutes: 15 };
// Verification messages for one account: a few an hour, so nobody floods an inbox.
export const VERIFICATIONS_PER_ACCOUNT: ThrottleRule = {
  free: 3,
  baseSeconds: 60,
  maxSeconds: 60 * 60,
  windowMinutes: 60,
};
// Reset requests for one account from one address. Counted per account alone, a stranger's requests would keep
// the owner's own at 429 for an hour; so each address waits for its own, and RESETS_PER_ADDRESS bounds a stranger.
export const RESET_REQUESTS_PER_ACCOUNT_AND_ADDRESS: ThrottleRule = VERIFICATIONS_PER_ACCOUNT;

// Reset links used from one address; a link is unguessable, so this only bounds the hashing a script can cause.
export const RESETS_PER_ADDRESS: ThrottleRule = REGISTER_PER_ADDRESS;

/** Seconds before `bucket` allows another attempt under `rule`; 0 when it may go now. */
export function secondsToWait(bucket: Bucket, rule: ThrottleRule, now: Date): number {
  if (!bucket.lastFailureAt || inNewWindow(bucket, rule, now)) return 0;
  const over = bucket.failures - rule.free;
  if (over < 0) return 0;
  const delayMs = Math.min(rule.baseSeconds * 2 ** over, rule.maxSeconds) * 1000;
  return Math.max(0, Math.ceil((bucket.lastFailureAt.getTime() + delayMs - now.getTime()) / 1000));
}

/** The window has passed since the last failure: counting starts again. */
export function inNewWindow(bucket: Bucket, rule: ThrottleRule, now: Date): boolean {
  return !bucket.lastFailureAt || now.getTime() - bucket.lastFailureAt.getTime() > rule.windowMinutes * 60_000;
}

export const tooManyAttempts = (retryAfterSeconds: number, message: string) =>
  new DomainError('too_many', 'too_many_attempts', message, undefined, retryAfterSeconds);

/** "Please wait 3 minutes", "Please wait 40 seconds". */
export function waitMessage(seconds: number): string {
  return seconds >= 90
    ? `Please wait ${Math.ceil(seconds / 60)} minutes and try again.`
    : `Please wait ${seconds} seconds and try again.`;
}

/** The buckets a sign-in attempt counts in: the account from this address, and the address across accounts. */
/** A bucket a request counts in, and the rule that bounds it. */
export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
}

export const loginKeys = (email: string, ip: string): [ThrottleKey, ThrottleKey] => [
  { key: `login:${email.toLowerCase()}|${ip}`, rule: LOGIN_PER_ACCOUNT_AND_ADDRESS },
  { key: `login:${ip}`, rule: LOGIN_PER_ADDRESS },
];
