import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { PasswordHasher, TokenIssuer, Totp } from './domain/auth/ports.ts';

// A login burst would otherwise keep every core hashing; one core stays free for the other requests.
const hashingSlots = limitConcurrency(Math.max(1, availableParallelism() - 1));

/**
 * argon2id at `cost` (KiB of memory, iterations) on one lane. Hashing runs on libuv's pool, off the event loop;
 * a hash records its own cost, so `verify` checks hashes of any cost.
 */
export function argon2HasherAt(cost: { memoryCost: number; timeCost: number }): PasswordHasher {
  const options = { type: argon2.argon2id, parallelism: 1, ...cost } as const;
  return {
    hash: (password) => hashingSlots(() => argon2.hash(password, options)),
    verify: (hash, password) =>
      hashingSlots(async () => {
        try {
          return await argon2.verify(hash, password);
        } catch {
          return false; // a malformed stored hash matches nothing
        }
      }),
  };
}

// OWASP's argon2id minimum: 19 MiB, 2 iterations.
export const argon2Hasher = argon2HasherAt({ memoryCost: 19_456, timeCost: 2 });

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
  // 80 bits as four groups of five hex digits, easy to read off paper: "3f9a1-c07d2-8be45-019fa".
  recoveryCode: () => (randomBytes(10).toString('hex').match(/.{5}/g) ?? []).join('-'),
  digest: (token) => createHash('sha256').update(token).digest('hex'),
};

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const TOTP_PERIOD_S = 30;
const totpFor = (secret: string, label = '', issuer = '') =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, label, issuer });

export const totp: Totp = {
  newSecret: () => new Secret({ size: 20 }).base32,
  uri: (secret, account, issuer) => totpFor(secret, account, issuer).toString(),
  qrSvg: (uri) => QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
  stepOf: (secret, code, now) => {
    if (!/^\d{6}$/.test(code)) return undefined;
    // One step either side, so a phone's clock a little off still works.
    const delta = totpFor(secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
    return delta === null ? undefined : Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S) + delta;
  },
};
