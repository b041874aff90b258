import { createHash, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import type { PasswordHasher, TokenIssuer } from './domain/auth/ports.ts';

// OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane. Hashing runs on libuv's pool, off the event loop.
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const argon2Hasher: PasswordHasher = {
  hash: (password) => argon2.hash(password, ARGON2_OPTIONS),
  verify: async (hash, password) => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false; // a malformed stored hash matches nothing
    }
  },
};

export const bearerTokens: TokenIssuer = {
  issue: () => randomBytes(32).toString('base64url'),
  digest: (token) => createHash('sha256').update(token).digest('hex'),
};
