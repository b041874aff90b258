import { listEntry, recorded, refusal } from '../audit/audit.ts';
import { visitCalendar } from '../notifications/templates.ts';
import { ownDoctorId, requireDesk, type Actor } from '../shared/actor.ts';
import { addDays } from '../shared/clock.ts';
import { pageRequest } from '../shared/pagination.ts';
import { readInput } from '../shared/read-fields.ts';
import { pathId, type RawId } from '../shared/validate.ts';
import { canRecordNow, deskActions } from './lifecycle.ts';
import { visitOf } from './notices.ts';
import type { AppointmentFilter, SchedulingDeps } from './ports.ts';
import { agendaDates, hasStarted, type Appointment, type ClinicMoment } from './scheduling.ts';
import { timeOffJson } from './time-off.ts';
import { nowInClinic, patientOf } from './use-case-input.ts';
import { appointmentJson } from './appointment-answers.ts';
import {
  AgendaQuery,
  AppointmentListQuery,
  DeskAppointmentsQuery,
  DeskDayQuery,
  type AgendaJson,
  type AgendaVisitJson,
  type DeskAppointmentJson,
  type DeskDayJson,
  type ListedAppointmentJson,
} from './scheduling-shapes.ts';

const listed = (a: Appointment, now: ClinicMoment): ListedAppointmentJson => ({
  ...appointmentJson(a),
  has_started: hasStarted(a.date, a.startTime, now),
});

/** A page of `owner`'s appointments; `audited` names the staff member whose reading of it is recorded. */
async function appointmentPage<J>(
  deps: SchedulingDeps,
  owner: AppointmentFilter,
  query: Record<string, unknown>,
  toJson: (a: Appointment, now: ClinicMoment) => J,
  audited?: Actor,
) {
  const { status, when } = readInput(AppointmentListQuery, query);
  const now = nowInClinic(deps);
  const request = pageRequest(query);
  const page = await deps.appointments.list({ ...owner, status, when }, request, now.date);
  if (audited) {
    const { date, doctorId, patientId } = owner;
    await deps.audit.record(
      listEntry(audited, 'appointment', request, {
        status,
        ...(date ? { date } : {}),
        ...(doctorId !== undefined && audited.role !== 'doctor' ? { doctor_id: doctorId } : {}),
        ...(patientId !== undefined && audited.role !== 'patient' ? { patient_id: patientId } : {}),
      }),
    );
  }
  return { ...page, items: page.items.map((a) => toJson(a, now)) };
}

/**
 * The doctor's own day (or its week) as the agenda shows it: every visit not cancelled, in time order, grouped
 * by date, each saying whether its record can be written now, and the day's leave and closures. Audited like the
 * doctor's list.
 */
export async function doctorAgenda(
  deps: SchedulingDeps,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<AgendaJson> {
  const doctorId = ownDoctorId(actor, 'Only doctors have an agenda');
  const now = nowInClinic(deps);
  const request = readInput(AgendaQuery, query);
  const date = request.date ?? now.date;
  const view = request.view ?? 'day';
  const { from, to, dates, step } = agendaDates(date, view);
  const [visits, timeOff] = await Promise.all([
    deps.appointments.agenda(doctorId, from, to),
    deps.timeOff.covering(doctorId, from, to),
  ]);
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
        .map(
          (a): AgendaVisitJson => ({
            ...appointmentJson(a),
            has_started: hasStarted(a.date, a.startTime, now),
            can_record: canRecordNow(a, now),
          }),
        ),
      time_off: timeOff.filter((t) => t.startsOn <= day && day <= t.endsOn).map(timeOffJson),
    })),
  };
}

/** The patient's own appointments, upcoming first (`when` keeps only those to come or only past ones); `q` searches doctor, department and room. */
export const listMyAppointments = (deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) =>
  appointmentPage(deps, { patientId: patientOf(actor) }, query, listed);

/**
 * The desk's appointments: a day's (default today) at the front desk, optionally one doctor's, its cancelled
 * visits only when `status` asks for them; or with `patient_id` all of one patient's. Upcoming first, `q`
 * searching names, each visit with what the desk can do to it now. Audited.
 */
export async function listDeskAppointments(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) {
  requireDesk(actor);
  const { patient_id: patientId, doctor_id: doctorId, date: day } = readInput(DeskAppointmentsQuery, query);
  const owner: AppointmentFilter =
    patientId !== undefined
      ? { patientId, doctorId, date: day }
      : { doctorId, date: day ?? nowInClinic(deps).date, hideCancelled: true };
  const toJson = (a: Appointment, now: ClinicMoment): DeskAppointmentJson => ({
    ...listed(a, now),
    patient_birth_date: a.patientBirthDate,
    desk_actions: deskActions(a, now),
  });
  return appointmentPage(deps, owner, query, toJson, actor);
}

/** The desk's day at a glance: how many visits of `date` (default today) are in each status, and the days around it. */
export async function deskDay(
  deps: SchedulingDeps,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<DeskDayJson> {
  requireDesk(actor);
  const today = nowInClinic(deps).date;
  const request = readInput(DeskDayQuery, query);
  const date = request.date ?? today;
  const doctorId = request.doctor_id;
  const counts = await deps.appointments.dayCounts(date, doctorId);
  return { date, today, previous: addDays(date, -1), next: addDays(date, 1), doctor_id: doctorId ?? null, counts };
}

/** The doctor's own appointments, upcoming first; `q` searches the patient's name and email. Audited. */
export async function listDoctorAppointments(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) {
  return appointmentPage(
    deps,
    { doctorId: ownDoctorId(actor, 'Only doctors have a list of their own appointments') },
    query,
    listed,
    actor,
  );
}

/**
 * The patient's own appointment as a calendar file, with the same event as its invitation (a cancelled one as
 * cancelled); another patient's appointment is not found, and the attempt is recorded.
 */
export async function myAppointmentCalendar(deps: SchedulingDeps, rawId: RawId, actor: Actor): Promise<string> {
  const patientId = patientOf(actor);
  const id = pathId(rawId, 'Appointment');
  const appointment = await deps.appointments.find(id);
  if (appointment?.patient.id !== patientId) {
    throw await recorded(
      deps.audit,
      refusal('Appointment', actor, {
        entity: 'appointment',
        entityId: id,
        patientId: appointment?.patient.id,
        attempt: 'calendar',
      }),
    );
  }
  return visitCalendar(deps.clinic, visitOf(appointment), appointment.status === 'cancelled', deps.clock.now());
}
