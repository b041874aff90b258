import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { cliActor } from '../domain/shared/actor.ts';
import {
  PASSWORD,
  fixedClock,
  signIn,
  signUpAdmin,
  signUpPatient,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { EACH_DAY, workingWeek } from '../testing/working-week.ts';

const NOW = '2026-06-10T08:10:00Z'; // Wednesday 10:10 in the clinic's Europe/Berlin
const MONDAY = '2026-06-15';
const TUESDAY = '2026-06-16'; // the doctor's leave
const FRIDAY = '2026-06-19'; // the clinic's holiday
const ADMIN = cliActor('working-hours-test');

for (const target of testDatabases('one')) {
  describe(`working hours, leave and closures over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let admin: { token: string };
    let patient: { token: string };
    let doctor: { id: number; token: string };
    let roomId: number;

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      admin = await signUpAdmin(server);
      patient = await signUpPatient(server);
      const department = await server.app.catalogue.createDepartment({ name: 'Family medicine' }, ADMIN);
      roomId = (await server.app.catalogue.createRoom({ name: 'Room 7', department_id: department.id }, ADMIN)).id;
      const email = uniqueEmail('doctor');
      const created = await server.app.doctors.createDoctor(
        { name: 'Dr. Lunch', email, password: PASSWORD, department_id: department.id },
        ADMIN,
      );
      doctor = { id: created.id, token: (await signIn(server, email)).token };
    });
    after(() => server.close());

    const startsOn = async (date: string) => {
      const res = await server.api('GET', `/api/appointments/available/${doctor.id}?date=${date}`, {
        token: patient.token,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.available_appointments as { schedule_id: number; start_time: string }[];
    };

    it('gives a new doctor the default week as one range a weekday', async () => {
      const res = await server.api('GET', `/api/admin/doctors/${doctor.id}/schedule`, { token: admin.token });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.hours[0], {
        weekday: 1,
        start_time: '09:00',
        end_time: '17:00',
        slot_minutes: 30,
        room: { id: roomId, name: 'Room 7' },
      });
      assert.equal(res.body.hours.length, 5);
    });

    it('gives exactly the slots of the hours, the leave and the closure, and lists the visit inside the leave for the desk', async () => {
      const saved = await server.api('PUT', `/api/admin/doctors/${doctor.id}/schedule`, {
        token: admin.token,
        body: { hours: workingWeek(roomId) },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(saved.body.hours.length, 10);
      assert.equal(saved.body.slots.length, 100);
      assert.deepEqual(
        (await startsOn(MONDAY)).map((s) => s.start_time),
        EACH_DAY,
      );

      const tuesdayTen = (await startsOn(TUESDAY)).find((s) => s.start_time === '10:00');
      const booked = await server.api('POST', '/api/appointments/book', {
        token: patient.token,
        body: { doctor_id: doctor.id, schedule_id: tuesdayTen?.schedule_id, date: TUESDAY },
      });
      assert.equal(booked.status, 201, JSON.stringify(booked.body));

      const leave = await server.api('POST', `/api/admin/doctors/${doctor.id}/leave`, {
        token: admin.token,
        body: { starts_on: TUESDAY, reason: 'Course' },
      });
      assert.equal(leave.status, 201, JSON.stringify(leave.body));
      assert.equal(leave.body.time_off.kind, 'leave');
      assert.deepEqual(
        leave.body.visits_to_move.map((v: { id: number; status: string }) => [v.id, v.status]),
        [[booked.body.id, 'scheduled']],
      );

      const closure = await server.api('POST', '/api/admin/closures', {
        token: admin.token,
        body: { starts_on: FRIDAY, reason: 'Clinic holiday' },
      });
      assert.equal(closure.status, 201, JSON.stringify(closure.body));
      assert.deepEqual(closure.body.visits_to_move, []);

      assert.deepEqual(await startsOn(TUESDAY), []);
      assert.deepEqual(await startsOn(FRIDAY), []);
      assert.deepEqual(
        (await startsOn('2026-06-17')).map((s) => s.start_time),
        EACH_DAY,
      );
      const next = await server.api('GET', `/api/appointments/next-available?doctor_id=${doctor.id}&from=${TUESDAY}`, {
        token: patient.token,
      });
      assert.deepEqual(
        next.body.days.map((d: { date: string }) => d.date),
        ['2026-06-17', '2026-06-18', '2026-06-22'],
      );

      const toMove = await server.api('GET', '/api/appointments/to-move', { token: admin.token });
      assert.equal(toMove.status, 200);
      assert.deepEqual(
        toMove.body.appointments.map((v: { id: number; time_off: { reason: string } }) => [v.id, v.time_off.reason]),
        [[booked.body.id, 'Course']],
      );

      const agenda = await server.api('GET', `/api/doctor/agenda?date=${MONDAY}&view=week`, { token: doctor.token });
      assert.equal(agenda.status, 200);
      assert.deepEqual(
        agenda.body.days.map((d: { time_off: { kind: string }[] }) => d.time_off.map((t) => t.kind).join()),
        ['', 'leave', '', '', 'closure', '', ''],
      );

      const listed = await server.api('GET', `/api/admin/time-off?doctor_id=${doctor.id}`, { token: admin.token });
      assert.deepEqual(
        listed.body.time_off.map((t: { kind: string }) => t.kind),
        ['leave', 'closure'],
      );
      const audited = await server.db.query<{ action: string }>(
        `select action from audit_log where entity = 'time_off' order by id`,
      );
      assert.deepEqual(
        audited.map((r) => r.action),
        ['create', 'create'],
      );
    });

    it('refuses booking into leave with a 422 naming schedule_id, and frees the slots when the leave is taken back', async () => {
      const other = await signUpPatient(server);
      const [slot] = (await server.api('GET', `/api/admin/doctors/${doctor.id}/schedule`, { token: admin.token })).body
        .slots;
      const outside = await server.api('POST', '/api/appointments/book', {
        token: other.token,
        body: { doctor_id: doctor.id, schedule_id: slot.id, date: '2026-06-22' },
      });
      assert.equal(outside.status, 201, 'a Monday outside the leave books');
      const leave = await server.api('POST', `/api/admin/doctors/${doctor.id}/leave`, {
        token: admin.token,
        body: { starts_on: '2026-06-29', ends_on: '2026-06-30', start_time: '09:00', end_time: '10:00' },
      });
      const inLeave = await server.api('POST', '/api/appointments/book', {
        token: other.token,
        body: { doctor_id: doctor.id, schedule_id: slot.id, date: '2026-06-29' },
      });
      assert.equal(inLeave.status, 422);
      assert.deepEqual(inLeave.body.errors, { schedule_id: ["falls in the doctor's leave"] });
      assert.equal((await startsOn('2026-06-29')).length, EACH_DAY.length - 3);
      const removed = await server.api('DELETE', `/api/admin/time-off/${leave.body.time_off.id}`, {
        token: admin.token,
      });
      assert.equal(removed.status, 200);
      assert.equal((await startsOn('2026-06-29')).length, EACH_DAY.length);
    });

    it('names the bad field of leave, and lets only admins add it', async () => {
      const bad = await server.api('POST', `/api/admin/doctors/${doctor.id}/leave`, {
        token: admin.token,
        body: { starts_on: TUESDAY, start_time: '25:00', end_time: '10:00' },
      });
      assert.equal(bad.status, 422);
      assert.deepEqual(Object.keys(bad.body.errors), ['start_time']);
      const closure = await server.api('POST', '/api/admin/closures', {
        token: admin.token,
        body: { starts_on: FRIDAY },
      });
      assert.deepEqual(closure.body.errors, { reason: ['is required'] });
      const byPatient = await server.api('POST', '/api/admin/closures', {
        token: patient.token,
        body: { starts_on: FRIDAY, reason: 'No' },
      });
      assert.equal(byPatient.status, 403);
    });

    it('changes nothing when the saved hours are saved again', async () => {
      const before = (await server.api('GET', `/api/admin/doctors/${doctor.id}/schedule`, { token: admin.token })).body;
      const hours = before.hours.map(
        (h: {
          weekday: number;
          start_time: string;
          end_time: string;
          slot_minutes: number;
          room: { id: number } | null;
        }) => ({
          weekday: h.weekday,
          start_time: h.start_time,
          end_time: h.end_time,
          slot_minutes: h.slot_minutes,
          ...(h.room ? { room_id: h.room.id } : {}),
        }),
      );
      const audits = async () =>
        (await server.db.query<{ n: number }>(`select count(*)::int as n from audit_log where entity = 'schedule'`))[0]
          ?.n;
      const audited = await audits();
      const again = await server.api('PUT', `/api/admin/doctors/${doctor.id}/schedule`, {
        token: admin.token,
        body: { hours },
      });
      assert.deepEqual(again.body, before);
      assert.equal(await audits(), audited);
    });
  });
}
