import { dictionary } from '@zxcvbn-ts/language-common';
import type { Validator } from '../shared/validate.ts';

// OWASP ASVS 5.0 §6.2: at least 8 characters, at least 64 allowed, taken exactly as typed, and not a common one.
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;
/** Accounts made before the rule may have up to 200 characters; signing in still accepts them. */
export const MAX_SIGN_IN_PASSWORD_LENGTH = 200;

let common: Set<string> | undefined;

/** Among the ~49,000 commonest passwords zxcvbn-ts ships (compared in lower case, as that list is). */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}

/** A password being set: its length and commonness checked, never trimmed. */
export function newPassword(v: Validator, field: string, opts: { optional?: boolean } = {}): string {
  const password = v.untrimmed(field, { optional: opts.optional, max: MAX_PASSWORD_LENGTH });
  if (!password || v.failed(field)) return password;
  if ([...password].length < MIN_PASSWORD_LENGTH) v.fail(field, `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  else if (isCommonPassword(password))
    v.fail(field, 'is one of the most common passwords; choose one that is harder to guess');
  return password;
}
