/**
 * `node --import tsx scripts/bench/audit-chain.ts [--rows 3000] [--concurrency 1,8,16] [--rounds 3]`: audit rows
 * written per second through the app's own writer, each in its own transaction as an audited request writes it, one
 * at a time and from many connections at once, with the chain and without it, on two fresh migrated databases of
 * DATABASE_URL's server (else embedded). With the chain, a sealer seals meanwhile as `medora serve` does, and each run
 * reports how soon after its last write every row was sealed; without it, the row carries no transaction id and has
 * no index for the sealer to find it by, and nothing seals. Runs alternate between the two, so a machine's
 * changing load weighs on both alike.
 */
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { migrate } from '../../src/db/migrate.ts';
import { auditLog, auditTrail } from '../../src/db/audit.pg.ts';
import type { Db, Queryable } from '../../src/db/db.ts';
import { sealAuditContinuously } from '../../src/audit-sealer.ts';
import { SEAL_BATCH_ROWS } from '../../src/domain/audit/audit.ts';
import { createBenchDatabase, type BenchDatabase } from './database.ts';
import { benchMachine } from './report.ts';

const SEALING_WAIT_MS = 60_000;

const opts = new Command()
  .option('--rows <n>', 'rows written per run', '3000')
  .option('--concurrency <list>', 'writers at once, one run each', '1,8,16')
  .option('--rounds <n>', 'runs of each, with and without the chain', '3')
  .option('--output <file>', 'also write the figures there as JSON (bench/audit-chain-results.json)')
  .parse()
  .opts<{ rows: string; concurrency: string; rounds: string; output?: string }>();
const rows = Number(opts.rows);
const startedAt = new Date().toISOString();

const actor = { userId: 1, role: 'admin' as const, name: 'bench' };
const write = (tx: Queryable, n: number) =>
  auditLog(tx).record({ actor, action: 'read_records', entity: 'patient', entityId: n, patientId: n });

/** Rows per second of `writers` writing `rows` rows into `db`, each its own transaction. */
async function rate(db: Db, writers: number): Promise<{ perSecond: number; ms: number; ended: number }> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < rows) {
        const n = next++;
        await db.transaction((tx) => write(tx, n));
      }
    }),
  );
  const ended = performance.now();
  return { perSecond: Math.round(rows / ((ended - started) / 1000)), ms: ended - started, ended };
}

/** How long after `since` the last waiting row was sealed (bounded). */
async function sealedAfter(db: Db, since: number): Promise<number> {
  while ((await auditTrail(db).backlog()).rows > 0) {
    if (performance.now() - since > SEALING_WAIT_MS)
      throw new Error(`rows still unsealed ${SEALING_WAIT_MS} ms after the last write`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - since;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const databases: BenchDatabase[] = [];
const opened: Db[] = [];
const open = async () => {
  const database = await createBenchDatabase(process.env.DATABASE_URL);
  databases.push(database);
  const db = await database.open();
  opened.push(db);
  await migrate(db);
  return { kind: database.kind, db };
};
try {
  const chained = await open();
  const plain = await open();
  // Without the chain the row is the same, and nothing marks it for a sealer: no transaction id, no index to find it by.
  await plain.db.exec('drop index audit_log_tx_idx; alter table audit_log alter column tx drop default');
  const sealer = sealAuditContinuously({ sealTrail: () => auditTrail(chained.db).seal(SEAL_BATCH_ROWS) }, (line) =>
    console.error(line),
  );
  const results = new Map<number, { with: number[]; without: number[]; sealedMs: number[] }>();
  try {
    for (let round = 1; round <= Number(opts.rounds); round++) {
      for (const writers of opts.concurrency.split(',').map(Number)) {
        // Which goes first alternates by round: a load that rises or falls within a pair favours neither.
        const order = round % 2 ? [chained, plain] : [plain, chained];
        const runs = new Map<Db, { perSecond: number; sealed?: number }>();
        for (const target of order) {
          const run = await rate(target.db, writers);
          runs.set(target.db, {
            perSecond: run.perSecond,
            sealed: target === chained ? await sealedAfter(chained.db, run.ended) : undefined,
          });
        }
        const withChain = runs.get(chained.db);
        const without = runs.get(plain.db);
        if (!withChain || !without) throw new Error('a run is missing');
        const seen = results.get(writers) ?? { with: [], without: [], sealedMs: [] };
        seen.with.push(withChain.perSecond);
        seen.without.push(without.perSecond);
        seen.sealedMs.push(Math.round(withChain.sealed ?? 0));
        results.set(writers, seen);
        console.log(
          `${chained.kind}, round ${round}, ${writers} writer(s), ${rows} rows: with the chain ${withChain.perSecond} rows/s ` +
            `(all sealed ${Math.round(withChain.sealed ?? 0)} ms after the last write), without ${without.perSecond} rows/s: ` +
            `${(withChain.perSecond / without.perSecond).toFixed(2)}×`,
        );
      }
    }
  } finally {
    await sealer.stop();
  }
  const medians = [...results].map(([writers, seen]) => {
    const [withChain, without] = [median(seen.with), median(seen.without)];
    console.log(
      `median, ${writers} writer(s): with the chain ${withChain} rows/s, without ${without} rows/s: ${(withChain / without).toFixed(2)}×`,
    );
    return {
      writers,
      rows_per_second_with_chain: withChain,
      rows_per_second_without: without,
      ratio: Number((withChain / without).toFixed(2)),
      rounds: seen,
    };
  });
  const chain = await auditTrail(chained.db).verify();
  console.log(`chain: ${JSON.stringify(chain)}`);
  if (opts.output) {
    const figures = {
      started_at: startedAt,
      database: chained.kind,
      machine: benchMachine(),
      rows_per_run: rows,
      medians,
      chain,
    };
    await writeFile(opts.output, `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`figures written to ${opts.output}`);
  }
} finally {
  for (const db of opened) await db.close();
  for (const database of databases) await database.remove();
}
