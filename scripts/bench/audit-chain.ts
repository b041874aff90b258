/**
 * `node --import tsx scripts/bench/audit-chain.ts [--rows 4000] [--concurrency 1,16]`: audit rows written per
 * second through the app's own writer, each in its own transaction as an audited request writes it, one at a
 * time and from many connections at once, on a fresh migrated database of DATABASE_URL's server (else embedded).
 */
import { Command } from 'commander';
import { migrate } from '../../src/db/migrate.ts';
import { auditLog } from '../../src/db/audit.pg.ts';
import { createBenchDatabase } from './database.ts';

const opts = new Command()
  .option('--rows <n>', 'rows written per run', '4000')
  .option('--concurrency <list>', 'writers at once, one run each', '1,16')
  .parse()
  .opts<{ rows: string; concurrency: string }>();

const database = await createBenchDatabase(process.env.DATABASE_URL);
const db = await database.open();
try {
  await migrate(db);
  for (const writers of opts.concurrency.split(',').map(Number)) {
    const rows = Number(opts.rows);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (next < rows) {
          const n = next++;
          const actor = { userId: 1, role: 'admin' as const, name: 'bench' };
          await db.transaction((tx) => auditLog(tx).record({ actor, action: 'read_records', entity: 'patient', entityId: n, patientId: n }));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(`${database.kind}, ${writers} writer(s): ${rows} rows in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds)} rows/s`);
  }
} finally {
  await db.close();
  await database.remove();
}
