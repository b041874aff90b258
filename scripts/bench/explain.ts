/**
 * `node --import tsx scripts/bench/explain.ts [--scale full] [--endpoint text]`: the query plans of the bench's main
 * and clinical reads on a generated hospital. Each read is asked once of Medora, in this process over a handle that notes every
 * statement it sends; each statement that reads is then run again under EXPLAIN (ANALYZE, BUFFERS) with the same
 * parameters, and its plan printed with its time. What to look at when a read's p50 grows with the hospital.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command } from 'commander';
import { makeApp } from '../../src/app.ts';
import { clinicDateTime, systemClock } from '../../src/domain/shared/clock.ts';
import { createMedoraServer } from '../../src/http/server.ts';
import { closeGracefully } from '../../src/http/shutdown.ts';
import { earlyMorningZone } from './clinic-zone.ts';
import { createBenchDatabase } from './database.ts';
import { prepareHospital } from './hospital.ts';
import { notingDb } from './noting-db.ts';
import { parseScale } from './scale.ts';
import { readScenarios } from './scenarios.ts';
import { BIG_PATIENT_ID } from './clinical-dataset.ts';
import { loadClinicalFixtures } from './clinical-fixtures.ts';
import { clinicalReadScenarios } from './clinical-scenarios.ts';

const options = new Command('explain')
  .description('the query plans of the bench reads on a generated hospital')
  .option('--scale <scale>', '"small", "full", "group" or a multiple of the full hospital', 'full')
  .option('--endpoint <text>', 'only the reads whose name contains this')
  .parse()
  .opts<{ scale: string; endpoint?: string }>();

const log = (line: string) => console.error(line);
const now = new Date();
const timeZone = earlyMorningZone(now);
const database = await createBenchDatabase(process.env.DATABASE_URL);
try {
  const { fixtures } = await prepareHospital(
    database,
    parseScale(options.scale),
    { today: clinicDateTime(now, timeZone).date, timeZone },
    log,
  );
  const db = await database.open();
  const clinical = clinicalReadScenarios(await loadClinicalFixtures(db, BIG_PATIENT_ID, 1), now);
  const statements: { sql: string; params: unknown[] }[] = [];
  const noting = notingDb(db, (sql, params) => {
    if (/^\s*(select|with)\b/i.test(sql)) statements.push({ sql, params: params ?? [] });
  });
  const server: Server = createMedoraServer(
    makeApp({ db: noting, clock: systemClock, config: { clinicTz: timeZone, clinicName: 'Bench Clinic' } }),
    { log: () => {} },
  );
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const scenario of [...readScenarios(fixtures), ...clinical].filter(
      (s) => !options.endpoint || s.name.includes(options.endpoint),
    )) {
      const { method, path, headers } = scenario.next();
      statements.length = 0;
      const asked = performance.now();
      const answer = await fetch(`${base}${path}`, { method, headers });
      await answer.arrayBuffer();
      const ms = Math.round(performance.now() - asked);
      console.log(
        `\n=== ${scenario.name}: ${method} ${path} → ${answer.status} in ${ms} ms, ${statements.length} statements`,
      );
      for (const { sql, params } of [...statements]) {
        const plan = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${sql}`, params);
        console.log(`--- ${sql.replace(/\s+/g, ' ').trim().slice(0, 160)}`);
        for (const line of plan) console.log(line['QUERY PLAN']);
      }
    }
  } finally {
    await closeGracefully(server, 100);
    await db.close();
  }
} finally {
  await database.remove();
}
