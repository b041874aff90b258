import type { Validator } from '../shared/validate.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH, idempotencyKeyReused } from './billing.ts';
import type { BillingDeps } from './ports.ts';

/** The first answer under `key`, when it answered this very request; another request's is the client's mistake. */
export async function rememberedAnswer(
  deps: Pick<BillingDeps, 'idempotency'>,
  userId: number,
  key: string,
  request: string,
) {
  const earlier = await deps.idempotency.find(userId, key);
  if (earlier && earlier.request !== request) throw idempotencyKeyReused();
  return earlier;
}

/** Idempotency-Key as a request carries it: undefined when absent; a blank or overlong one fails on `v`. */
export function readIdempotencyKey(v: Validator, raw: string | undefined): string | undefined {
  const key = raw?.trim();
  if (raw !== undefined && (!key || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    v.fail('Idempotency-Key', `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  return key || undefined;
}
