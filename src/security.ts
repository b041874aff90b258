import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import type { PasswordHasher, TokenIssuer } from './domain/auth/ports.ts';

// OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane. Hashing runs on libuv's pool, off the event loop.
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// A login burst would otherwise keep every core hashing; one core stays free for the other requests.
const hashingSlots = limitConcurrency(Math.max(1, availableParallelism() - 1));

export const argon2Hasher: PasswordHasher = {
  hash: (password) => hashingSlots(() => argon2.hash(password, ARGON2_OPTIONS)),
  verify: (hash, password) =>
    hashingSlots(async () => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false; // a malformed stored hash matches nothing
      }
    }),
};

/** Runs at most `limit` of the given tasks at once; the rest wait their turn in order. */
export function limitConcurrency(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

export const bearerTokens: TokenIssuer = {
  issue: () => randomBytes(32).toString('base64url'),
  digest: (token) => createHash('sha256').update(token).digest('hex'),
};
