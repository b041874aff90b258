import { makeApp, type App } from '../app.ts';
import type { Db, Queryable } from '../db/db.ts';
import type { Clock } from '../domain/shared/clock.ts';
import type { Role } from '../domain/shared/actor.ts';
import type { StripeSettings } from '../stripe-card-checkout.ts';
import type { AuditKeys } from '../domain/audit/checkpoint.ts';
import { argon2HasherAt } from '../security.ts';

export const TEST_TZ = 'Europe/Berlin';

/**
 * argon2id at its lowest cost: real hashes, which the production hasher verifies too, at half a millisecond
 * instead of fifty, for the thousands of accounts the tests create.
 */
export const testHasher = argon2HasherAt({ memoryCost: 64, timeCost: 1 });

/** The app over a test's database, as the server and the CLI compose it, with the cheap hasher. */
export function makeTestApp(
  db: Db,
  opts: {
    clock: Clock;
    clinicTz?: string;
    clinicName?: string;
    clinicAddress?: string;
    clinicPhone?: string;
    /** Online card payments through Stripe (a stand-in's address as `apiUrl`); none turns them off. */
    stripe?: StripeSettings;
    bankTransferDetails?: string;
    requireMfa?: Role[];
    auditKeys?: AuditKeys;
    /** Where the lag-tolerant reads go (a replica); `db` when not given. */
    reads?: Queryable;
    billMedicines?: boolean;
  },
): App {
  return makeApp({
    db,
    reads: opts.reads,
    clock: opts.clock,
    config: {
      clinicTz: opts.clinicTz ?? TEST_TZ,
      clinicName: opts.clinicName ?? 'Medora Test Clinic',
      clinicAddress: opts.clinicAddress ?? '12 Test Street, Testville',
      clinicPhone: opts.clinicPhone ?? '+1 555 0199',
      requireMfa: opts.requireMfa,
      stripe: opts.stripe,
      bankTransferDetails: opts.bankTransferDetails,
      billMedicines: opts.billMedicines ?? false,
    },
    hasher: testHasher,
    auditKeys: opts.auditKeys,
  });
}
