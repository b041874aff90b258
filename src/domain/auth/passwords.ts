import { dictionary } from '@zxcvbn-ts/language-common';
import { readField } from '../shared/read-fields.ts';
import type { Validator } from '../shared/validate.ts';
import { text } from '../shared/wire-schema.ts';

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

/** A password being set, as requests describe it; `refuseCommonPassword` adds what a schema cannot say. */
export const NewPasswordText = text(MAX_PASSWORD_LENGTH, {
  rule: 'untrimmed',
  min: MIN_PASSWORD_LENGTH,
  description: `Taken exactly as typed (never trimmed); ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters, not one of the commonest passwords`,
});

/** A password signed in with, exactly as typed. */
export const CurrentPasswordText = text(MAX_SIGN_IN_PASSWORD_LENGTH, {
  rule: 'untrimmed',
  description: 'Exactly as typed',
});

/** A new password that read well (`NewPasswordText`) is refused when it is one of the commonest. */
export function refuseCommonPassword(v: Validator, field: string, password: string | undefined): void {
  if (password && !v.failed(field) && isCommonPassword(password))
    v.fail(field, 'is one of the most common passwords; choose one that is harder to guess');
}

/** A password being set in a request not yet read from its schema: its length and commonness checked, never trimmed. */
export function newPassword(v: Validator, field: string, opts: { optional?: boolean } = {}): string {
  const password = readField(v, field, NewPasswordText, { optional: opts.optional ?? false }) ?? '';
  refuseCommonPassword(v, field, password);
  return password;
}
