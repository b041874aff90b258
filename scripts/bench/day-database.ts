/**
 * The hospital day's database: one per scale, kept between runs (`bench_day_full` for the full hospital), made only
 * when missing, since generating the full hospital takes minutes and a rerun of the day should not. What was
 * generated, for which clinic day and in how long is kept in the database's comment; a database without it was
 * left half made and is made again, as is one asked to be (`regenerate`: the stays, vital signs and doses are
 * generated around the moment of generation, and a later day finds them older).
 */
import { openPostgres, runOnConnection } from '../../src/db/postgres.ts';
import type { Db } from '../../src/db/db.ts';
import { GENERATOR_TIMEOUTS } from './database.ts';
import { generateBenchHospital } from './hospital.ts';
import { round } from './load.ts';

export interface DayDatabase {
  name: string;
  url: string;
  /** True when this run generated it. */
  generated: boolean;
  dataset: { scale: number; today: string; counts: Record<string, number>; seconds: number };
  open(): Promise<Db>;
}

/** `bench_day_full` at 100 %, `bench_day_0_05` at 5 %. */
export const dayDatabaseName = (scale: number) =>
  `bench_day_${scale === 1 ? 'full' : String(scale).replace(/[^0-9]/g, '_')}`;

/** The database of `scale` beside `serverUrl`'s, generated for clinic day `today` if it is not there whole. */
export async function ensureDayDatabase(
  serverUrl: string,
  scale: number,
  today: string,
  log: (line: string) => void,
  regenerate = false,
): Promise<DayDatabase> {
  const name = dayDatabaseName(scale);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const open = () => openPostgres(url.toString(), { timeouts: GENERATOR_TIMEOUTS });
  const kept = regenerate ? undefined : await describedDataset(serverUrl, name);
  if (kept) {
    log(`Using the kept hospital ${name} (${JSON.stringify(kept.counts)}), generated for ${kept.today}`);
    return { name, url: url.toString(), generated: false, dataset: kept, open };
  }
  await runOnConnection(serverUrl, `drop database if exists ${name} with (force)`);
  await runOnConnection(serverUrl, `create database ${name}`);
  log(`Generating the hospital (${round(scale * 100, 2)} %) in ${name}; clinic day ${today}`);
  const db = await open();
  try {
    const { counts, seconds } = await generateBenchHospital(db, scale, today, log);
    const dataset = { scale, today, counts, seconds };
    await db.exec(`comment on database ${name} is '${JSON.stringify(dataset)}'`);
    return { name, url: url.toString(), generated: true, dataset, open };
  } finally {
    await db.close();
  }
}

async function describedDataset(serverUrl: string, name: string): Promise<DayDatabase['dataset'] | undefined> {
  const server = await openPostgres(serverUrl, { max: 1 });
  try {
    const rows = await server.query<{ comment: string | null }>(
      `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`,
      [name],
    );
    const comment = rows[0]?.comment;
    return comment ? (JSON.parse(comment) as DayDatabase['dataset']) : undefined;
  } finally {
    await server.close();
  }
}
