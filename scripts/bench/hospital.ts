import type { Db } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { argon2Hasher } from '../../src/security.ts';
import type { BenchDatabase } from './database.ts';
import { BENCH_PASSWORD, generateHospital } from './dataset.ts';
import { WRITE_KINDS, loadFixtures, type Fixtures } from './fixtures.ts';
import { round } from './load.ts';
import { countRoundTrips, type CountedTargets } from './round-trips.ts';
import type { RoundTrips } from './statements.ts';
import { hospitalSize } from './scale.ts';

// Targets of each write: more than the write rounds of a full run get through on this hardware.
const MAX_WRITES = 40_000;

export interface Hospital {
  counts: Record<string, number>;
  seconds: number;
  fixtures: Fixtures;
  /** The statements of one request of each write, on Medora and on its twin. */
  roundTrips: RoundTrips[];
}

/**
 * Schema, hospital, fixtures and the writes' round trips (counted in this process, on targets the load then does
 * not get); the bench's own handle is closed before any server opens the database.
 */
export async function prepareHospital(
  target: BenchDatabase,
  scale: number,
  clinic: { today: string; timeZone: string },
  log: (line: string) => void,
): Promise<Hospital> {
  const { today, timeZone } = clinic;
  const db = await target.open();
  try {
    const { counts, seconds } = await generateBenchHospital(db, scale, today, log);
    const fixtures = await loadFixtures(db, today, MAX_WRITES);
    const roundTrips = await countRoundTrips(
      db,
      { clinicTz: timeZone, clinicName: 'Bench Clinic' },
      setAside(fixtures),
    );
    const { booking, record, payment } = fixtures.writes;
    log(
      `  ${booking.length} free slots to book, ${record.length} visits to record, ${payment.length} bills to pay; ${seconds} s in all`,
    );
    return { counts, seconds, fixtures, roundTrips };
  } finally {
    await db.close();
  }
}

/** The schema, then the hospital at `scale` for the clinic day `today`, with how long generating it took. */
export async function generateBenchHospital(
  db: Db,
  scale: number,
  today: string,
  log: (line: string) => void,
): Promise<{ counts: Record<string, number>; seconds: number }> {
  await migrate(db);
  const started = performance.now();
  const counts = await generateHospital(db, {
    size: hospitalSize(scale),
    today,
    passwordHash: await argon2Hasher.hash(BENCH_PASSWORD),
    progress: log,
  });
  return { counts, seconds: round((performance.now() - started) / 1000, 1) };
}

/** Two targets of each write, taken out of the fixtures, for counting round trips. */
function setAside(fixtures: Fixtures): CountedTargets {
  const pairs = WRITE_KINDS.map((kind) => {
    const [forMedora, forTwin] = fixtures.writes[kind].splice(0, 2);
    if (!forMedora || !forTwin) throw new Error(`the hospital has too few targets for the ${kind} write`);
    return [kind, [forMedora, forTwin]] as const;
  });
  return Object.fromEntries(pairs) as CountedTargets;
}
