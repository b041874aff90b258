/** The set-based generators' shared tools (dataset.ts, clinical-dataset.ts). */
import type { Queryable } from '../../src/db/db.ts';
import { onlyRow } from '../../src/db/rows.ts';

/** A stable pseudo-random non-negative integer from a row number and a salt. */
export const hash = (expr: string, salt: number) => `(hashint4((${expr})::int + ${salt}) & 2147483647)`;

/** Generation steps that report their rows and seconds: `step` runs one `insert … select`, `timed` any other work. */
export function generationSteps(db: Queryable, progress: (line: string) => void) {
  const step = async (label: string, sql: string, params: unknown[] = []) => {
    const started = performance.now();
    const rows = await db.query<{ n: number }>(
      `with inserted as (${sql} returning 1) select count(*)::int as n from inserted`,
      params,
    );
    const { n } = onlyRow(rows);
    progress(
      `  ${label.padEnd(16)} ${String(n).padStart(9)} rows  ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return n;
  };

  const timed = async (label: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    progress(`  ${label.padEnd(16)} ${''.padStart(9)}       ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  return { step, timed };
}
