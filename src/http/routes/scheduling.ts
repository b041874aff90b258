import type { App } from '../../app.ts';
import { created, listOf, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';
import { DESK } from './desk.ts';

/** Scheduling: doctors' weeks, slots, booking, the desk's appointments, cancel links and agendas. */
export function schedulingRoutes(app: App): Route[] {
  return [
    r('GET', '/api/admin/doctors/{id}/schedule', 'admin', async ({ params }) =>
      ok(await app.scheduling.getSchedule(params.id)),
    ),
    r('PUT', '/api/admin/doctors/{id}/schedule', 'admin', async ({ params, body, actor }) =>
      ok(await app.scheduling.replaceSchedule(params.id, body, actor)),
    ),
    r('GET', '/api/appointments/next-available', 'user', async ({ query, actor }) =>
      ok(await app.scheduling.nextAvailable(query, actor)),
    ),
    r('GET', '/api/appointments/available/{doctorId}', 'user', async ({ params, query, actor }) =>
      ok(await app.scheduling.availableSlots(params.doctorId, query, actor)),
    ),
    r('GET', '/api/appointments/month/{doctorId}', 'user', async ({ params, query, actor }) =>
      ok(await app.scheduling.availableMonth(params.doctorId, query, actor)),
    ),
    r('POST', '/api/appointments/book', 'patient', async ({ body, actor }) =>
      created(await app.scheduling.book(body, actor)),
    ),
    r('GET', '/api/appointments/day', DESK, async ({ query, actor }) => ok(await app.scheduling.deskDay(query, actor))),
    r('GET', '/api/appointments', DESK, async ({ query, actor }) =>
      listOf('appointments', await app.scheduling.listDeskAppointments(query, actor)),
    ),
    r('POST', '/api/appointments', DESK, async ({ body, actor }) =>
      created(await app.scheduling.bookForPatient(body, actor)),
    ),
    r('POST', '/api/appointments/{id}/reschedule', ['patient', ...DESK], async ({ params, body, actor }) =>
      ok(await app.scheduling.reschedule(params.id, body, actor)),
    ),
    r('POST', '/api/appointments/{id}/cancel', DESK, async ({ params, actor }) =>
      ok(await app.scheduling.cancelAppointment(params.id, actor)),
    ),
    r('POST', '/api/appointments/{id}/check-in', DESK, async ({ params, actor }) =>
      ok(await app.scheduling.checkIn(params.id, actor)),
    ),
    r('POST', '/api/appointments/{id}/no-show', DESK, async ({ params, actor }) =>
      ok(await app.scheduling.markNoShow(params.id, actor)),
    ),
    r('POST', '/api/appointments/{id}/undo-check-in', DESK, async ({ params, actor }) =>
      ok(await app.scheduling.undoCheckIn(params.id, actor)),
    ),
    r('POST', '/api/appointments/{id}/undo-no-show', DESK, async ({ params, actor }) =>
      ok(await app.scheduling.undoNoShow(params.id, actor)),
    ),
    r('POST', '/api/patient/appointments/{id}/cancel', 'patient', async ({ params, actor }) =>
      ok(await app.scheduling.cancelMyAppointment(params.id, actor)),
    ),
    r('POST', '/api/appointment-links/preview', 'public', async ({ body }) =>
      ok(await app.scheduling.previewCancelLink(body)),
    ),
    r('POST', '/api/appointment-links/cancel', 'public', async ({ body }) =>
      ok(await app.scheduling.cancelByLink(body)),
    ),
    r('POST', '/api/admin/appointments/{id}/cancel', 'admin', async ({ params, actor }) =>
      ok(await app.scheduling.cancelAppointment(params.id, actor)),
    ),
    r('GET', '/api/patient/appointments/{id}/calendar.ics', 'patient', async ({ params, actor }) => ({
      body: Buffer.from(await app.scheduling.myAppointmentCalendar(params.id, actor)),
      headers: {
        'content-type': 'text/calendar; charset=utf-8',
        'content-disposition': 'attachment; filename="appointment.ics"',
        'cache-control': 'private, no-store',
      },
    })),
    r('GET', '/api/patient/appointments', 'patient', async ({ query, actor }) =>
      listOf('appointments', await app.scheduling.listMyAppointments(query, actor)),
    ),
    r('GET', '/api/doctor/appointments', 'doctor', async ({ query, actor }) =>
      listOf('appointments', await app.scheduling.listDoctorAppointments(query, actor)),
    ),
    r('GET', '/api/doctor/agenda', 'doctor', async ({ query, actor }) =>
      ok(await app.scheduling.doctorAgenda(query, actor)),
    ),
  ];
}
