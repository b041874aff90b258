import { clinicToday, type Clock } from '../shared/clock.ts';
import { Validator, asRecord } from '../shared/validate.ts';

export const BILLING_GROUPS = ['department', 'doctor', 'day'] as const;
export type BillingGroup = (typeof BILLING_GROUPS)[number];

/** What was billed in a period, with what is still unpaid aged by the bill's date (0–30, 31–60, 61–90, over 90 days). */
export interface BillingFigures {
  bills: number;
  billed_cents: number;
  paid_cents: number;
  unpaid_cents: number;
  unpaid_0_30_cents: number;
  unpaid_31_60_cents: number;
  unpaid_61_90_cents: number;
  unpaid_over_90_cents: number;
}

/** One group's figures: `label` is the department or doctor name or the date; null for bills without one. */
export interface BillingGroupFigures extends BillingFigures {
  label: string | null;
}

export interface BillingReportQueries {
  /** Bills dated `from`..`to` summed per group, then for all of them; unpaid amounts aged on `asOf`. One statement. */
  billingFigures(
    period: { from: string; to: string; asOf: string },
    by: BillingGroup | undefined,
  ): Promise<{
    groups: BillingGroupFigures[];
    total: BillingFigures;
  }>;
}

export interface BillingReportDeps {
  billing: BillingReportQueries;
  clock: Clock;
  timeZone: string;
}

export interface BillingReport {
  from: string;
  to: string;
  /** The clinic's today, from which unpaid bills are aged. */
  as_of: string;
  by: BillingGroup | null;
  rows: (Partial<Record<BillingGroup, string | null>> & BillingFigures)[];
  total: BillingFigures;
}

/** The first of the month that `date` is in. */
const monthStart = (date: string) => `${date.slice(0, 8)}01`;

/**
 * Billing for a period (default: this month so far), optionally per department, doctor or day.
 * Without `by` the report has one row: the whole period.
 */
export async function billingReport(deps: BillingReportDeps, query: Record<string, unknown>): Promise<BillingReport> {
  const today = clinicToday(deps.clock, deps.timeZone);
  const v = new Validator(asRecord(query));
  const from = v.date('from', { optional: true }) ?? monthStart(today);
  const to = v.date('to', { optional: true }) ?? today;
  const by = v.oneOf('by', BILLING_GROUPS, { optional: true });
  if (from > to) v.fail('to', 'must not be before from');
  v.done();

  const { groups, total } = await deps.billing.billingFigures({ from, to, asOf: today }, by);
  const rows = by ? groups.map(({ label, ...figures }) => ({ [by]: label, ...figures })) : [total];
  return { from, to, as_of: today, by: by ?? null, rows, total };
}
