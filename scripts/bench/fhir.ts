/**
 * `[DATABASE_URL=…] node --import tsx scripts/bench/fhir.ts [--scale 0.1] [--rounds 20] [--concurrency 4] [--output bench/fhir-results.json]`:
 * the FHIR API on the bench hospital (dataset.ts; 0.1 is 10,000 patients and 100,000 appointments), served by the
 * real `medora serve` (the built dist/, as main.ts starts it). Measures
 *  - Patient/$everything for one patient given ~1,000 resources, paged by 100 as a client follows `next`: p50/p95
 *    of a page and of the whole walk, against the plain API's read of the same patient's records
 *    (GET /api/patient/records) in the same rounds, one after the other, so the ratio shares the machine's load;
 *  - the ZIP download of one record of ~40,000 resources (patient 2), and the NDJSON export of every patient's
 *    record (`_format=application/fhir+ndjson`, streamed), `--concurrency` at a time: resources per second, and the
 *    server's resident memory before and during each (sampled every 200 ms) and its peak (VmHWM).
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { migrate } from '../../src/db/migrate.ts';
import { onlyRow } from '../../src/db/rows.ts';
import type { Queryable } from '../../src/db/db.ts';
import { clinicDateTime } from '../../src/domain/shared/clock.ts';
import { argon2Hasher, bearerTokens } from '../../src/security.ts';
import { earlyMorningZone } from './clinic-zone.ts';
import { createBenchDatabase } from './database.ts';
import { ADMIN_EMAIL, BENCH_PASSWORD, generateHospital } from './dataset.ts';
import { round } from './load.ts';
import { hospitalSize } from './scale.ts';
import { startMedora } from './servers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = 100;
const TARGET_RESOURCES = 1_000;
/** One record far larger than any patient's, to see that exporting it holds no more memory than a small one. */
const LARGE_RECORD = 40_000;

const opts = new Command('bench-fhir')
  .option('--scale <share>', 'share of the full bench hospital (1 is 100,000 patients)', '0.1')
  .option('--rounds <n>', '$everything walks and records reads, one after the other', '20')
  .option('--concurrency <n>', 'patients exported at once', '4')
  .option('--output <file>', 'where to write the results', 'bench/fhir-results.json')
  .parse()
  .opts<{ scale: string; rounds: string; concurrency: string; output: string }>();
const log = (line: string) => console.error(line);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0, 2);
};
const summary = (values: number[]) => ({
  n: values.length,
  p50Ms: percentile(values, 50),
  p95Ms: percentile(values, 95),
});

/** Gives patient `id` enough completed visits (each an Appointment, an Encounter, a Condition and an Invoice) for ~`target` resources. */
async function growPatient(db: Queryable, id: number, target: number): Promise<number> {
  const { n } = onlyRow(
    await db.query<{ n: number }>(
      `select 1 + (select count(*) from appointments where patient_id = $1 and status in ('completed', 'checked_in'))
              + (select count(*) from appointments where patient_id = $1)
              + (select count(*) from medical_records where patient_id = $1) + (select count(*) from billings where patient_id = $1) as n`,
      [id],
    ),
  );
  const moved = Math.max(0, Math.ceil((target - Number(n)) / 4));
  await db.query(
    `with chosen as (select a.id from appointments a join medical_records m on m.appointment_id = a.id where a.patient_id not in (1, 2) order by a.id limit $2),
     a as (update appointments set patient_id = $1 where id in (select id from chosen) returning id),
     m as (update medical_records set patient_id = $1 where appointment_id in (select id from chosen) returning id),
     b as (update billings set patient_id = $1 where medical_record_id in (select id from m) returning id)
     update payments set patient_id = $1 where billing_id in (select id from b)`,
    [id, moved],
  );
  return Number(n) + 4 * moved;
}

/** The server's resident memory now (VmRSS), in MiB. */
const rssMiB = (pid: number) =>
  Math.round(Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 102.4) / 10;

