import { migrate } from '../../src/db/migrate.ts';
import { argon2Hasher } from '../../src/security.ts';
import type { BenchDatabase } from './database.ts';
import { BENCH_PASSWORD, generateHospital } from './dataset.ts';
import { loadFixtures, type Fixtures } from './fixtures.ts';
import { round } from './load.ts';
import { hospitalSize } from './scale.ts';

// More than any 10-second booking run gets through on this hardware; the rest of today's slots stay free.
const MAX_BOOKINGS = 20_000;

export interface Hospital {
  counts: Record<string, number>;
  seconds: number;
  fixtures: Fixtures;
}

/** Schema, hospital and fixtures; the bench's own handle is closed before any server opens the database. */
export async function prepareHospital(target: BenchDatabase, scale: number, today: string, log: (line: string) => void): Promise<Hospital> {
  const db = await target.open();
  try {
    await migrate(db);
    const started = performance.now();
    const counts = await generateHospital(db, {
      size: hospitalSize(scale),
      today,
      passwordHash: await argon2Hasher.hash(BENCH_PASSWORD),
      progress: log,
    });
    const seconds = round((performance.now() - started) / 1000, 1);
    const fixtures = await loadFixtures(db, today, MAX_BOOKINGS);
    log(`  ${fixtures.bookings.length} free slots of today ready to book; ${seconds} s in all`);
    return { counts, seconds, fixtures };
  } finally {
    await db.close();
  }
}
