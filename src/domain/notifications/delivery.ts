/** What became of one attempt to send, and when to try again. */

/** Attempts before a message that keeps failing for a passing reason is given up (dead-lettered). */
export const MAX_ATTEMPTS = 8;

export interface RetryPolicy {
  /** The wait after the first failure; each further one waits twice as long. */
  baseDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 60_000, maxDelayMs: 6 * 3_600_000, maxAttempts: MAX_ATTEMPTS };

/** Messages one worker hands to the mail server at once, each under a lease of its own. */
export const DEFAULT_SEND_CONCURRENCY = 5;

/** How long an attempt waits for the mail server's reply; past it the attempt failed for a passing reason. */
export const DEFAULT_SEND_TIMEOUT_MS = 60_000;

export type SendFailure = { temporary: boolean; reason: string };

/** After `attempts` attempts the last of which failed: when to try again, or undefined to give it up. */
export function nextAttempt(
  failure: SendFailure,
  attempts: number,
  now: Date,
  policy: RetryPolicy = DEFAULT_RETRY,
): Date | undefined {
  if (!failure.temporary || attempts >= policy.maxAttempts) return undefined;
  const delay = Math.min(policy.baseDelayMs * 2 ** (attempts - 1), policy.maxDelayMs);
  return new Date(now.getTime() + delay);
}

/**
 * A mail server's refusal or a network error, as temporary (try again) or not. SMTP says so in its reply code:
 * 4xx is "try again later", 5xx is "never"; an address that cannot be reached, a timeout or a dropped
 * connection is temporary.
 */
export function classify(error: { responseCode?: number; code?: string; message?: string }): SendFailure {
  const reason = (error.message ?? String(error)).slice(0, 500);
  if (typeof error.responseCode === 'number') return { temporary: error.responseCode < 500, reason };
  return { temporary: true, reason };
}
