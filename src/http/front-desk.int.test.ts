import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { cliActor } from '../domain/shared/actor.ts';
import type { Clock } from '../domain/shared/clock.ts';
import { bearerTokens } from '../security.ts';
import {
  PASSWORD,
  signIn,
  signUpAdmin,
  signUpPatient,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { at, first, only } from '../testing/assert.ts';
import { testDatabases } from '../testing/test-db.ts';

const NOW = '2026-06-10T08:10:00Z'; // Wednesday 10:10 in the clinic's Europe/Berlin
const TODAY = '2026-06-10';
const THURSDAY = '2026-06-11';
const FRIDAY = '2026-06-12';
const ADMIN = cliActor('front-desk-test');

/** A clock a test can move on, to see a visit start. */
function movableClock(iso: string): Clock & { set(iso: string): void } {
  let now = new Date(iso);
  return {
    now: () => new Date(now),
    set: (next) => {
      now = new Date(next);
    },
  };
}

interface Slot {
  schedule_id: number;
  start_time: string;
  status: string;
}

for (const target of testDatabases('one')) {
  describe(`the front desk over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let clock: ReturnType<typeof movableClock>;
    let admin: { token: string };
    let desk: { token: string; id: number };
    let count = 0;

    before(async () => {
      clock = movableClock(NOW);
      server = await startTestServer(target, { clock });
      admin = await signUpAdmin(server);
      const email = uniqueEmail('reception');
      const made = await server.api('POST', '/api/admin/receptionists', {
        token: admin.token,
        body: { name: 'Rita Reception', email, password: PASSWORD },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      desk = { ...(await signIn(server, email)), id: made.body.id };
    });
    after(() => server.close());

    const api: TestServer['api'] = (method, path, opts) => server.api(method, path, opts);
    const department = async () => {
      const made = await server.app.catalogue.createDepartment({ name: `Desk department ${++count}` }, ADMIN);
      return made.id;
    };
    const doctor = async (name = 'Dr. Desk', departmentId?: number) => {
      const email = uniqueEmail('doctor');
      const made = await server.app.doctors.createDoctor(
        { name, email, password: PASSWORD, department_id: departmentId },
        ADMIN,
      );
      return { id: made.id, name, signIn: () => signIn(server, email) };
    };
    const slotAt = async (doctorId: number, date: string, time: string) => {
      const res = await api('GET', `/api/appointments/available/${doctorId}?date=${date}`, { token: desk.token });
      return only(
        res.body.available_appointments.filter((s: Slot) => s.start_time === time),
        `slot ${time}`,
      ) as Slot;
    };
    const walkIn = async (overrides: Record<string, unknown> = {}) => {
      const res = await api('POST', '/api/patients', {
        token: desk.token,
        body: {
          name: `Walter Walk-in ${++count}`,
          phone: '+1 555 0199',
          birthdate: '1970-01-02',
          gender: 'male',
          ...overrides,
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.patient as { id: number; name: string; email: string | null };
    };
    const bookFor = async (patientId: number, doctorId: number, date: string, time: string, token = desk.token) => {
      const slot = await slotAt(doctorId, date, time);
      return api('POST', '/api/appointments', {
        token,
        body: { patient_id: patientId, doctor_id: doctorId, schedule_id: slot.schedule_id, date },
      });
    };
    /** An appointment written straight into the table: one that has already begun cannot be booked. */
    const pastAppointment = async (
      patientId: number,
      doctorId: number,
      start: string,
      status = 'scheduled',
      date = TODAY,
    ) => {
      const { id } = only(
        await server.db.query<{ id: number }>(
          `insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time, status)
           select $1, $2, min(s.id), $3, $4::time, $4::time + interval '30 minutes', $5 from schedules s where s.doctor_id = $2
           returning id`,
          [patientId, doctorId, date, start, status],
        ),
      );
      return id;
    };
    const statusOf = async (id: number) =>
      only(await server.db.query<{ status: string }>('select status from appointments where id = $1', [id])).status;
    const auditOf = async (action: string, id: number) =>
      server.db.query<{ actor_role: string; details: Record<string, unknown> }>(
        `select actor_role, details from audit_log where action = $1 and entity = 'appointment' and entity_id = $2`,
        [action, String(id)],
      );

    describe('reception accounts', () => {
      it('are created, listed and deactivated by admins only, and a deactivated receptionist is signed out', async () => {
        const email = uniqueEmail('reception');
        const made = await api('POST', '/api/admin/receptionists', {
          token: admin.token,
          body: { name: 'Rob Reception', email, password: PASSWORD },
        });
        assert.equal(made.status, 201);
        assert.deepEqual(
          { ...made.body, created_at: undefined },
          { id: made.body.id, name: 'Rob Reception', email, role: 'reception', active: true, created_at: undefined },
        );

        const twice = await api('POST', '/api/admin/receptionists', {
          token: admin.token,
          body: { name: 'Again', email, password: PASSWORD },
        });
        assert.equal(twice.status, 409);
        assert.equal(twice.body.code, 'email_taken');
        const bad = await api('POST', '/api/admin/receptionists', {
          token: admin.token,
          body: { name: '', email: 'nope', password: 'short' },
        });
        assert.equal(bad.status, 422);
        assert.deepEqual(Object.keys(bad.body.errors).sort(), ['email', 'name', 'password']);
        assert.equal((await api('POST', '/api/admin/receptionists', { token: desk.token, body: {} })).status, 403);

        const rob = await signIn(server, email);
        assert.equal((await api('GET', '/api/user', { token: rob.token })).body.role, 'reception');
        const listed = await api('GET', `/api/admin/receptionists?q=${encodeURIComponent(email)}`, {
          token: admin.token,
        });
        assert.deepEqual(
          listed.body.receptionists.map((r: { email: string; active: boolean }) => [r.email, r.active]),
          [[email, true]],
        );

        const off = await api('DELETE', `/api/admin/receptionists/${made.body.id}`, { token: admin.token });
        assert.deepEqual(off.body, { id: made.body.id, active: false });
        assert.equal((await api('GET', '/api/user', { token: rob.token })).status, 401);
        const again = await api('POST', '/api/login', { body: { email, password: PASSWORD } });
        assert.equal(again.status, 401);
        assert.equal(
          (await api('DELETE', `/api/admin/receptionists/${desk.id + 100000}`, { token: admin.token })).status,
          404,
        );
        // A doctor's or a patient's account is no receptionist to deactivate.
        assert.equal(
          (
            await api('DELETE', `/api/admin/receptionists/${(await signUpPatient(server)).user.id}`, {
              token: admin.token,
            })
          ).status,
          404,
        );
      });
    });

    describe('walk-in patients', () => {
      it('are registered without an e-mail, found by name, and can never sign in', async () => {
        const patient = await walkIn({ name: 'Nora No-Mail' });
        assert.equal(patient.email, null);
        const found = await api('GET', '/api/patients?q=no-mail', { token: desk.token });
        assert.deepEqual(
          found.body.patients.map((p: { id: number; email: string | null; no_shows: number }) => [
            p.id,
            p.email,
            p.no_shows,
          ]),
          [[patient.id, null, 0]],
        );
        const row = only(
          await server.db.query<{ email: string | null }>(
            'select u.email from users u join patients p on p.user_id = u.id where p.id = $1',
            [patient.id],
          ),
        );
        assert.equal(row.email, null);
        // A row without an e-mail is no staff account, whatever writes it.
        await assert.rejects(
          server.db.query(`insert into users (name, email, password_hash, role) values ('X', null, 'x', 'reception')`),
        );
        const login = await api('POST', '/api/login', { body: { email: '', password: PASSWORD } });
        assert.equal(login.status, 422);
      });

      it("refuse a taken e-mail and bad details naming the field, and are the desk's alone", async () => {
        const taken = (await signUpPatient(server)).email;
        const clash = await api('POST', '/api/patients', {
          token: desk.token,
          body: { name: 'X', email: taken, phone: '1', birthdate: '1970-01-01', gender: 'male' },
        });
        assert.equal(clash.status, 409);
        assert.equal(clash.body.code, 'email_taken');
        const bad = await api('POST', '/api/patients', {
          token: desk.token,
          body: { name: 'X', email: 'not-an-address', phone: '1', birthdate: '2999-01-01', gender: 'x' },
        });
        assert.equal(bad.status, 422);
        assert.deepEqual(Object.keys(bad.body.errors).sort(), ['birthdate', 'email', 'gender']);
        const patient = await signUpPatient(server);
        assert.equal((await api('POST', '/api/patients', { token: patient.token, body: {} })).status, 403);
        assert.equal((await api('GET', '/api/patients', { token: patient.token })).status, 403);
      });
    });

    describe("a walk-in's details", () => {
      it("keep the e-mail optional until the desk adds one, which waits for the patient's confirmation with nothing but its link", async () => {
        const dr = await doctor();
        const patient = await walkIn({ name: 'Wanda Walk-in' });
        const path = `/api/patients/${patient.id}`;
        const waitFor = () =>
          api('POST', '/api/waitlist', {
            token: desk.token,
            body: { patient_id: patient.id, doctor_id: dr.id, from_date: THURSDAY, to_date: FRIDAY },
          });

        const phone = await api('PUT', path, { token: desk.token, body: { phone: '+1 555 0100' } });
        assert.equal(phone.status, 200, JSON.stringify(phone.body));
        assert.deepEqual([phone.body.patient.phone, phone.body.patient.email], ['+1 555 0100', null]);
        const noAddress = await waitFor();
        assert.equal(noAddress.status, 422);
        assert.match(only(noAddress.body.errors.patient_id), /no e-mail address/);

        const email = uniqueEmail('walk-in');
        const added = await api('PUT', path, { token: desk.token, body: { email } });
        assert.equal(added.status, 200, JSON.stringify(added.body));
        assert.deepEqual(
          [added.body.patient.email, added.body.patient.pending_email, added.body.patient.phone],
          [null, email, '+1 555 0100'],
        );
        const card = await api('GET', path, { token: desk.token });
        assert.deepEqual([card.body.patient.email, card.body.patient.pending_email], [null, email]);
        const requested = only(
          await server.db.query<{ actor_role: string; details: Record<string, unknown> }>(
            `select actor_role, details from audit_log where action = 'email_change_requested' and patient_id = $1`,
            [patient.id],
          ),
        );
        assert.deepEqual(requested, { actor_role: 'reception', details: { from: null, to: email } });
        assert.equal((await waitFor()).status, 422, 'no offers go to an address nobody confirmed');
        assert.equal((await api('POST', '/api/password-reset-requests', { body: { email } })).status, 202);
        const sent = await server.db.query<{ kind: string }>('select kind from outbox where recipient = $1', [email]);
        assert.deepEqual(
          sent.map((m) => m.kind),
          ['email_verification'],
          'its link and nothing else',
        );

        const someone = await signUpPatient(server);
        const { id: someoneId } = only(
          await server.db.query<{ id: number }>('select id from patients where user_id = $1', [someone.user.id]),
        );
        const removed = await api('PUT', `/api/patients/${someoneId}`, { token: desk.token, body: { email: '' } });
        assert.equal(removed.status, 422, 'a sign-in address cannot be removed');
        assert.ok(removed.body.errors.email);
        assert.equal((await api('PUT', path, { token: someone.token, body: { phone: '1' } })).status, 403);
        assert.equal(
          (await api('PUT', `/api/patients/999999`, { token: desk.token, body: { phone: '1' } })).status,
          404,
        );
      });
    });

    describe('booking for patients', () => {
      it('books without caps and sends a walk-in without e-mail no message', async () => {
        const dr = await doctor();
        const patient = await walkIn();
        const first = await bookFor(patient.id, dr.id, THURSDAY, '09:00');
        const second = await bookFor(patient.id, dr.id, THURSDAY, '10:00');
        assert.deepEqual([first.status, second.status], [201, 201]);
        assert.equal(first.body.patient.email, null);
        const { n } = only(
          await server.db.query<{ n: number }>('select count(*)::int as n from outbox where appointment_id = any($1)', [
            [first.body.id, second.body.id],
          ]),
        );
        assert.equal(n, 0);
        const audit = await auditOf('book', first.body.id);
        assert.equal(only(audit).actor_role, 'reception');

        const unknown = await api('POST', '/api/appointments', {
          token: desk.token,
          body: {
            patient_id: 999999,
            doctor_id: dr.id,
            schedule_id: (await slotAt(dr.id, THURSDAY, '11:00')).schedule_id,
            date: THURSDAY,
          },
        });
        assert.equal(unknown.status, 422);
        assert.ok(unknown.body.errors.patient_id);
        const missing = await api('POST', '/api/appointments', { token: desk.token, body: {} });
        assert.equal(missing.status, 422);
        assert.deepEqual(Object.keys(missing.body.errors).sort(), ['doctor_id', 'patient_id', 'schedule_id']);
      });
    });

    describe('the visit lifecycle', () => {
      it('checks a patient in on the day, refuses a second check-in, and lets the doctor record the visit once it starts', async () => {
        const dr = await doctor();
        const patient = await walkIn();
        const today = await bookFor(patient.id, dr.id, TODAY, '10:30');
        const checked = await api('POST', `/api/appointments/${today.body.id}/check-in`, { token: desk.token });
        assert.equal(checked.status, 200);
        assert.equal(checked.body.status, 'checked_in');
        const twice = await api('POST', `/api/appointments/${today.body.id}/check-in`, { token: desk.token });
        assert.equal(twice.status, 409);
        assert.equal(twice.body.code, 'invalid_transition');
        assert.deepEqual(only(await auditOf('check_in', today.body.id)).details, {
          from: 'scheduled',
          to: 'checked_in',
        });

        const { token } = await dr.signIn();
        const disease = (await server.app.catalogue.createDisease({ name: `Desk flu ${++count}` }, ADMIN)).id;
        const visit = { disease_id: disease, diagnosis: 'Cold', service_type: 'Consultation', cost: '40' };
        const early = await api('POST', `/api/doctor/appointments/${today.body.id}/medical-record`, {
          token,
          body: visit,
        });
        assert.equal(early.status, 409);
        assert.equal(early.body.code, 'visit_not_started');
        clock.set('2026-06-10T08:31:00Z');
        try {
          const recorded = await api('POST', `/api/doctor/appointments/${today.body.id}/medical-record`, {
            token,
            body: visit,
          });
          assert.equal(recorded.status, 201, JSON.stringify(recorded.body));
          assert.equal(recorded.body.appointment.status, 'completed');
        } finally {
          clock.set(NOW);
        }
        const done = await api('POST', `/api/appointments/${today.body.id}/cancel`, { token: desk.token });
        assert.equal(done.status, 409);
        assert.equal(done.body.code, 'invalid_transition');
      });

      it("checks in only on the visit's day and marks a no-show only after its start", async () => {
        const dr = await doctor();
        const patient = await walkIn();
        const tomorrow = await bookFor(patient.id, dr.id, THURSDAY, '09:00');
        const notToday = await api('POST', `/api/appointments/${tomorrow.body.id}/check-in`, { token: desk.token });
        assert.equal(notToday.status, 409);
        assert.equal(notToday.body.code, 'not_visit_day');
        const notStarted = await api('POST', `/api/appointments/${tomorrow.body.id}/no-show`, { token: desk.token });
        assert.equal(notStarted.status, 409);
        assert.equal(notStarted.body.code, 'visit_not_started');

        const started = await pastAppointment(patient.id, dr.id, '09:00');
        const noShow = await api('POST', `/api/appointments/${started}/no-show`, { token: desk.token });
        assert.equal(noShow.status, 200);
        assert.equal(noShow.body.status, 'no_show');
        for (const [path, code] of [
          ['check-in', 'invalid_transition'],
          ['no-show', 'invalid_transition'],
          ['cancel', 'invalid_transition'],
        ]) {
          const refused = await api('POST', `/api/appointments/${started}/${path}`, { token: desk.token });
          assert.deepEqual([refused.status, refused.body.code], [409, code], path);
        }
        // A no-show keeps its slot: the index that makes a slot bookable once still counts it.
        await assert.rejects(pastAppointment((await walkIn()).id, dr.id, '09:00'));

        const card = await api('GET', `/api/patients/${patient.id}`, { token: desk.token });
        assert.equal(card.body.patient.no_shows, 1);
        const listed = await api('GET', `/api/admin/patients?q=${encodeURIComponent(patient.name)}`, {
          token: admin.token,
        });
        assert.equal(first(listed.body.patients as { no_shows: number }[]).no_shows, 1);
        assert.equal(only(await auditOf('no_show', started)).actor_role, 'reception');
      });

      it("cancels a checked-in visit and refuses the desk's moves to patients and doctors", async () => {
        const dr = await doctor();
        const patient = await walkIn();
        const booked = await bookFor(patient.id, dr.id, TODAY, '11:00');
        await api('POST', `/api/appointments/${booked.body.id}/check-in`, { token: desk.token });
        const cancelled = await api('POST', `/api/appointments/${booked.body.id}/cancel`, { token: desk.token });
        assert.equal(cancelled.body.status, 'cancelled');
        assert.equal((await slotAt(dr.id, TODAY, '11:00')).status, 'available');
        const someone = await signUpPatient(server);
        const { token } = await dr.signIn();
        for (const path of ['check-in', 'no-show', 'cancel']) {
          assert.equal(
            (await api('POST', `/api/appointments/${booked.body.id}/${path}`, { token: someone.token })).status,
            403,
          );
          assert.equal((await api('POST', `/api/appointments/${booked.body.id}/${path}`, { token })).status, 403);
        }
        assert.equal((await api('POST', '/api/appointments/999999/check-in', { token: desk.token })).status, 404);
      });

      it('is enforced by the database for every program that writes', async () => {
        const dr = await doctor();
        const patient = await walkIn();
        const done = await pastAppointment(patient.id, dr.id, '09:30', 'completed');
        await assert.rejects(
          server.db.query(`update appointments set status = 'scheduled' where id = $1`, [done]),
          /cannot go from completed to scheduled/,
        );
        await assert.rejects(
          server.db.query(`update appointments set date = date + 1 where id = $1`, [done]),
          /only a scheduled appointment moves/,
        );
        assert.equal(await statusOf(done), 'completed');
      });
    });

    describe("the desk's day", () => {
      it("lists one doctor's visits of a date in time order with what the desk can do, cancelled ones folded away and every status counted", async () => {
        const dr = await doctor('Dr. Daybook');
        const other = await doctor('Dr. Elsewhere');
        const [early, waiting, gone, missed] = [await walkIn(), await walkIn(), await walkIn(), await walkIn()];
        const noShow = await pastAppointment(missed.id, dr.id, '08:00');
        assert.equal((await api('POST', `/api/appointments/${noShow}/no-show`, { token: desk.token })).status, 200);
        const checked = await bookFor(waiting.id, dr.id, TODAY, '11:00');
        assert.equal(
          (await api('POST', `/api/appointments/${checked.body.id}/check-in`, { token: desk.token })).status,
          200,
        );
        const later = await bookFor(early.id, dr.id, TODAY, '10:30');
        const cancelled = await bookFor(gone.id, dr.id, TODAY, '12:00');
        assert.equal(
          (await api('POST', `/api/appointments/${cancelled.body.id}/cancel`, { token: desk.token })).status,
          200,
        );
        await bookFor(early.id, other.id, TODAY, '13:00');
        const tomorrow = await bookFor(gone.id, dr.id, THURSDAY, '09:00');

        const day = await api('GET', `/api/appointments?doctor_id=${dr.id}`, { token: desk.token });
        assert.equal(day.status, 200, JSON.stringify(day.body));
        const rows = day.body.appointments as {
          id: number;
          start_time: string;
          status: string;
          desk_actions: string[];
        }[];
        assert.deepEqual(
          rows.map((a) => [a.id, a.start_time, a.status, a.desk_actions]),
          [
            [noShow, '08:00', 'no_show', ['undo_no_show']],
            [later.body.id, '10:30', 'scheduled', ['check_in']],
            [checked.body.id, '11:00', 'checked_in', ['undo_check_in']],
          ],
        );
        const folded = await api('GET', `/api/appointments?doctor_id=${dr.id}&status=cancelled&date=${TODAY}`, {
          token: desk.token,
        });
        assert.deepEqual(
          folded.body.appointments.map((a: { id: number }) => a.id),
          [cancelled.body.id],
        );
        const ahead = await api('GET', `/api/appointments?doctor_id=${dr.id}&date=${THURSDAY}`, { token: desk.token });
        assert.deepEqual(
          ahead.body.appointments.map((a: { id: number; desk_actions: string[] }) => [a.id, a.desk_actions]),
          [[tomorrow.body.id, []]],
          'no check-in before the day',
        );

        const summary = await api('GET', `/api/appointments/day?doctor_id=${dr.id}`, { token: desk.token });
        assert.equal(summary.status, 200, JSON.stringify(summary.body));
        assert.deepEqual(summary.body, {
          date: TODAY,
          today: TODAY,
          previous: '2026-06-09',
          next: THURSDAY,
          doctor_id: dr.id,
          counts: { scheduled: 1, checked_in: 1, completed: 0, no_show: 1, cancelled: 1 },
        });
        const thursday = await api('GET', `/api/appointments/day?date=${THURSDAY}&doctor_id=${dr.id}`, {
          token: desk.token,
        });
        assert.deepEqual(
          [thursday.body.date, thursday.body.today, thursday.body.counts.scheduled],
          [THURSDAY, TODAY, 1],
        );
        const bad = await api('GET', '/api/appointments/day?date=10-06-2026&doctor_id=x', { token: desk.token });
        assert.equal(bad.status, 422);
        assert.deepEqual(Object.keys(bad.body.errors).sort(), ['date', 'doctor_id']);
        const badList = await api('GET', '/api/appointments?doctor_id=0', { token: desk.token });
        assert.equal(badList.status, 422);
        assert.ok(badList.body.errors.doctor_id);
        const listed = only(
          await server.db.query<{ details: Record<string, unknown> }>(
            `select details from audit_log where action = 'list' and entity = 'appointment' and details->>'doctor_id' = $1 and details->>'status' = 'cancelled'`,
            [String(dr.id)],
          ),
        );
        assert.equal(listed.details.date, TODAY);
      });

      it("takes a check-in or a no-show back on the visit's day, audited, and refuses it otherwise", async () => {
        const dr = await doctor();
        const patient = await walkIn();
        const booked = await bookFor(patient.id, dr.id, TODAY, '14:00');
        await api('POST', `/api/appointments/${booked.body.id}/check-in`, { token: desk.token });
        const undone = await api('POST', `/api/appointments/${booked.body.id}/undo-check-in`, { token: desk.token });
        assert.equal(undone.status, 200, JSON.stringify(undone.body));
        assert.equal(undone.body.status, 'scheduled');
        assert.deepEqual(only(await auditOf('undo_check_in', booked.body.id)), {
          actor_role: 'reception',
          details: { from: 'checked_in', to: 'scheduled' },
        });
        const checkedInAt = only(
          await server.db.query<{ checked_in_at: Date | null }>(
            'select checked_in_at from appointments where id = $1',
            [booked.body.id],
          ),
        );
        assert.equal(checkedInAt.checked_in_at, null);
        const twice = await api('POST', `/api/appointments/${booked.body.id}/undo-check-in`, { token: desk.token });
        assert.deepEqual([twice.status, twice.body.code], [409, 'invalid_transition']);
        assert.equal(
          (await api('POST', `/api/appointments/${booked.body.id}/check-in`, { token: desk.token })).status,
          200,
          'checked in again',
        );

        const missed = await pastAppointment((await walkIn()).id, dr.id, '09:30');
        await api('POST', `/api/appointments/${missed}/no-show`, { token: desk.token });
        const back = await api('POST', `/api/appointments/${missed}/undo-no-show`, { token: desk.token });
        assert.deepEqual([back.status, back.body.status], [200, 'scheduled']);
        assert.deepEqual(only(await auditOf('undo_no_show', missed)).details, { from: 'no_show', to: 'scheduled' });
        const notNoShow = await api('POST', `/api/appointments/${missed}/undo-no-show`, { token: desk.token });
        assert.deepEqual([notNoShow.status, notNoShow.body.code], [409, 'invalid_transition']);

        const yesterday = '2026-06-09';
        const missedYesterday = await pastAppointment(patient.id, dr.id, '09:00', 'no_show', yesterday);
        const seenYesterday = await pastAppointment(patient.id, dr.id, '10:00', 'checked_in', yesterday);
        for (const [id, path] of [
          [missedYesterday, 'undo-no-show'],
          [seenYesterday, 'undo-check-in'],
        ] as const) {
          const late = await api('POST', `/api/appointments/${id}/${path}`, { token: desk.token });
          assert.deepEqual([late.status, late.body.code], [409, 'not_visit_day'], path);
        }
        assert.equal(await statusOf(missedYesterday), 'no_show');
        assert.equal((await api('POST', '/api/appointments/999999/undo-no-show', { token: desk.token })).status, 404);
      });

      it('answers the new routes to each identity as their access says', async () => {
        const { token: doctorToken } = await (await doctor()).signIn();
        const identities: Record<string, string | undefined> = {
          none: undefined,
          patient: (await signUpPatient(server)).token,
          doctor: doctorToken,
          reception: desk.token,
          admin: admin.token,
        };
        const { schedulingRoutes } = await import('./routes/scheduling.ts');
        const { patientRoutes } = await import('./routes/patients.ts');
        const paths = [
          '/api/appointments/day',
          '/api/appointments/{id}/undo-check-in',
          '/api/appointments/{id}/undo-no-show',
          '/api/patients/duplicates',
        ];
        const routes = [...schedulingRoutes(server.app), ...patientRoutes(server.app)].filter((route) =>
          paths.includes(route.path),
        );
        assert.equal(routes.length, paths.length);
        for (const route of routes) {
          const path = `${route.path.replace('{id}', '999999')}${route.method === 'GET' ? '?phone=%2B1%20555%200111' : ''}`;
          for (const [who, token] of Object.entries(identities)) {
            const res = await api(route.method, path, { token, body: route.method === 'GET' ? undefined : {} });
            const expected =
              who === 'none'
                ? 401
                : who === 'reception' || who === 'admin'
                  ? route.method === 'GET'
                    ? 200
                    : 404
                  : 403;
            assert.equal(res.status, expected, `${route.method} ${route.path} as ${who}`);
          }
        }
      });
    });

    describe('possible duplicates of a walk-in', () => {
      it('are patients with the same name and birthdate or the same phone digits, with only what tells them apart', async () => {
        const anna = await walkIn({ name: 'Anna  Double', birthdate: '1980-05-06', phone: '+49 (30) 1234-5678' });
        const namesake = await walkIn({ name: 'Anna Double', birthdate: '1991-01-01', phone: '+49 30 999 888' });
        const ask = (query: string) => api('GET', `/api/patients/duplicates?${query}`, { token: desk.token });

        const byName = await ask(
          `name=${encodeURIComponent('anna double')}&birthdate=1980-05-06&phone=${encodeURIComponent('+1 555 7777777')}`,
        );
        assert.equal(byName.status, 200, JSON.stringify(byName.body));
        assert.deepEqual(byName.body.patients, [
          {
            id: anna.id,
            name: 'Anna  Double',
            phone: '+49 (30) 1234-5678',
            birthdate: '1980-05-06',
            matched_on: ['name_and_birthdate'],
          },
        ]);
        const byPhone = await ask(
          `name=Someone%20Else&birthdate=1980-05-06&phone=${encodeURIComponent('+49 30 12345678')}`,
        );
        assert.deepEqual(
          byPhone.body.patients.map((p: { id: number; matched_on: string[] }) => [p.id, p.matched_on]),
          [[anna.id, ['phone']]],
        );
        const both = await ask(`name=Anna%20Double&birthdate=1980-05-06&phone=493012345678`);
        assert.deepEqual(
          both.body.patients.map((p: { id: number; matched_on: string[] }) => [p.id, p.matched_on]),
          [[anna.id, ['name_and_birthdate', 'phone']]],
        );
        const nobody = await ask('name=Anna%20Double&birthdate=2001-01-01');
        assert.deepEqual(nobody.body.patients, []);
        assert.ok(!JSON.stringify(nobody.body).includes(String(namesake.id)));

        const vague = await ask('name=Anna%20Double&phone=123');
        assert.equal(vague.status, 422);
        assert.deepEqual(Object.keys(vague.body.errors), ['phone']);
        const badDate = await ask('name=Anna&birthdate=soon');
        assert.equal(badDate.status, 422);
        assert.ok(badDate.body.errors.birthdate);
        // The desk may still register someone else of the same name and birthdate.
        const twin = await walkIn({ name: 'Anna Double', birthdate: '1980-05-06', phone: '+49 30 5550000' });
        assert.notEqual(twin.id, anna.id);
      });
    });

    describe('rescheduling', () => {
      it("moves a patient's own visit, frees the old slot, audits from and to and mails the new time with its calendar", async () => {
        const dr = await doctor('Dr. Move');
        const patient = await signUpPatient(server);
        const slot = await slotAt(dr.id, THURSDAY, '09:00');
        const booked = await api('POST', '/api/appointments/book', {
          token: patient.token,
          body: { doctor_id: dr.id, schedule_id: slot.schedule_id, date: THURSDAY },
        });
        const target = await slotAt(dr.id, FRIDAY, '14:00');
        const moved = await api('POST', `/api/appointments/${booked.body.id}/reschedule`, {
          token: patient.token,
          body: { schedule_id: target.schedule_id, date: FRIDAY },
        });
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        assert.deepEqual(
          [moved.body.id, moved.body.date, moved.body.start_time, moved.body.status],
          [booked.body.id, FRIDAY, '14:00', 'scheduled'],
        );
        assert.equal((await slotAt(dr.id, THURSDAY, '09:00')).status, 'available');
        assert.equal((await slotAt(dr.id, FRIDAY, '14:00')).status, 'booked');

        const audit = only(await auditOf('appointment_rescheduled', booked.body.id));
        assert.deepEqual(audit.details, {
          from: { doctor_id: dr.id, date: THURSDAY, start_time: '09:00', end_time: '09:30' },
          to: { doctor_id: dr.id, date: FRIDAY, start_time: '14:00', end_time: '14:30' },
        });
        const mail = only(
          await server.db.query<{ subject: string; attachments: { content: string }[] }>(
            `select subject, attachments from outbox where appointment_id = $1 and kind = 'reschedule'`,
            [booked.body.id],
          ),
        );
        assert.match(mail.subject, /Friday, June 12, 2026 at 2:00 PM/);
        assert.match(first(mail.attachments).content, /DTSTART;TZID=Europe\/Berlin:20260612T140000/);
        assert.match(first(mail.attachments).content, /SEQUENCE:1/);
        const pending = await server.db.query<{ kind: string; dedupe_key: string }>(
          `select kind, dedupe_key from outbox where appointment_id = $1 and status = 'pending' order by kind`,
          [booked.body.id],
        );
        assert.deepEqual(
          pending.map((m) => m.kind),
          ['reminder', 'reschedule'],
        );
        assert.match(first(pending).dedupe_key, /2026-06-12T14:00$/);
      });

      it('holds patients to their own future visits and the booking rules; the desk moves anyone to another doctor', async () => {
        const dr = await doctor();
        const other = await doctor('Dr. Other');
        const patient = await signUpPatient(server);
        const stranger = await signUpPatient(server);
        const book = async (time: string, date = THURSDAY, doctorId = dr.id) =>
          api('POST', '/api/appointments/book', {
            token: patient.token,
            body: { doctor_id: doctorId, schedule_id: (await slotAt(doctorId, date, time)).schedule_id, date },
          });
        const mine = await book('12:00');
        const withOther = await book('12:00', FRIDAY, other.id);
        const to = async (doctorId: number, date: string, time: string) => ({
          doctor_id: doctorId,
          schedule_id: (await slotAt(doctorId, date, time)).schedule_id,
          date,
        });

        const notYours = await api('POST', `/api/appointments/${mine.body.id}/reschedule`, {
          token: stranger.token,
          body: await to(dr.id, FRIDAY, '15:00'),
        });
        assert.equal(notYours.status, 404);
        const overCap = await api('POST', `/api/appointments/${withOther.body.id}/reschedule`, {
          token: patient.token,
          body: await to(dr.id, THURSDAY, '15:00'),
        });
        assert.deepEqual([overCap.status, overCap.body.code], [409, 'booking_limit']);
        const past = await api('POST', `/api/appointments/${mine.body.id}/reschedule`, {
          token: patient.token,
          body: { schedule_id: 1, date: '2026-06-01' },
        });
        assert.equal(past.status, 422);
        assert.ok(past.body.errors.date);
        const started = await pastAppointment((await walkIn()).id, dr.id, '09:00');
        const late = await api('POST', `/api/appointments/${started}/reschedule`, {
          token: desk.token,
          body: await to(dr.id, FRIDAY, '09:00'),
        });
        assert.equal(late.status, 200, 'the desk moves a visit that has begun, as for a patient who came late');

        const byDesk = await api('POST', `/api/appointments/${mine.body.id}/reschedule`, {
          token: desk.token,
          body: await to(other.id, FRIDAY, '16:00'),
        });
        assert.equal(byDesk.status, 200);
        assert.deepEqual([byDesk.body.doctor.id, byDesk.body.start_time], [other.id, '16:00']);
        const cancelled = await api('POST', `/api/patient/appointments/${mine.body.id}/cancel`, {
          token: patient.token,
        });
        assert.equal(cancelled.status, 200);
        const gone = await api('POST', `/api/appointments/${mine.body.id}/reschedule`, {
          token: desk.token,
          body: await to(other.id, FRIDAY, '16:30'),
        });
        assert.deepEqual([gone.status, gone.body.code], [409, 'invalid_transition']);
        const busy = await api('POST', `/api/appointments/${withOther.body.id}/reschedule`, {
          token: desk.token,
          body: await to(other.id, FRIDAY, '12:00'),
        });
        assert.equal(busy.status, 200, 'a visit may move onto its own time');
      });

      it('lets exactly one of 50 concurrent moves onto one free slot through', async () => {
        const dr = await doctor();
        const target = await doctor('Dr. Target');
        const patients = await server.db.query<{ id: number }>(
          `with u as (insert into users (name, email, password_hash, role)
                      select 'Racer ' || i, i || '.' || $1, 'not used', 'patient' from generate_series(1, 50) i returning id)
           insert into patients (user_id) select id from u returning id`,
          [uniqueEmail('racer')],
        );
        const ids: number[] = [];
        const days = [THURSDAY, FRIDAY, '2026-06-15', '2026-06-16'];
        for (const [i, p] of patients.entries()) {
          const day = at(days, Math.floor(i / 16), 'day');
          const minutes = 9 * 60 + (i % 16) * 30;
          const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
          const res = await bookFor(p.id, dr.id, day, time);
          assert.equal(res.status, 201, `${day} ${time} ${JSON.stringify(res.body)}`);
          ids.push(res.body.id);
        }
        const slot = await slotAt(target.id, FRIDAY, '15:00');
        const answers = await Promise.all(
          ids.map((id) =>
            api('POST', `/api/appointments/${id}/reschedule`, {
              token: desk.token,
              body: { doctor_id: target.id, schedule_id: slot.schedule_id, date: FRIDAY },
            }),
          ),
        );
        const outcomes = answers.map((a) => `${a.status} ${a.body.code ?? ''}`.trim());
        assert.equal(outcomes.filter((o) => o === '200').length, 1, outcomes.join(', '));
        assert.deepEqual(
          outcomes.filter((o) => o !== '200' && o !== '409 slot_taken' && o !== '503 database_busy'),
          [],
        );
        const held = await server.db.query('select id from appointments where doctor_id = $1 and status <> $2', [
          target.id,
          'cancelled',
        ]);
        assert.equal(held.length, 1);
        const still = await server.db.query('select id from appointments where doctor_id = $1 and status = $2', [
          dr.id,
          'scheduled',
        ]);
        assert.equal(still.length, 49);
      });
    });

    describe('next available by department', () => {
      it('answers the first free days across its doctors, each slot with its doctor', async () => {
        const dep = await department();
        const [a, b] = [await doctor('Dr. Alpha', dep), await doctor('Dr. Beta', dep)];
        const res = await api('GET', `/api/appointments/next-available?department_id=${dep}&from=${THURSDAY}`, {
          token: desk.token,
        });
        assert.equal(res.status, 200);
        assert.equal(res.body.department_id, dep);
        assert.deepEqual(
          res.body.days.map((d: { date: string }) => d.date),
          [THURSDAY, FRIDAY, '2026-06-15'],
        );
        const thursday = first(
          res.body.days as { available_appointments: (Slot & { doctor: { id: number; name: string } })[] }[],
        ).available_appointments;
        assert.equal(thursday.length, 32);
        assert.deepEqual(
          thursday.slice(0, 2).map((s) => [s.start_time, s.doctor]),
          [
            ['09:00', { id: a.id, name: 'Dr. Alpha' }],
            ['09:00', { id: b.id, name: 'Dr. Beta' }],
          ],
        );
      });

      it('wants exactly one of doctor_id and department_id, naming the field', async () => {
        const neither = await api('GET', '/api/appointments/next-available', { token: desk.token });
        assert.equal(neither.status, 422);
        assert.ok(neither.body.errors.doctor_id);
        const both = await api('GET', '/api/appointments/next-available?doctor_id=1&department_id=1', {
          token: desk.token,
        });
        assert.equal(both.status, 422);
        assert.ok(both.body.errors.department_id);
        const bad = await api('GET', '/api/appointments/next-available?department_id=x', { token: desk.token });
        assert.equal(bad.status, 422);
        assert.ok(bad.body.errors.department_id);
        assert.equal(
          (await api('GET', '/api/appointments/next-available?department_id=999999', { token: desk.token })).status,
          404,
        );
      });
    });

    describe('payments at the desk', () => {
      it('takes cash once, answers a second payment 409 and prints the receipt', async () => {
        const dr = await doctor();
        const patient = await walkIn();
        const visit = await pastAppointment(patient.id, dr.id, '09:00');
        const { token } = await dr.signIn();
        const disease = (await server.app.catalogue.createDisease({ name: `Desk cough ${++count}` }, ADMIN)).id;
        const recorded = await api('POST', `/api/doctor/appointments/${visit}/medical-record`, {
          token,
          body: { disease_id: disease, diagnosis: 'Cough', service_type: 'Consultation', cost: '55.00' },
        });
        assert.equal(recorded.status, 201);
        const billId = recorded.body.billing.id;

        const bills = await api('GET', `/api/patients/${patient.id}/billings`, { token: desk.token });
        assert.deepEqual(
          bills.body.billings.map((b: { id: number; payment_status: string }) => [b.id, b.payment_status]),
          [[billId, 'unpaid']],
        );
        const badMethod = await api('POST', `/api/billings/${billId}/payments`, {
          token: desk.token,
          body: { method: 'cheque' },
        });
        assert.equal(badMethod.status, 422);
        assert.ok(badMethod.body.errors.method);
        const paid = await api('POST', `/api/billings/${billId}/payments`, {
          token: desk.token,
          body: { method: 'cash' },
        });
        assert.equal(paid.status, 200);
        assert.equal(paid.body.billing.payment_status, 'paid');
        const again = await api('POST', `/api/billings/${billId}/payments`, {
          token: desk.token,
          body: { method: 'card' },
        });
        assert.deepEqual([again.status, again.body.code], [409, 'bill_already_paid']);
        const receipt = await api('GET', `/api/billings/${billId}/receipt`, { token: desk.token });
        assert.equal(receipt.status, 200);
        assert.deepEqual(
          [receipt.body.payment_method, receipt.body.amount_paid, receipt.body.patient.id],
          ['cash', '55.00', patient.id],
        );
        const someone = await signUpPatient(server);
        assert.equal(
          (await api('POST', `/api/billings/${billId}/payments`, { token: someone.token, body: { method: 'cash' } }))
            .status,
          403,
        );
      });
    });

    describe('what reception sees', () => {
      const SEEDED = ['Seeded-Diagnosis-7Q', 'Seeded-Prescription-7Q', 'Seeded-LabTest-7Q', 'Seeded-Disease-7Q'];
      const CLINICAL_KEY = /diagnos|prescription|lab_test|disease/i;
      const clinicalKeys = (value: unknown, path = ''): string[] => {
        if (Array.isArray(value)) return value.flatMap((item, i) => clinicalKeys(item, `${path}[${i}]`));
        if (value === null || typeof value !== 'object') return [];
        return Object.entries(value).flatMap(([key, inner]) => [
          ...(CLINICAL_KEY.test(key) ? [`${path}.${key}`] : []),
          ...clinicalKeys(inner, `${path}.${key}`),
        ]);
      };

      it('is never a diagnosis, prescription, lab test or disease, on any route of the API', async () => {
        const dep = await department();
        const dr = await doctor('Dr. Clinical', dep);
        const patient = await signUpPatient(server, { name: 'Clara Clinical' });
        const patientId = only(
          await server.db.query<{ id: number }>('select id from patients where user_id = $1', [patient.user.id]),
        ).id;
        const visit = await pastAppointment(patientId, dr.id, '08:00');
        const disease = (await server.app.catalogue.createDisease({ name: 'Seeded-Disease-7Q' }, ADMIN)).id;
        const { token } = await dr.signIn();
        const recorded = await api('POST', `/api/doctor/appointments/${visit}/medical-record`, {
          token,
          body: {
            disease_id: disease,
            diagnosis: 'Seeded-Diagnosis-7Q',
            prescriptions: 'Seeded-Prescription-7Q',
            lab_tests: 'Seeded-LabTest-7Q',
            service_type: 'Consultation',
            cost: '10',
          },
        });
        assert.equal(recorded.status, 201);
        const ids: Record<string, number | string> = {
          patients: patientId,
          appointments: visit,
          available: dr.id,
          billings: recorded.body.billing.id,
          doctors: dr.id,
          departments: dep,
          diseases: disease,
          receptionists: desk.id,
          rooms: 1,
          files: 1,
          calendar: bearerTokens.issue(),
        };
        const query = `?doctor_id=${dr.id}&patient_id=${patientId}&date=${TODAY}`;
        const { apiRoutes } = await import('./routes.ts');
        // Signing out goes last, so every other route is asked with a live session.
        const routes = apiRoutes(server.app).sort(
          (a, b) => Number(a.path.startsWith('/api/logout')) - Number(b.path.startsWith('/api/logout')),
        );
        assert.ok(routes.length > 80);
        const asked: string[] = [];
        for (const route of routes) {
          const segments = route.path.split('/');
          const path = segments
            .map((part, i) => part.replace(/\{\w+\}/, () => String(ids[segments[i - 1] ?? ''] ?? ids.patients)))
            .join('/');
          const body =
            route.method === 'GET' || route.method === 'DELETE'
              ? undefined
              : { patient_id: patientId, appointment_id: visit, method: 'cash' };
          const res = await api(route.method, `${path}${route.method === 'GET' ? query : ''}`, {
            token: desk.token,
            body,
          });
          const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');
          // The API's own description names every field of every shape, and holds no one's data.
          const describesTheApi = route.path === '/api/openapi.json' || route.path.startsWith('/api/docs');
          if (!describesTheApi)
            assert.deepEqual(clinicalKeys(res.body), [], `${route.method} ${path} answered clinical fields`);
          for (const value of SEEDED) assert.ok(!text.includes(value), `${route.method} ${path} answered ${value}`);
          assert.ok(res.status < 500, `${route.method} ${path} answered ${res.status}`);
          asked.push(`${route.method} ${route.path} ${res.status}`);
        }
        // The desk's own reads of this patient did answer: the test saw real data, not only refusals.
        for (const seen of [
          'GET /api/patients/{id} 200',
          'GET /api/appointments 200',
          'GET /api/patients/{id}/billings 200',
          'GET /api/billings/{id}/receipt 200',
        ]) {
          assert.ok(asked.includes(seen), `${seen} in ${asked.join('\n')}`);
        }
      });
    });
  });
}
