import { DomainError, type ErrorKind } from '../domain/shared/errors.ts';

const STATUS: Record<ErrorKind, number> = {
  malformed: 400,
  invalid: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many: 429,
  too_large: 413,
  unavailable: 503,
};

/** Seconds a client should wait before trying again after a 503: the database is usually back within that. */
export const RETRY_UNAVAILABLE_AFTER_S = 2;

/** An error of the HTTP edge itself (malformed JSON, unknown route) that no use case raised. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface ErrorAnswer {
  status: number;
  body: { message: string; code: string; errors?: Record<string, string[]> };
  headers?: Record<string, string>;
  /** Set when the error was not expected and must be logged. */
  unexpected?: unknown;
}

/** The one place an error becomes a status and a body. */
export function toErrorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof DomainError) {
    const body: ErrorAnswer['body'] = { message: error.message, code: error.code };
    if (error.fields) body.errors = error.fields;
    const headers: Record<string, string> = {};
    if (error.kind === 'unavailable') headers['retry-after'] = String(RETRY_UNAVAILABLE_AFTER_S);
    if (error.kind === 'too_many') headers['retry-after'] = String(Math.max(1, error.retryAfterSeconds ?? 60));
    if (error.kind === 'unauthenticated') headers['www-authenticate'] = 'Bearer';
    return { status: STATUS[error.kind], body, headers };
  }
  if (error instanceof HttpError) {
    return { status: error.status, body: { message: error.message, code: error.code }, headers: error.headers };
  }
  return {
    status: 500,
    body: { message: 'Something went wrong on our side. Please try again.', code: 'internal' },
    unexpected: error,
  };
}
