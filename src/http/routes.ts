import type { App } from '../app.ts';
import { DESK_ROLES } from '../domain/shared/actor.ts';
import { notFound } from '../domain/shared/errors.ts';
import { pathId } from '../domain/shared/validate.ts';
import { WAITLIST_STAFF } from '../domain/scheduling/waitlist.ts';
import { RETRY_UNAVAILABLE_AFTER_S } from './errors.ts';
import { created, csvFile, listOf, noContent, ok } from './answers.ts';
import { cookieSignIn, route as r, type Route } from './router.ts';
import { sessionAnswer, signedOutAnswer, type Holder } from './session-answers.ts';
import { calendarFeedLink, resetPasswordLink } from '../links.ts';
import { linkOrigin } from './link-origin.ts';

/** The front desk's routes: reception's, and admins', who may do all the desk does. */
const DESK = [...DESK_ROLES];

/** The whole API, one route a line; each handler parses, calls one use case and answers. */
export function apiRoutes(app: App, { publicUrl }: { publicUrl?: string } = {}): Route[] {
  const readiness = async () =>
    (await app.health.ready())
      ? ok({ status: 'ok', database: 'ok' })
      : { status: 503, body: { status: 'degraded', database: 'unavailable' }, headers: { 'retry-after': String(RETRY_UNAVAILABLE_AFTER_S) } };
  const browser = (https: boolean): Holder => ({ kind: 'cookie', https, now: app.clock.now() });
  const origin = (https: boolean, headers: { host?: string }) => linkOrigin(publicUrl, https, headers.host);
  const holder = (session: 'cookie' | 'bearer' | undefined, https: boolean): Holder => (session === 'cookie' ? browser(https) : { kind: 'bearer' });
  return [
    // --- platform
    r('GET', '/api/health/live', 'public', async () => ok({ status: 'ok' })),
    r('GET', '/api/health/ready', 'public', readiness),
    r('GET', '/api/health', 'public', readiness),
    r('GET', '/api/files/{id}', 'public', async ({ params }) => {
      const file = await app.files.find(pathId(params.id, 'File'));
      if (!file) throw notFound('File');
      return { body: file.bytes, headers: { 'content-type': file.contentType, 'cache-control': 'public, max-age=86400' } };
    }),

    // --- accounts
    // The same 202 for an address new to the clinic and one with an account (whose owner is told instead).
    r('POST', '/api/patients/register', 'public', async ({ body, ip, requestId }) => ({ status: 202, body: await app.auth.register(body, { ip, requestId }) })),
    // API and CLI clients get a bearer token; the browser signs in through /api/session and gets a cookie.
    r('POST', '/api/login', 'public', async ({ body, ip, requestId }) => ok(await app.auth.login(body, { ip, requestId }))),
    r('POST', '/api/login/mfa', 'public', async ({ body, ip, requestId }) => ok(await app.mfa.completeSignIn(body, { ip, requestId }))),
    r('POST', '/api/login/mfa/setup', 'public', async ({ body }) => ok(await app.mfa.beginMfaAtSignIn(body))),
    cookieSignIn(r('POST', '/api/session', 'public', async ({ body, ip, requestId, https }) => sessionAnswer(await app.auth.login(body, { ip, requestId }), browser(https)))),
    cookieSignIn(r('POST', '/api/session/mfa', 'public', async ({ body, ip, requestId, https }) => sessionAnswer(await app.mfa.completeSignIn(body, { ip, requestId }), browser(https)))),
    r('POST', '/api/logout', 'user', async ({ token, actor, session, https }) => {
      await app.auth.logout(token ?? '', actor);
      return signedOutAnswer('You have been signed out', holder(session, https));
    }),
    r('POST', '/api/logout/everywhere', 'user', async ({ actor, session, https }) => {
      await app.auth.logoutEverywhere(actor);
      return signedOutAnswer('You have been signed out on every device', holder(session, https));
    }),
    r('GET', '/api/user', 'user', async ({ actor }) => ok(await app.auth.currentUser(actor))),
    r('PUT', '/api/user/password', 'user', async ({ body, token, actor, session, https, ip, requestId }) =>
      sessionAnswer(await app.passwords.changePassword(body, token ?? '', actor, { ip, requestId }), holder(session, https)),
    ),
    r('POST', '/api/password-reset', 'public', async ({ body, ip, requestId }) => ok(await app.passwords.resetPassword(body, { ip, requestId }))),
    r('POST', '/api/password-reset-requests', 'public', async ({ body, ip, requestId }) => ({ status: 202, body: await app.passwords.requestPasswordReset(body, { ip, requestId }) })),
    r('POST', '/api/email-verification/preview', 'public', async ({ body }) => ok(await app.auth.previewVerification(body))),
    r('POST', '/api/email-verification', 'public', async ({ body, ip, requestId }) => ok(await app.auth.verifyEmail(body, { ip, requestId }))),
    r('POST', '/api/user/email-verification', 'user', async ({ actor }) => ok(await app.auth.resendVerification(actor))),
    r('POST', '/api/admin/password-resets', 'admin', async ({ body, actor, https, headers }) => {
      const link = await app.passwords.issueResetLink(body, actor);
      return created({ ...link, url: resetPasswordLink(origin(https, headers), link.token) });
    }),
    r('GET', '/api/user/mfa', 'user', async ({ actor }) => ok(await app.mfa.mfaStatus(actor))),
    r('POST', '/api/user/mfa', 'user', async ({ actor }) => ok(await app.mfa.beginMfa(actor))),
    r('POST', '/api/user/mfa/confirm', 'user', async ({ body, actor }) => ok(await app.mfa.confirmMfa(body, actor))),
    r('POST', '/api/user/mfa/disable', 'user', async ({ body, actor }) => {
      await app.mfa.disableMfa(body, actor);
      return ok({ message: 'Two-step sign-in is off' });
    }),
    r('POST', '/api/user/mfa/recovery-codes', 'user', async ({ body, actor }) => ok(await app.mfa.renewRecoveryCodes(body, actor))),
    r('POST', '/api/admin/mfa-resets', 'admin', async ({ body, actor }) => ok(await app.mfa.resetUserMfa(body, actor))),

    // --- catalogue, patients and the admin dashboard
    r('GET', '/api/admin/statistics', 'admin', async () => ok(await app.reports.statistics())),
    r('GET', '/api/admin/top-doctor', 'admin', async () => ok(await app.reports.topDoctor())),
    r('GET', '/api/admin/appointments-per-day', 'admin', async ({ query }) => ok(await app.reports.appointmentsPerDay(query))),
    r('GET', '/api/admin/appointments', 'admin', async ({ query, actor }) => listOf('appointments', await app.reports.listAllAppointments(query, actor))),
    r('GET', '/api/admin/appointments.csv', 'admin', async ({ query, actor }) => csvFile(await app.reports.exportAppointmentsCsv(query, actor))),
    r('GET', '/api/admin/billings', 'admin', async ({ query, actor }) => listOf('billings', await app.reports.listAllBillings(query, actor))),
    r('GET', '/api/admin/billings.csv', 'admin', async ({ query, actor }) => csvFile(await app.reports.exportBillingsCsv(query, actor))),
    r('GET', '/api/admin/patients', 'admin', async ({ query, actor }) => listOf('patients', await app.patients.listPatients(query, actor))),
    r('GET', '/api/patients', DESK, async ({ query, actor }) => listOf('patients', await app.patients.listPatients(query, actor))),
    r('POST', '/api/patients', DESK, async ({ body, actor }) => created(await app.staff.registerWalkIn(body, actor))),
    r('GET', '/api/patients/{id}', DESK, async ({ params, actor }) => ok(await app.patients.deskPatient(params.id, actor))),
    r('PUT', '/api/patients/{id}', DESK, async ({ params, body, actor }) => ok(await app.patients.updatePatient(params.id, body, actor))),
    r('GET', '/api/patients/{id}/billings', DESK, async ({ params, query, actor }) => listOf('billings', await app.billing.listPatientBills(params.id, query, actor))),
    r('GET', '/api/admin/receptionists', 'admin', async ({ query, actor }) => listOf('receptionists', await app.staff.listReceptionists(query, actor))),
    r('POST', '/api/admin/receptionists', 'admin', async ({ body, actor }) => created(await app.staff.createReceptionist(body, actor))),
    r('DELETE', '/api/admin/receptionists/{id}', 'admin', async ({ params, actor }) => ok(await app.staff.deactivateReceptionist(params.id, actor))),
    r('GET', '/api/admin/patients/{id}', 'admin', async ({ params, actor }) => ok(await app.patients.showPatient(params.id, actor))),
    r('PUT', '/api/admin/patients/{id}', 'admin', async ({ params, body, actor }) => ok(await app.patients.updatePatient(params.id, body, actor))),
    r('GET', '/api/patient/profile', 'patient', async ({ actor }) => ok(await app.patients.myProfile(actor))),
    r('GET', '/api/patient/records', 'patient', async ({ actor }) => ok(await app.patients.myRecords(actor))),
    r('PUT', '/api/patient/profile', 'patient', async ({ body, actor }) => ok(await app.patients.updateMyProfile(body, actor))),
    r('GET', '/api/admin/departments', 'admin', async ({ query }) => listOf('departments', await app.catalogue.listDepartments(query))),
    r('POST', '/api/admin/departments', 'admin', async ({ body, actor }) => created(await app.catalogue.createDepartment(body, actor))),
    r('GET', '/api/admin/departments/{id}', 'admin', async ({ params }) => ok(await app.catalogue.getDepartment(params.id))),
    r('PUT', '/api/admin/departments/{id}', 'admin', async ({ params, body, actor }) => ok(await app.catalogue.updateDepartment(params.id, body, actor))),
    r('DELETE', '/api/admin/departments/{id}', 'admin', async ({ params, actor }) => {
      await app.catalogue.deleteDepartment(params.id, actor);
      return noContent();
    }),
    r('GET', '/api/admin/specializations', 'admin', async ({ query }) => listOf('specializations', await app.catalogue.listSpecializations(query))),
    r('POST', '/api/admin/specializations', 'admin', async ({ body, actor }) => created(await app.catalogue.createSpecialization(body, actor))),
    r('PUT', '/api/admin/specializations/{id}', 'admin', async ({ params, body, actor }) => ok(await app.catalogue.updateSpecialization(params.id, body, actor))),
    r('DELETE', '/api/admin/specializations/{id}', 'admin', async ({ params, actor }) => {
      await app.catalogue.deleteSpecialization(params.id, actor);
      return noContent();
    }),
    r('GET', '/api/admin/diseases', 'admin', async ({ query }) => listOf('diseases', await app.catalogue.listDiseases(query))),
    r('GET', '/api/diseases', ['doctor', 'admin'], async ({ query }) => listOf('diseases', await app.catalogue.listDiseases(query))),
    r('POST', '/api/admin/diseases', 'admin', async ({ body, actor }) => created(await app.catalogue.createDisease(body, actor))),
    r('PUT', '/api/admin/diseases/{id}', 'admin', async ({ params, body, actor }) => ok(await app.catalogue.updateDisease(params.id, body, actor))),
    r('DELETE', '/api/admin/diseases/{id}', 'admin', async ({ params, actor }) => {
      await app.catalogue.deleteDisease(params.id, actor);
      return noContent();
    }),
    r('GET', '/api/admin/rooms', 'admin', async ({ query }) => listOf('rooms', await app.catalogue.listRooms(query))),
    r('POST', '/api/admin/rooms', 'admin', async ({ body, actor }) => created(await app.catalogue.createRoom(body, actor))),
    r('GET', '/api/admin/rooms/{id}', 'admin', async ({ params }) => ok(await app.catalogue.getRoom(params.id))),
    r('PUT', '/api/admin/rooms/{id}', 'admin', async ({ params, body, actor }) => ok(await app.catalogue.updateRoom(params.id, body, actor))),
    r('DELETE', '/api/admin/rooms/{id}', 'admin', async ({ params, actor }) => {
      await app.catalogue.deleteRoom(params.id, actor);
      return noContent();
    }),
    r('GET', '/api/admin/doctors', 'admin', async ({ query }) => listOf('doctors', await app.doctors.listDoctors(query))),
    r('GET', '/api/doctors', 'user', async ({ query }) => listOf('doctors', await app.doctors.listDoctors(query))),
    r('GET', '/api/patient/doctors', 'patient', async ({ query }) => listOf('doctors', await app.doctors.listDoctors(query))),
    r('POST', '/api/admin/doctors', 'admin', async ({ body, actor }) => created(await app.doctors.createDoctor(body, actor))),
    r('GET', '/api/admin/doctors/{id}', 'admin', async ({ params }) => ok(await app.doctors.getDoctor(params.id))),
    r('GET', '/api/doctors/{id}', 'user', async ({ params }) => ok(await app.doctors.getDoctor(params.id))),
    r('PUT', '/api/admin/doctors/{id}', 'admin', async ({ params, body, actor }) => ok(await app.doctors.updateDoctor(params.id, body, actor))),
    r('DELETE', '/api/admin/doctors/{id}', 'admin', async ({ params, actor }) => ok(await app.doctors.deleteDoctor(params.id, actor))),

    // --- scheduling and booking
    r('GET', '/api/admin/doctors/{id}/schedule', 'admin', async ({ params }) => ok(await app.scheduling.getSchedule(params.id))),
    r('PUT', '/api/admin/doctors/{id}/schedule', 'admin', async ({ params, body, actor }) => ok(await app.scheduling.replaceSchedule(params.id, body, actor))),
    r('GET', '/api/appointments/next-available', 'user', async ({ query, actor }) => ok(await app.scheduling.nextAvailable(query, actor))),
    r('GET', '/api/appointments/available/{doctorId}', 'user', async ({ params, query, actor }) => ok(await app.scheduling.availableSlots(params.doctorId, query, actor))),
    r('POST', '/api/appointments/book', 'patient', async ({ body, actor }) => created(await app.scheduling.book(body, actor))),
    r('GET', '/api/appointments', DESK, async ({ query, actor }) => listOf('appointments', await app.scheduling.listDeskAppointments(query, actor))),
    r('POST', '/api/appointments', DESK, async ({ body, actor }) => created(await app.scheduling.bookForPatient(body, actor))),
    r('POST', '/api/appointments/{id}/reschedule', ['patient', ...DESK], async ({ params, body, actor }) => ok(await app.scheduling.reschedule(params.id, body, actor))),
    r('POST', '/api/appointments/{id}/cancel', DESK, async ({ params, actor }) => ok(await app.scheduling.cancelAppointment(params.id, actor))),
    r('POST', '/api/appointments/{id}/check-in', DESK, async ({ params, actor }) => ok(await app.scheduling.checkIn(params.id, actor))),
    r('POST', '/api/appointments/{id}/no-show', DESK, async ({ params, actor }) => ok(await app.scheduling.markNoShow(params.id, actor))),
    r('POST', '/api/patient/appointments/{id}/cancel', 'patient', async ({ params, actor }) => ok(await app.scheduling.cancelMyAppointment(params.id, actor))),
    r('POST', '/api/appointment-links/preview', 'public', async ({ body }) => ok(await app.scheduling.previewCancelLink(body))),
    r('POST', '/api/appointment-links/cancel', 'public', async ({ body }) => ok(await app.scheduling.cancelByLink(body))),
    r('POST', '/api/admin/appointments/{id}/cancel', 'admin', async ({ params, actor }) => ok(await app.scheduling.cancelAppointment(params.id, actor))),
    r('GET', '/api/patient/waitlist', 'patient', async ({ query, actor }) => listOf('entries', await app.waitlist.myWaitlist(query, actor))),
    r('POST', '/api/patient/waitlist', 'patient', async ({ body, actor }) => created(await app.waitlist.joinWaitlist(body, actor))),
    r('DELETE', '/api/patient/waitlist/{id}', 'patient', async ({ params, actor }) => {
      await app.waitlist.leaveWaitlist(params.id, actor);
      return noContent();
    }),
    r('POST', '/api/waitlist', WAITLIST_STAFF, async ({ body, actor }) => created(await app.waitlist.addToWaitlist(body, actor))),
    r('POST', '/api/waitlist-offers/preview', 'public', async ({ body }) => ok(await app.waitlist.previewOffer(body))),
    r('POST', '/api/waitlist-offers/accept', 'public', async ({ body }) => ok(await app.waitlist.acceptOffer(body))),
    r('POST', '/api/waitlist-offers/decline', 'public', async ({ body }) => ok(await app.waitlist.declineOffer(body))),
    r('GET', '/api/patient/appointments', 'patient', async ({ query, actor }) => listOf('appointments', await app.scheduling.listMyAppointments(query, actor))),
    r('GET', '/api/doctor/appointments', 'doctor', async ({ query, actor }) => listOf('appointments', await app.scheduling.listDoctorAppointments(query, actor))),
    r('GET', '/api/doctor/agenda', 'doctor', async ({ query, actor }) => ok(await app.scheduling.doctorAgenda(query, actor))),

    // --- records, billing and audit
    r('POST', '/api/doctor/appointments/{id}/medical-record', 'doctor', async ({ params, body, actor }) =>
      created(await app.records.recordVisit({ appointmentId: params.id, body }, actor)),
    ),
    r('GET', '/api/doctor/patients', 'doctor', async ({ query, actor }) => listOf('patients', await app.records.listMyPatients(query, actor))),
    r('GET', '/api/doctor/patients/{id}', 'doctor', async ({ params, actor }) => ok(await app.records.showMyPatient(params.id, actor))),
    r('GET', '/api/patient/billings', 'patient', async ({ query, actor }) => listOf('billings', await app.billing.listMyBills(query, actor))),
    r('GET', '/api/patient/balance', 'patient', async ({ actor }) => ok(await app.billing.myBalance(actor))),
    r('POST', '/api/patient/billings/{id}/pay', 'patient', async ({ params, headers, body, actor }) => {
      const idempotencyKey = headers['idempotency-key'] as string | undefined; // node joins a repeated header into one string
      return ok(await app.billing.payBill({ billingId: params.id, idempotencyKey, body }, actor));
    }),
    r('POST', '/api/billings/{id}/payments', DESK, async ({ params, headers, body, actor }) => {
      const idempotencyKey = headers['idempotency-key'] as string | undefined;
      return ok(await app.billing.takePayment({ billingId: params.id, idempotencyKey, body }, actor));
    }),
    r('GET', '/api/billings/{id}/receipt', ['patient', ...DESK], async ({ params, actor }) => ok(await app.billing.billReceipt(params.id, actor))),
    r('GET', '/api/user/calendar-feed', ['doctor', 'patient'], async ({ actor }) => ok(await app.calendarFeeds.calendarFeedStatus(actor))),
    r('POST', '/api/user/calendar-feed', ['doctor', 'patient'], async ({ actor, https, headers }) => {
      const feed = await app.calendarFeeds.makeCalendarFeed(actor);
      return created({ url: calendarFeedLink(origin(https, headers), feed.token), created_at: feed.created_at });
    }),
    r('DELETE', '/api/user/calendar-feed', ['doctor', 'patient'], async ({ actor }) => {
      await app.calendarFeeds.turnOffCalendarFeed(actor);
      return noContent();
    }),
    r('GET', '/api/calendar/{token}.ics', 'public', async ({ params, requestId }) => ({
      body: Buffer.from(await app.calendarFeeds.calendarFeed(params.token, requestId)),
      headers: { 'content-type': 'text/calendar; charset=utf-8', 'cache-control': 'private, no-cache' },
    })),
    r('GET', '/api/admin/messages', 'admin', async ({ query, actor }) => listOf('messages', await app.notifications.listMessages(query, actor))),
    r('GET', '/api/admin/audit', 'admin', async ({ query, actor }) => listOf('entries', await app.audit.listAuditEntries(query, actor))),
    r('GET', '/api/admin/audit.csv', 'admin', async ({ query, actor }) => csvFile(await app.audit.exportAuditCsv(query, actor))),
  ];
}
