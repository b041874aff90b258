export type ErrorKind =
  | 'malformed'
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_many'
  | 'too_large'
  | 'unavailable';

export type FieldErrors = Record<string, string[]>;

/** The one error type every layer throws; HTTP and CLI map `kind` once, clients branch on `code`. */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
    /** For `too_many`: when the caller may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (fields: FieldErrors, message = firstMessage(fields)) =>
  new DomainError('invalid', 'invalid', message, fields);
/** A request that cannot be read as what it claims to be (a webhook whose signature does not hold). */
export const malformed = (code: string, message: string) => new DomainError('malformed', code, message);
export const notFound = (what: string) => new DomainError('not_found', 'not_found', `${what} not found`);
export const conflict = (code: string, message: string, fields?: FieldErrors) =>
  new DomainError('conflict', code, message, fields);
export const forbidden = (message = 'You are not allowed to do this') =>
  new DomainError('forbidden', 'forbidden', message);
export const unauthenticated = (message = 'Please sign in') =>
  new DomainError('unauthenticated', 'unauthenticated', message);
/** The database cannot answer now (down, overloaded, a lock or statement timeout); the client may retry. */
export const unavailable = (code: string, message: string) => new DomainError('unavailable', code, message);

function firstMessage(fields: FieldErrors): string {
  const [field, messages] = Object.entries(fields)[0] ?? ['input', ['is invalid']];
  return `${field}: ${messages[0]}`;
}

/**
 * `value`, narrowed to present; when it is missing, the error `missing` makes is thrown (a 404 or 409 the client
 * can act on). Use cases and adapters narrow with it rather than with `!` or a plain Error.
 */
export function ensure<T>(value: T | null | undefined, missing: () => DomainError): T {
  if (value === null || value === undefined) throw missing();
  return value;
}
