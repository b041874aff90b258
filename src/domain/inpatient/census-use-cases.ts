import { requireAdmin, type Actor } from '../shared/actor.ts';
import { addDays, clinicInstant, clinicToday } from '../shared/clock.ts';
import { csvRecord } from '../shared/csv.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { countCensus } from './census.ts';
import { CensusQuery, type Census } from './inpatient-shapes.ts';
import type { InpatientDeps } from './ports.ts';

/** A census covers at most a year of days, so one request cannot hold the server for long. */
export const MAX_CENSUS_DAYS = 366;

/**
 * The midnight census per ward and day from `from` to `to` (default: this month so far), with admissions,
 * discharges, transfers and occupancy, and per ward the patient nights and the average length of stay.
 */
export async function census(deps: InpatientDeps, query: unknown, actor: Actor): Promise<Census> {
  requireAdmin(actor);
  const today = clinicToday(deps.clock, deps.timeZone);
  const v = new Validator(asRecord(query));
  const request = readFields(v, CensusQuery);
  const from = request.from ?? `${today.slice(0, 8)}01`;
  const to = request.to ?? today;
  const departmentId = request.department_id;
  if (!v.failed('from') && !v.failed('to')) {
    if (to < from) v.fail('to', 'must not be before from');
    else if (addDays(from, MAX_CENSUS_DAYS) <= to) v.fail('to', `must be within ${MAX_CENSUS_DAYS} days of from`);
  }
  v.done();
  // From the midnight that ends the day before `from` (stays that began before it) to the one that ends `to`.
  const start = clinicInstant(from, '00:00', deps.timeZone);
  const end = clinicInstant(addDays(to, 1), '00:00', deps.timeZone);
  const [segments, beds] = await Promise.all([
    deps.census.segments(start, end, departmentId),
    deps.census.beds(departmentId),
  ]);
  return countCensus({ from, to, timeZone: deps.timeZone, now: deps.clock.now(), segments, beds });
}

const CSV_COLUMNS = [
  'date',
  'department_id',
  'department',
  'beds',
  'in_bed_at_midnight',
  'admissions',
  'discharges',
  'transfers',
  'occupancy_percent',
] as const;

/** The census as CSV, one row per ward and day, through the one CSV writer of the API and the command line. */
export async function censusCsv(deps: InpatientDeps, query: unknown, actor: Actor) {
  const result = await census(deps, query, actor);
  const csv =
    csvRecord(CSV_COLUMNS) + result.days.map((day) => csvRecord(CSV_COLUMNS.map((column) => day[column]))).join('');
  return { filename: `medora-census-${result.from}-to-${result.to}.csv`, csv };
}