/** Samples `pid`'s resident memory every 200 ms while `work` runs: the highest seen. */
async function sampledRss<T>(pid: number, work: () => Promise<T>): Promise<[T, number]> {
  let highest = rssMiB(pid);
  const timer = setInterval(() => (highest = Math.max(highest, rssMiB(pid))), 200);
  try {
    return [await work(), highest];
  } finally {
    clearInterval(timer);
  }
}

async function session(db: Queryable, userId: number): Promise<string> {
  const token = bearerTokens.issue();
  await db.query(`insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`, [
    userId,
    bearerTokens.digest(token),
  ]);
  return token;
}

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
};

async function getJson(
  url: string,
  token: string,
): Promise<{ link?: { relation: string; url: string }[]; entry?: unknown[] }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as { link?: { relation: string; url: string }[]; entry?: unknown[] };
}

const startedAt = new Date();
const clinicTimeZone = earlyMorningZone(startedAt);
const scale = Number(opts.scale);
const database = await createBenchDatabase(process.env.DATABASE_URL);
const logDir = await mkdtemp(join(tmpdir(), 'medora-bench-fhir-'));
try {
  log(`Generating the hospital (${scale * 100} %) in a fresh ${database.kind} database`);
  const db = await database.open();
  let tokens: { admin: string; patient: string };
  let resources: number;
  let largeRecord: number;
  let counts: Record<string, number>;
  let patients: number[];
  try {
    await migrate(db);
    counts = await generateHospital(db, {
      size: hospitalSize(scale),
      today: clinicDateTime(startedAt, clinicTimeZone).date,
      passwordHash: await argon2Hasher.hash(BENCH_PASSWORD),
      progress: log,
    });
    resources = await growPatient(db, 1, TARGET_RESOURCES);
    largeRecord = await growPatient(db, 2, LARGE_RECORD);
    const admin = onlyRow(
      await db.query<{ id: number }>('select id from users where lower(email) = lower($1)', [ADMIN_EMAIL]),
    ).id;
    const patientUser = onlyRow(
      await db.query<{ user_id: number }>('select user_id from patients where id = 1'),
    ).user_id;
    tokens = { admin: await session(db, admin), patient: await session(db, patientUser) };
    patients = (await db.query<{ id: number }>('select id from patients order by id')).map((p) => p.id);
  } finally {
    await db.close();
  }

  const medora = await startMedora({ ...database.env, CLINIC_TZ: clinicTimeZone }, join(logDir, 'medora.log'));
  try {
    const rounds = Number(opts.rounds);
    const pages: number[] = [];
    const walks: number[] = [];
    const records: number[] = [];
    let walked = 0;
    log(
      `$everything of patient 1 (${resources} resources) by ${PAGE}, against GET /api/patient/records, ${rounds} rounds`,
    );
    for (let r = 0; r <= rounds; r++) {
      let next: string | undefined = `${medora.url}/fhir/R4/Patient/1/$everything?_count=${PAGE}`;
      let count = 0;
      const [, walk] = await timed(async () => {
        while (next !== undefined) {
          const [bundle, ms] = await timed(() => getJson(next ?? '', tokens.patient));
          if (r > 0) pages.push(ms);
          count += bundle.entry?.length ?? 0;
          next = bundle.link?.find((l) => l.relation === 'next')?.url;
        }
      });
      const [, read] = await timed(() => getJson(`${medora.url}/api/patient/records`, tokens.patient));
      // Round 0 warms both up.
      if (r > 0) {
        walks.push(walk);
        records.push(read);
        walked = count;
      }
    }
    const everything = {
      resources: walked,
      pageSize: PAGE,
      page: summary(pages),
      walk: summary(walks),
      recordsRead: summary(records),
    };
    const ratios = {
      pageToRecords: round(everything.page.p50Ms / everything.recordsRead.p50Ms, 2),
      walkToRecords: round(everything.walk.p50Ms / everything.recordsRead.p50Ms, 2),
    };
    log(
      `  page p50 ${everything.page.p50Ms} ms p95 ${everything.page.p95Ms} ms; walk p50 ${everything.walk.p50Ms} ms p95 ${everything.walk.p95Ms} ms; ` +
        `records p50 ${everything.recordsRead.p50Ms} ms p95 ${everything.recordsRead.p95Ms} ms; ratios ${JSON.stringify(ratios)}`,
    );

    log(`ZIP export of patient 2 (${largeRecord} resources), as Download my data asks for it`);
    const rssBeforeLarge = rssMiB(medora.pid);
    const [[zipBytes, zipMs], rssDuringLarge] = await sampledRss(medora.pid, () =>
      timed(async () => {
        const res = await fetch(`${medora.url}/fhir/R4/Patient/2/$everything?_format=application/zip`, {
          headers: { authorization: `Bearer ${tokens.admin}` },
        });
        if (!res.ok || !res.body) throw new Error(`export of patient 2: ${res.status}`);
        let received = 0;
        for await (const chunk of res.body) received += chunk.length;
        return received;
      }),
    );
    const large = {
      resources: largeRecord,
      zipMiB: round(zipBytes / 2 ** 20, 2),
      seconds: round(zipMs / 1000, 1),
      serverRssMiB: { before: rssBeforeLarge, highestDuring: rssDuringLarge },
    };
    log(`  ${JSON.stringify(large)}`);

    const rssBefore = medora.peakRssMiB();
    log(
      `NDJSON export of ${patients.length} patients, ${opts.concurrency} at a time (server peak RSS so far ${rssBefore} MiB)`,
    );
    let lines = 0;
    let bytes = 0;
    let nextPatient = 0;
    const rssAtStart = rssMiB(medora.pid);
    const [[, exportMs], rssDuring] = await sampledRss(medora.pid, () =>
      timed(() =>
        Promise.all(
          Array.from({ length: Number(opts.concurrency) }, async () => {
            while (nextPatient < patients.length) {
              const id = patients[nextPatient++];
              const res = await fetch(
                `${medora.url}/fhir/R4/Patient/${id}/$everything?_format=application/fhir%2Bndjson`,
                { headers: { authorization: `Bearer ${tokens.admin}` } },
              );
              if (!res.ok || !res.body) throw new Error(`export of patient ${id}: ${res.status}`);
              for await (const chunk of res.body) {
                bytes += chunk.length;
                for (const byte of chunk) if (byte === 10) lines += 1;
              }
            }
          }),
        ),
      ),
    );
    const exported = {
      patients: patients.length,
      resources: lines,
      mib: round(bytes / 2 ** 20, 1),
      seconds: round(exportMs / 1000, 1),
      resourcesPerSecond: Math.round(lines / (exportMs / 1000)),
      serverRssMiB: {
        atStart: rssAtStart,
        highestDuring: rssDuring,
        peakBefore: rssBefore,
        peakAfter: medora.peakRssMiB(),
      },
    };
    log(`  ${JSON.stringify(exported)}`);
    const results = {
      startedAt: startedAt.toISOString(),
      database: database.kind,
      scale,
      dataset: counts,
      everything,
      ratios,
      largeExport: large,
      export: exported,
    };
    const output = resolve(ROOT, opts.output);
    await mkdir(dirname(output), { recursive: true });
    await writeFile(output, `${JSON.stringify(results, null, 2)}\n`);
    console.log(JSON.stringify(results, null, 2));
  } finally {
    await medora.stop();
  }
  await rm(logDir, { recursive: true, force: true });
} catch (error) {
  log(`bench failed: ${(error as Error)?.stack ?? error}\nserver logs are in ${logDir}`);
  process.exitCode = 1;
} finally {
  await database.remove();
}
