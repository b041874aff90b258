import { requireDesk, type Actor } from '../shared/actor.ts';
import { addDays, clinicInstant, clinicToday } from '../shared/clock.ts';
import { csvRecord } from '../shared/csv.ts';
import type { BillingDeps } from './ports.ts';
import { takingsJson } from './takings.ts';
import { TakingsQuery, type TakingsJson } from './billing-shapes.ts';
import { readInput } from '../shared/read-fields.ts';

/** The front desk's end-of-day takings: the payments taken on `date` (default today, in the clinic's zone) per method. */
export async function takings(deps: BillingDeps, query: unknown, actor: Actor): Promise<TakingsJson> {
  requireDesk(actor);
  const date = readInput(TakingsQuery, query).date ?? clinicToday(deps.clock, deps.timeZone);
  const from = clinicInstant(date, '00:00', deps.timeZone);
  const to = clinicInstant(addDays(date, 1), '00:00', deps.timeZone);
  return takingsJson(date, deps.timeZone, await deps.payments.takenBetween(from, to));
}

const CSV_COLUMNS = ['date', 'method', 'payments', 'amount', 'amount_cents', 'currency'] as const;

/** The takings as CSV, one row per method and a total row, through the one CSV writer of the API and the command line. */
export async function takingsCsv(deps: BillingDeps, query: unknown, actor: Actor) {
  const report = await takings(deps, query, actor);
  const rows = [
    ...report.methods,
    { method: 'total', payments: report.payments, amount: report.total, amount_cents: report.total_cents },
  ];
  const csv =
    csvRecord(CSV_COLUMNS) +
    rows
      .map((row) => csvRecord([report.date, row.method, row.payments, row.amount, row.amount_cents, report.currency]))
      .join('');
  return { filename: `medora-takings-${report.date}.csv`, csv };
}
