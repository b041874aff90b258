import { listEntry } from '../audit/audit.ts';
import { ownDoctorId, requireDesk, type Actor } from '../shared/actor.ts';
import { addDays } from '../shared/clock.ts';
import { pageRequest } from '../shared/pagination.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { canRecordNow } from './lifecycle.ts';
import type { AppointmentFilter, SchedulingDeps } from './ports.ts';
import {
  AGENDA_VIEWS,
  APPOINTMENT_STATUSES,
  agendaDates,
  appointmentJson,
  hasStarted,
  type AgendaJson,
  type AgendaVisitJson,
  type ListedAppointmentJson,
} from './scheduling.ts';
import { nowInClinic, patientOf } from './use-case-input.ts';

/** A page of `owner`'s appointments; `audited` names the staff member whose reading of it is recorded. */
async function appointmentPage(deps: SchedulingDeps, owner: AppointmentFilter, query: Record<string, unknown>, audited?: Actor) {
  const v = new Validator(asRecord(query));
  const status = v.oneOf('status', APPOINTMENT_STATUSES, { optional: true });
  v.done();
  const now = nowInClinic(deps);
  const request = pageRequest(query);
  const page = await deps.appointments.list({ ...owner, status }, request, now.date);
  if (audited) await deps.audit.record(listEntry(audited, 'appointment', request, { status, ...(owner.date ? { date: owner.date } : {}), ...(owner.patientId !== undefined && audited.role !== 'patient' ? { patient_id: owner.patientId } : {}) }));
  return { ...page, items: page.items.map((a): ListedAppointmentJson => ({ ...appointmentJson(a), has_started: hasStarted(a.date, a.startTime, now) })) };
}

/**
 * The doctor's own day (or its week) as the agenda shows it: every visit not cancelled, in time order, grouped
 * by date, each saying whether its record can be written now. Audited like the doctor's list.
 */
export async function doctorAgenda(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor): Promise<AgendaJson> {
  const doctorId = ownDoctorId(actor, 'Only doctors have an agenda');
  const now = nowInClinic(deps);
  const v = new Validator(asRecord(query));
  const date = v.date('date', { optional: true }) ?? now.date;
  const view = v.oneOf('view', AGENDA_VIEWS, { optional: true }) ?? 'day';
  v.done();
  const { from, to, dates, step } = agendaDates(date, view);
  const visits = await deps.appointments.agenda(doctorId, from, to);
  await deps.audit.record({ actor, action: 'list', entity: 'appointment', details: { view, from, to } });
  return {
    view,
    date,
    today: now.date,
    previous: addDays(date, -step),
    next: addDays(date, step),
    days: dates.map((day) => ({
      date: day,
      visits: visits
        .filter((a) => a.date === day)
        .map((a): AgendaVisitJson => ({ ...appointmentJson(a), has_started: hasStarted(a.date, a.startTime, now), can_record: canRecordNow(a, now) })),
    })),
  };
}

/** The patient's own appointments, upcoming first; `q` searches doctor, department and room. */
export const listMyAppointments = (deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) =>
  appointmentPage(deps, { patientId: patientOf(actor) }, query);

/**
 * The desk's appointments: a day's (default today) at the front desk, or with `patient_id` all of one patient's;
 * upcoming first, `q` searching names. Audited.
 */
export async function listDeskAppointments(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) {
  requireDesk(actor);
  const v = new Validator(asRecord(query));
  const patientId = v.id('patient_id', { optional: true });
  const day = v.date('date', { optional: true });
  v.done();
  const owner = patientId !== undefined ? { patientId, date: day } : { date: day ?? nowInClinic(deps).date };
  return appointmentPage(deps, owner, query, actor);
}

/** The doctor's own appointments, upcoming first; `q` searches the patient's name and email. Audited. */
export async function listDoctorAppointments(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) {
  return appointmentPage(deps, { doctorId: ownDoctorId(actor, 'Only doctors have a list of their own appointments') }, query, actor);
}
