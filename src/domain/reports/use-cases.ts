import { listEntry } from '../audit/audit.ts';
import { billingJson } from '../billing/billing.ts';
import type { Actor } from '../shared/actor.ts';
import { addDays, clinicToday } from '../shared/clock.ts';
import { pageRequest } from '../shared/pagination.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { appointmentJson } from '../scheduling/scheduling.ts';
import type { ReportsDeps } from './ports.ts';
import { MAX_CHART_DAYS, statisticsOf, topDoctorJson, zeroFilledDays, type DayCount } from './statistics.ts';

export const statistics = async (deps: ReportsDeps) => statisticsOf(await deps.dashboard.counts());

export const topDoctor = async (deps: ReportsDeps) => topDoctorJson(await deps.dashboard.topDoctor());

export interface AppointmentsPerDayJson {
  days: DayCount[];
}

/** Booked appointments per clinic date over the last `days` days (default 30) up to today, zero-filled. */
export async function appointmentsPerDay(deps: ReportsDeps, query: Record<string, unknown>): Promise<AppointmentsPerDayJson> {
  const v = new Validator(asRecord(query));
  const days = v.id('days', { optional: true }) ?? 30;
  if (days > MAX_CHART_DAYS) v.fail('days', `must be at most ${MAX_CHART_DAYS}`);
  v.done();
  const today = clinicToday(deps.clock, deps.timeZone);
  const first = addDays(today, 1 - days);
  return { days: zeroFilledDays(first, days, await deps.dashboard.appointmentsByDate(first, today)) };
}

/** Every appointment, for an admin; every page read is audited. */
export async function listAllAppointments(deps: ReportsDeps, query: Record<string, unknown>, actor: Actor) {
  const request = pageRequest(query);
  const page = await deps.dashboard.appointments(request);
  await deps.audit.record(listEntry(actor, 'appointment', request));
  return { ...page, items: page.items.map(appointmentJson) };
}

/** Every bill, for an admin; every page read is audited. */
export async function listAllBillings(deps: ReportsDeps, query: Record<string, unknown>, actor: Actor) {
  const request = pageRequest(query);
  const page = await deps.dashboard.billings(request);
  await deps.audit.record(listEntry(actor, 'billing', request));
  return { ...page, items: page.items.map(billingJson) };
}
