import { after, before, describe, it as itOnEveryEngine } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { makeApp } from '../app.ts';
import { openPostgres } from '../db/postgres.ts';
import { cliActor } from '../domain/shared/actor.ts';
import type { AppointmentJson } from '../domain/scheduling/scheduling-shapes.ts';
import { bearerTokens } from '../security.ts';
import {
  PASSWORD,
  fixedClock,
  signIn,
  signUpAdmin,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { at, first, only, present, two } from '../testing/assert.ts';
import { onOneDatabase, testDatabases } from '../testing/test-db.ts';
import { createMedoraServer } from './server.ts';
import { closeGracefully } from './shutdown.ts';

const NOW = '2026-06-10T08:10:00Z'; // Wednesday 10:10 in the clinic's Europe/Berlin
const TODAY = '2026-06-10';
const THURSDAY = '2026-06-11';
const FRIDAY = '2026-06-12';
const ADMIN = cliActor('scheduling-test');

interface Slot {
  schedule_id: number;
  start_time: string;
  end_time: string;
  status: string;
  period: string;
}

/** Clinic rows made through the admin's own use cases, and patients made fast (argon2 would make 50 sign-ups slow). */
function clinic(server: TestServer) {
  const db = server.db;
  let count = 0;
  return {
    async department() {
      const department = await server.app.catalogue.createDepartment({ name: `Cardiology ${++count}` }, ADMIN);
      const room = await server.app.catalogue.createRoom({ name: 'Room 101', department_id: department.id }, ADMIN);
      return { ...department, room };
    },

    async doctor(name = 'Dr. Grey', departmentId?: number) {
      const email = uniqueEmail('doctor');
      const doctor = await server.app.doctors.createDoctor(
        { name, email, password: PASSWORD, department_id: departmentId },
        ADMIN,
      );
      return { ...doctor, signIn: () => signIn(server, email) };
    },

    /** Patients with open sessions, inserted in two statements with tokens issued as a login would. */
    async patients(n: number) {
      const tokens = Array.from({ length: n }, () => bearerTokens.issue());
      const prefix = uniqueEmail('patient');
      const rows = await db.query<{ patient_id: number; user_id: number; name: string }>(
        `with u as (
           insert into users (name, email, password_hash, role)
           select 'Patient ' || i, i || '.' || $1, 'not used', 'patient' from generate_series(1, $2::int) i
           returning id, name
         ), p as (insert into patients (user_id) select id from u returning id, user_id)
         select p.id as patient_id, p.user_id, u.name from p join u on u.id = p.user_id order by p.id`,
        [prefix, n],
      );
      await db.query(
        `insert into sessions (user_id, token_hash, expires_at)
         select user_id, token_hash, $3 from unnest($1::int[], $2::text[]) as s(user_id, token_hash)`,
        [rows.map((r) => r.user_id), tokens.map(bearerTokens.digest), new Date(Date.parse(NOW) + 86_400_000)],
      );
      return rows.map((r, i) => ({ patientId: r.patient_id, name: r.name, token: at(tokens, i, 'token') }));
    },
  };
}

for (const target of testDatabases('both')) {
  describe(`scheduling and booking over HTTP on ${target.name}`, () => {
    // `it` registers a test on the database testDatabases('one') gives alone: above the database, the engines do not
    // differ. The race of 50 bookings for one slot, settled by the database's locks, runs on both (itOnEveryEngine).
    const it = onOneDatabase(target, itOnEveryEngine);
    let server: TestServer;
    let fx: ReturnType<typeof clinic>;
    let admin: { token: string };

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      fx = clinic(server);
      admin = await signUpAdmin(server);
    });
    after(() => server.close());

    const slotsOf = async (doctorId: number, token: string, date?: string) => {
      const res = await server.api('GET', `/api/appointments/available/${doctorId}${date ? `?date=${date}` : ''}`, {
        token,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.available_appointments as Slot[];
    };
    const slotAt = async (doctorId: number, token: string, date: string, start: string) =>
      present(
        (await slotsOf(doctorId, token, date)).find((s) => s.start_time === start),
        `slot at ${start}`,
      );
    const book = (token: string, body: Record<string, unknown>) =>
      server.api('POST', '/api/appointments/book', { token, body });
    const setSchedule = (doctorId: number, body: unknown) =>
      server.api('PUT', `/api/admin/doctors/${doctorId}/schedule`, { token: admin.token, body });

    describe('weekly patterns', () => {
      it('gives a new doctor Monday to Friday 09:00–17:00 in 30-minute slots, in a room of their department', async () => {
        const department = await fx.department();
        const doctor = await fx.doctor('Dr. Default', department.id);
        const res = await server.api('GET', `/api/admin/doctors/${doctor.id}/schedule`, { token: admin.token });
        assert.equal(res.status, 200);
        assert.equal(res.body.slots.length, 80);
        assert.deepEqual(
          { ...res.body.slots[0], id: undefined },
          {
            id: undefined,
            weekday: 1,
            start_time: '09:00',
            end_time: '09:30',
            room: { id: department.room.id, name: 'Room 101' },
          },
        );
        assert.deepEqual(res.body.slots.at(-1).weekday, 5);
      });

      it('replaces a pattern from working hours, keeping the ids of slots that stay', async () => {
        const doctor = await fx.doctor();
        const before = (await server.api('GET', `/api/admin/doctors/${doctor.id}/schedule`, { token: admin.token }))
          .body.slots;
        const res = await setSchedule(doctor.id, {
          days: [1, 6],
          start_time: '09:00',
          end_time: '10:00',
          slot_minutes: 30,
        });
        assert.equal(res.status, 200);
        assert.deepEqual(
          res.body.slots.map(
            (s: { weekday: number; start_time: string; end_time: string }) =>
              `${s.weekday} ${s.start_time}-${s.end_time}`,
          ),
          ['1 09:00-09:30', '1 09:30-10:00', '6 09:00-09:30', '6 09:30-10:00'],
        );
        assert.equal(res.body.slots[0].id, before[0].id);
        const { retired } = only(
          await server.db.query<{ retired: number }>(
            'select count(*)::int as retired from schedules where doctor_id = $1 and retired_at is not null',
            [doctor.id],
          ),
        );
        assert.equal(retired, 78);
      });

      it('refuses overlapping explicit slots, an unknown room and an unknown doctor', async () => {
        const doctor = await fx.doctor();
        const overlapping = await setSchedule(doctor.id, {
          slots: [
            { weekday: 2, start_time: '09:00', end_time: '10:00' },
            { weekday: 2, start_time: '09:45', end_time: '10:15' },
          ],
        });
        assert.equal(overlapping.status, 422);
        assert.equal(overlapping.body.code, 'invalid');
        assert.deepEqual(overlapping.body.errors, { slots: ['Tuesday 09:45–10:15 overlaps Tuesday 09:00–10:00'] });

        const noRoom = await setSchedule(doctor.id, {
          slots: [{ weekday: 2, start_time: '09:00', end_time: '10:00', room_id: 999999 }],
        });
        assert.equal(noRoom.status, 422);
        assert.deepEqual(noRoom.body.errors, { room_id: ['does not exist'] });

        const unknown = await setSchedule(999999, {
          days: [1],
          start_time: '09:00',
          end_time: '10:00',
          slot_minutes: 30,
        });
        assert.equal(unknown.status, 404);
        assert.equal(unknown.body.code, 'not_found');
      });

      it('lets only admins read or change a pattern', async () => {
        const doctor = await fx.doctor();
        const patient = only(await fx.patients(1));
        const res = await server.api('GET', `/api/admin/doctors/${doctor.id}/schedule`, { token: patient.token });
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'forbidden');
      });
    });

    describe('available slots', () => {
      it("answers today's slots by default: started ones past, later ones available, split AM/PM", async () => {
        const doctor = await fx.doctor();
        const patient = only(await fx.patients(1));
        const res = await server.api('GET', `/api/appointments/available/${doctor.id}`, { token: patient.token });
        assert.equal(res.status, 200);
        assert.equal(res.body.date, TODAY);
        const slots: Slot[] = res.body.available_appointments;
        assert.equal(slots.length, 16);
        assert.deepEqual(
          slots.slice(0, 4).map((s) => [s.start_time, s.status, s.period]),
          [
            ['09:00', 'past', 'AM'],
            ['09:30', 'past', 'AM'],
            ['10:00', 'past', 'AM'],
            ['10:30', 'available', 'AM'],
          ],
        );
        assert.deepEqual(
          present(
            slots.find((s) => s.start_time === '12:00'),
            'slot at 12:00',
          ).period,
          'PM',
        );
      });

      it('refuses a past date, one more than 60 days ahead and a malformed one', async () => {
        const doctor = await fx.doctor();
        const patient = only(await fx.patients(1));
        for (const [date, message] of [
          ['2026-06-09', 'must not be in the past'],
          ['2026-08-10', 'must be at most 60 days ahead'],
          ['10/06/2026', 'must be a date as yyyy-MM-dd'],
        ]) {
          const res = await server.api('GET', `/api/appointments/available/${doctor.id}?date=${date}`, {
            token: patient.token,
          });
          assert.equal(res.status, 422, date);
          assert.deepEqual(res.body.errors, { date: [message] });
        }
        assert.equal((await slotsOf(doctor.id, patient.token, '2026-08-09')).length, 0); // a Sunday, but in range
      });

      it('answers 404 for an unknown or deactivated doctor', async () => {
        const doctor = await fx.doctor();
        const patient = only(await fx.patients(1));
        await server.db.query('update doctors set active = false where id = $1', [doctor.id]);
        for (const id of [doctor.id, 999999, 'abc']) {
          const res = await server.api('GET', `/api/appointments/available/${id}`, { token: patient.token });
          assert.equal(res.status, 404, String(id));
          assert.equal(res.body.code, 'not_found');
        }
      });
    });

    describe('next available days', () => {
      const nextAvailable = (query: string, token?: string) =>
        server.api('GET', `/api/appointments/next-available?${query}`, { token });

      it("answers the first three days with a free slot, each with only its free slots, from today or from 'from'", async () => {
        const doctor = await fx.doctor('Dr. Thursday');
        const [patient, other] = two(await fx.patients(2));
        const week = {
          slots: [4, 5].flatMap((weekday) => [
            { weekday, start_time: '09:00', end_time: '09:30' },
            { weekday, start_time: '14:00', end_time: '14:30' },
          ]),
        };
        assert.equal((await setSchedule(doctor.id, week)).status, 200);
        for (const [token, start] of [
          [patient.token, '09:00'],
          [other.token, '14:00'],
        ] as const) {
          const slot = await slotAt(doctor.id, token, THURSDAY, start);
          assert.equal(
            (await book(token, { doctor_id: doctor.id, schedule_id: slot.schedule_id, date: THURSDAY })).status,
            201,
          );
        }
        const fridaySlot = await slotAt(doctor.id, patient.token, FRIDAY, '09:00');
        assert.equal(
          (await book(patient.token, { doctor_id: doctor.id, schedule_id: fridaySlot.schedule_id, date: FRIDAY }))
            .status,
          201,
        );

        const res = await nextAvailable(`doctor_id=${doctor.id}`, patient.token);
        assert.equal(res.status, 200);
        assert.equal(res.body.doctor_id, doctor.id);
        const days = res.body.days as { date: string; available_appointments: Slot[] }[];
        assert.deepEqual(
          days.map((day) => [
            day.date,
            day.available_appointments.map((s) => `${s.start_time} ${s.status} ${s.period}`),
          ]),
          [
            [FRIDAY, ['14:00 available PM']],
            ['2026-06-18', ['09:00 available AM', '14:00 available PM']],
            ['2026-06-19', ['09:00 available AM', '14:00 available PM']],
          ],
        );
        const later = await nextAvailable(`doctor_id=${doctor.id}&from=2026-06-19`, patient.token);
        assert.deepEqual(
          later.body.days.map((day: { date: string }) => day.date),
          ['2026-06-19', '2026-06-25', '2026-06-26'],
        );
      });

      it('refuses a missing doctor or a date outside the window, answers 404 for an unknown doctor and 401 signed out', async () => {
        const doctor = await fx.doctor();
        const patient = only(await fx.patients(1));
        const missing = await nextAvailable('', patient.token);
        assert.equal(missing.status, 422);
        assert.deepEqual(missing.body.errors, { doctor_id: ['is required'] });
        const past = await nextAvailable(`doctor_id=${doctor.id}&from=2026-06-09`, patient.token);
        assert.equal(past.status, 422);
        assert.deepEqual(past.body.errors, { from: ['must not be in the past'] });
        assert.equal((await nextAvailable('doctor_id=999999', patient.token)).status, 404);
        assert.equal((await nextAvailable(`doctor_id=${doctor.id}`)).status, 401);
      });
    });

    describe('booking', () => {
      it('books a free slot and copies date, times, department and room into the appointment', async () => {
        const department = await fx.department();
        const doctor = await fx.doctor('Dr. Booked', department.id);
        const patient = only(await fx.patients(1));
        const slot = await slotAt(doctor.id, patient.token, THURSDAY, '11:00');
        const res = await book(patient.token, { doctor_id: doctor.id, schedule_id: slot.schedule_id, date: THURSDAY });
        assert.equal(res.status, 201);
        assert.deepEqual(
          { ...res.body, id: undefined },
          {
            id: undefined,
            date: THURSDAY,
            start_time: '11:00',
            end_time: '11:30',
            status: 'scheduled',
            patient: { id: patient.patientId, name: patient.name, email: res.body.patient.email },
            doctor: { id: doctor.id, name: 'Dr. Booked', email: doctor.email },
            department: { id: department.id, name: department.name },
            room: { id: department.room.id, name: 'Room 101' },
            patient_name: patient.name,
            patient_email: res.body.patient.email,
            doctor_name: 'Dr. Booked',
            doctor_email: doctor.email,
            department_name: department.name,
            room_name: 'Room 101',
          },
        );
        assert.equal((await slotAt(doctor.id, patient.token, THURSDAY, '11:00')).status, 'booked');
      });

      it('refuses a second visit with one doctor on one day, and an 11th upcoming visit, with 409 booking_limit', async () => {
        const doctor = await fx.doctor('Dr. Capped');
        const patient = only(await fx.patients(1));
        const first = await slotAt(doctor.id, patient.token, THURSDAY, '09:00');
        assert.equal(
          (await book(patient.token, { doctor_id: doctor.id, schedule_id: first.schedule_id, date: THURSDAY })).status,
          201,
        );
        const second = await slotAt(doctor.id, patient.token, THURSDAY, '15:00');
        const refused = await book(patient.token, {
          doctor_id: doctor.id,
          schedule_id: second.schedule_id,
          date: THURSDAY,
        });
        assert.equal(refused.status, 409);
        assert.equal(refused.body.code, 'booking_limit');
        assert.match(refused.body.message, /already have an appointment with this doctor on that day/);

        const others = await Promise.all(Array.from({ length: 10 }, (_, i) => fx.doctor(`Dr. Other ${i}`)));
        const answers = [];
        for (const [i, other] of others.entries()) {
          const slot = await slotAt(
            other.id,
            patient.token,
            FRIDAY,
            `${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
          );
          answers.push(
            (await book(patient.token, { doctor_id: other.id, schedule_id: slot.schedule_id, date: FRIDAY })).body,
          );
        }
        assert.equal(answers.filter((a) => a.code === undefined).length, 9, 'nine more make ten upcoming');
        assert.equal(answers.at(-1)?.code, 'booking_limit');
      });

      it('refuses a taken slot with 409 slot_taken and an overlapping visit of the same patient with 409 patient_busy', async () => {
        const [first, second] = [await fx.doctor(), await fx.doctor()];
        const [patient, other] = two(await fx.patients(2));
        const slot = await slotAt(first.id, patient.token, THURSDAY, '14:00');
        assert.equal(
          (await book(patient.token, { doctor_id: first.id, schedule_id: slot.schedule_id, date: THURSDAY })).status,
          201,
        );

        const taken = await book(other.token, { doctor_id: first.id, schedule_id: slot.schedule_id, date: THURSDAY });
        assert.equal(taken.status, 409);
        assert.equal(taken.body.code, 'slot_taken');
        assert.equal(taken.body.message, 'This slot is no longer available');

        const sameTime = await slotAt(second.id, patient.token, THURSDAY, '14:00');
        const busy = await book(patient.token, {
          doctor_id: second.id,
          schedule_id: sameTime.schedule_id,
          date: THURSDAY,
        });
        assert.equal(busy.status, 409);
        assert.equal(busy.body.code, 'patient_busy');
      });

      it('refuses a slot of another doctor, of another weekday, a retired one and one that has started, with 422', async () => {
        const [doctor, other] = [await fx.doctor(), await fx.doctor()];
        const patient = only(await fx.patients(1));
        const othersSlot = await slotAt(other.id, patient.token, THURSDAY, '11:00');
        const thursdaySlot = await slotAt(doctor.id, patient.token, THURSDAY, '11:00');
        const startedSlot = await slotAt(doctor.id, patient.token, TODAY, '10:00');
        const cases: [Record<string, unknown>, string][] = [
          [
            { doctor_id: doctor.id, schedule_id: othersSlot.schedule_id, date: THURSDAY },
            "is not one of this doctor's current slots",
          ],
          [
            { doctor_id: doctor.id, schedule_id: thursdaySlot.schedule_id, date: FRIDAY },
            "is not a slot on 2026-06-12's weekday",
          ],
          [
            { doctor_id: doctor.id, schedule_id: startedSlot.schedule_id, date: TODAY },
            'has already started; choose a later slot',
          ],
        ];
        for (const [body, message] of cases) {
          const res = await book(patient.token, body);
          assert.equal(res.status, 422, message);
          assert.deepEqual(res.body.errors, { schedule_id: [message] });
        }

        await setSchedule(doctor.id, { days: [4], start_time: '08:00', end_time: '09:00', slot_minutes: 60 });
        const retired = await book(patient.token, {
          doctor_id: doctor.id,
          schedule_id: thursdaySlot.schedule_id,
          date: THURSDAY,
        });
        assert.equal(retired.status, 422);
        assert.deepEqual(retired.body.errors, { schedule_id: ["is not one of this doctor's current slots"] });
      });

      it('names every missing field, refuses dates outside the window, and answers 404 for an unknown doctor', async () => {
        const doctor = await fx.doctor();
        const patient = only(await fx.patients(1));
        const empty = await book(patient.token, {});
        assert.equal(empty.status, 422);
        assert.deepEqual(Object.keys(empty.body.errors).sort(), ['doctor_id', 'schedule_id']);

        const slot = await slotAt(doctor.id, patient.token, THURSDAY, '11:00');
        const far = await book(patient.token, {
          doctor_id: doctor.id,
          schedule_id: slot.schedule_id,
          date: '2026-08-13',
        });
        assert.equal(far.status, 422);
        assert.deepEqual(far.body.errors, { date: ['must be at most 60 days ahead'] });

        const unknown = await book(patient.token, { doctor_id: 999999, schedule_id: slot.schedule_id, date: THURSDAY });
        assert.equal(unknown.status, 404);
        assert.equal(unknown.body.code, 'not_found');
      });

      it('lets only patients book', async () => {
        const doctor = await fx.doctor();
        const res = await book(admin.token, { doctor_id: doctor.id, schedule_id: 1, date: THURSDAY });
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'forbidden');
      });

      it('shows a new slot booked when an appointment kept from the old pattern overlaps it, and refuses to book it', async () => {
        const doctor = await fx.doctor();
        const [patient, other] = two(await fx.patients(2));
        const old = await slotAt(doctor.id, patient.token, THURSDAY, '10:30');
        const booked = await book(patient.token, {
          doctor_id: doctor.id,
          schedule_id: old.schedule_id,
          date: THURSDAY,
        });
        assert.equal(booked.status, 201);

        await setSchedule(doctor.id, { days: [4], start_time: '10:00', end_time: '12:15', slot_minutes: 45 });
        const slots = await slotsOf(doctor.id, other.token, THURSDAY);
        assert.deepEqual(
          slots.map((s) => [s.start_time, s.status]),
          [
            ['10:00', 'booked'],
            ['10:45', 'booked'],
            ['11:30', 'available'],
          ],
        );
        const clash = await book(other.token, {
          doctor_id: doctor.id,
          schedule_id: at(slots, 1).schedule_id,
          date: THURSDAY,
        });
        assert.equal(clash.status, 409);
        assert.equal(clash.body.code, 'slot_taken');

        const mine = await server.api('GET', '/api/patient/appointments', { token: patient.token });
        assert.deepEqual(
          mine.body.appointments.map((a: AppointmentJson) => [a.id, a.start_time, a.end_time, a.status]),
          [[booked.body.id, '10:30', '11:00', 'scheduled']],
        );
      });

      itOnEveryEngine('lets exactly one of 50 concurrent bookings of one slot through', async () => {
        const doctor = await fx.doctor();
        const patients = await fx.patients(50);
        const slot = await slotAt(doctor.id, first(patients).token, THURSDAY, '15:00');
        const answers = await Promise.all(
          patients.map((p) => book(p.token, { doctor_id: doctor.id, schedule_id: slot.schedule_id, date: THURSDAY })),
        );
        // Every loser is told the slot is taken, or, when the machine is too slow for it to wait its turn within the
        // lock timeout, to try again later; either way exactly one booking exists.
        const outcomes = answers.map((a) => `${a.status} ${a.body.code ?? ''}`.trim());
        assert.equal(outcomes.filter((o) => o === '201').length, 1, outcomes.join(', '));
        assert.deepEqual(
          outcomes.filter((o) => o !== '201' && o !== '409 slot_taken' && o !== '503 database_busy'),
          [],
        );
        const { n } = only(
          await server.db.query<{ n: number }>(
            'select count(*)::int as n from appointments where doctor_id = $1 and date = $2',
            [doctor.id, THURSDAY],
          ),
        );
        assert.equal(n, 1);
      });
    });

    describe('cancelling', () => {
      it('frees the slot for someone else, and hides the appointment from other patients', async () => {
        const doctor = await fx.doctor();
        const [patient, other] = two(await fx.patients(2));
        const slot = await slotAt(doctor.id, patient.token, THURSDAY, '16:00');
        const booked = await book(patient.token, {
          doctor_id: doctor.id,
          schedule_id: slot.schedule_id,
          date: THURSDAY,
        });

        const notYours = await server.api('POST', `/api/patient/appointments/${booked.body.id}/cancel`, {
          token: other.token,
        });
        assert.equal(notYours.status, 404);
        assert.equal(notYours.body.code, 'not_found');
        const othersList = await server.api('GET', '/api/patient/appointments', { token: other.token });
        assert.deepEqual(othersList.body.appointments, []);

        const cancelled = await server.api('POST', `/api/patient/appointments/${booked.body.id}/cancel`, {
          token: patient.token,
        });
        assert.equal(cancelled.status, 200);
        assert.equal(cancelled.body.status, 'cancelled');
        assert.equal((await slotAt(doctor.id, other.token, THURSDAY, '16:00')).status, 'available');

        const rebooked = await book(other.token, {
          doctor_id: doctor.id,
          schedule_id: slot.schedule_id,
          date: THURSDAY,
        });
        assert.equal(rebooked.status, 201);
        const again = await server.api('POST', `/api/patient/appointments/${booked.body.id}/cancel`, {
          token: patient.token,
        });
        assert.equal(again.status, 409);
        assert.equal(again.body.code, 'invalid_transition');
      });

      it('refuses to cancel a completed appointment or, for a patient, one that has started', async () => {
        // Two doctors: one patient books one visit a day with each doctor at most.
        const [first, second] = [await fx.doctor(), await fx.doctor()];
        const patient = only(await fx.patients(1));
        const [completed, started] = await Promise.all(
          (
            [
              [first, '16:30'],
              [second, '10:00'],
            ] as const
          ).map(async ([doctor, start]) => {
            const slot = await slotAt(doctor.id, patient.token, THURSDAY, start);
            return (await book(patient.token, { doctor_id: doctor.id, schedule_id: slot.schedule_id, date: THURSDAY }))
              .body.id;
          }),
        );
        await server.db.query(`update appointments set status = 'completed' where id = $1`, [completed]);
        await server.db.query(`update appointments set date = $2 where id = $1`, [started, TODAY]);

        const done = await server.api('POST', `/api/patient/appointments/${completed}/cancel`, {
          token: patient.token,
        });
        assert.equal(done.status, 409);
        assert.equal(done.body.code, 'invalid_transition');
        const late = await server.api('POST', `/api/patient/appointments/${started}/cancel`, { token: patient.token });
        assert.equal(late.status, 409);
        assert.equal(late.body.code, 'appointment_started');

        const byAdmin = await server.api('POST', `/api/admin/appointments/${started}/cancel`, { token: admin.token });
        assert.equal(byAdmin.status, 200);
        assert.equal(byAdmin.body.status, 'cancelled');
        const completedByAdmin = await server.api('POST', `/api/admin/appointments/${completed}/cancel`, {
          token: admin.token,
        });
        assert.equal(completedByAdmin.status, 409);
        assert.equal(completedByAdmin.body.code, 'invalid_transition');
        const unknown = await server.api('POST', '/api/admin/appointments/999999/cancel', { token: admin.token });
        assert.equal(unknown.status, 404);
      });
    });

    describe('lists', () => {
      it("lists a patient's own appointments upcoming first, then past ones latest first", async () => {
        const doctor = await fx.doctor('Dr. Lister');
        const colleague = await fx.doctor('Dr. Colleague');
        const patient = only(await fx.patients(1));
        const ids: Record<string, number> = {};
        for (const [date, start, withDoctor] of [
          [FRIDAY, '09:00', doctor],
          [THURSDAY, '15:30', colleague],
          [THURSDAY, '09:00', doctor],
        ] as const) {
          const slot = await slotAt(withDoctor.id, patient.token, date, start);
          ids[`${date} ${start}`] = (
            await book(patient.token, { doctor_id: withDoctor.id, schedule_id: slot.schedule_id, date })
          ).body.id;
        }
        await server.db.query(
          `insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time, status)
           select $1, doctor_id, id, d::date, start_time, end_time, 'completed'
           from schedules, unnest(array['2026-06-01', '2026-06-08']) d
           where id = (select min(id) from schedules where doctor_id = $2 and weekday = 1)`,
          [patient.patientId, doctor.id],
        );
        const res = await server.api('GET', '/api/patient/appointments', { token: patient.token });
        assert.equal(res.status, 200);
        assert.equal(res.body.total, 5);
        assert.deepEqual(
          res.body.appointments.map((a: AppointmentJson) => `${a.date} ${a.start_time} ${a.status}`),
          [
            '2026-06-11 09:00 scheduled',
            '2026-06-11 15:30 scheduled',
            '2026-06-12 09:00 scheduled',
            '2026-06-08 09:00 completed',
            '2026-06-01 09:00 completed',
          ],
        );
        assert.equal(res.body.appointments[0].doctor_name, 'Dr. Lister');
        const paged = await server.api('GET', '/api/patient/appointments?per_page=2&page=2', { token: patient.token });
        assert.deepEqual(
          paged.body.appointments.map((a: AppointmentJson) => a.id),
          [ids[`${FRIDAY} 09:00`], res.body.appointments[3].id],
        );
      });

      it("lists only the doctor's own appointments, filtered by status and searched by patient name", async () => {
        const [doctor, other] = [await fx.doctor(), await fx.doctor()];
        const [ann, bob] = two(await fx.patients(2));
        await server.db.query(
          `update users set name = 'Ann Able' where id = (select user_id from patients where id = $1)`,
          [ann.patientId],
        );
        const bookAt = async (d: typeof doctor, p: typeof ann, start: string) => {
          const slot = await slotAt(d.id, p.token, THURSDAY, start);
          return (await book(p.token, { doctor_id: d.id, schedule_id: slot.schedule_id, date: THURSDAY })).body
            .id as number;
        };
        const annVisit = await bookAt(doctor, ann, '09:00');
        const bobVisit = await bookAt(doctor, bob, '09:30');
        await bookAt(other, ann, '11:00');
        await server.api('POST', `/api/patient/appointments/${bobVisit}/cancel`, { token: bob.token });

        const { token } = await doctor.signIn();
        const all = await server.api('GET', '/api/doctor/appointments', { token });
        assert.deepEqual(
          all.body.appointments.map((a: AppointmentJson) => a.id),
          [annVisit, bobVisit],
        );
        const scheduled = await server.api('GET', '/api/doctor/appointments?status=scheduled', { token });
        assert.deepEqual(
          scheduled.body.appointments.map((a: AppointmentJson) => a.id),
          [annVisit],
        );
        const searched = await server.api('GET', '/api/doctor/appointments?q=ann%20ab', { token });
        assert.deepEqual(
          searched.body.appointments.map((a: AppointmentJson) => [a.id, a.patient_name]),
          [[annVisit, 'Ann Able']],
        );
        const badStatus = await server.api('GET', '/api/doctor/appointments?status=lost', { token });
        assert.equal(badStatus.status, 422);
        assert.deepEqual(Object.keys(badStatus.body.errors), ['status']);
      });

      it("shows the doctor's agenda: today's visits in time order, which can be recorded now, and the week around it", async () => {
        const [doctor, other] = [await fx.doctor('Dr. Agenda'), await fx.doctor()];
        const [ann, bob, cy] = await fx.patients(3);
        assert.ok(ann && bob && cy);
        const bookAt = async (d: typeof doctor, p: typeof ann, date: string, start: string) => {
          const slot = await slotAt(d.id, p.token, date, start);
          const res = await book(p.token, { doctor_id: d.id, schedule_id: slot.schedule_id, date });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          return res.body.id as number;
        };
        const later = await bookAt(doctor, bob, TODAY, '11:00');
        const cancelled = await bookAt(doctor, cy, TODAY, '11:30');
        await server.api('POST', `/api/patient/appointments/${cancelled}/cancel`, { token: cy.token });
        const thursday = await bookAt(doctor, ann, THURSDAY, '09:00');
        await bookAt(other, ann, TODAY, '12:00');
        // A visit of this morning that has begun (no one can book a slot that has started).
        const [begun] = await server.db.query<{ id: number }>(
          `insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time)
           select $1, doctor_id, id, $3, start_time, end_time from schedules where doctor_id = $2 and weekday = 3 and start_time = '09:00'
           returning id`,
          [ann.patientId, doctor.id, TODAY],
        );
        assert.ok(begun);

        const { token } = await doctor.signIn();
        const day = await server.api('GET', '/api/doctor/agenda', { token });
        assert.equal(day.status, 200, JSON.stringify(day.body));
        const { view, date, today: clinicToday, previous, next } = day.body;
        assert.deepEqual(
          { view, date, clinicToday, previous, next },
          { view: 'day', date: TODAY, clinicToday: TODAY, previous: '2026-06-09', next: THURSDAY },
        );
        const today = only(day.body.days as { date: string; visits: Record<string, unknown>[] }[]);
        assert.deepEqual(
          today.visits.map((v) => [v.id, v.start_time, v.patient_name, v.status, v.has_started, v.can_record]),
          [
            [begun.id, '09:00', ann.name, 'scheduled', true, true],
            [later, '11:00', bob.name, 'scheduled', false, false],
          ],
        );

        const week = await server.api('GET', `/api/doctor/agenda?view=week&date=${THURSDAY}`, { token });
        assert.equal(week.status, 200);
        assert.deepEqual([week.body.previous, week.body.next], ['2026-06-04', '2026-06-18']);
        const days = week.body.days as { date: string; visits: { id: number }[] }[];
        assert.deepEqual(
          days.map((d) => d.date),
          ['2026-06-08', '2026-06-09', TODAY, THURSDAY, FRIDAY, '2026-06-13', '2026-06-14'],
        );
        assert.deepEqual(
          days.map((d) => d.visits.map((v) => v.id)),
          [[], [], [begun.id, later], [thursday], [], [], []],
        );

        const audited = await server.db.query<{ n: number }>(
          `select count(*)::int as n from audit_log where action = 'list' and entity = 'appointment' and details->>'view' = 'week'`,
        );
        assert.equal(first(audited).n, 1);

        const badDate = await server.api('GET', '/api/doctor/agenda?date=2026-13-01', { token });
        assert.equal(badDate.status, 422);
        assert.deepEqual(Object.keys(badDate.body.errors), ['date']);
        const badView = await server.api('GET', '/api/doctor/agenda?view=month', { token });
        assert.equal(badView.status, 422);
        assert.deepEqual(Object.keys(badView.body.errors), ['view']);
        assert.equal((await server.api('GET', '/api/doctor/agenda', { token: ann.token })).status, 403);
        assert.equal((await server.api('GET', '/api/doctor/agenda', { token: admin.token })).status, 403);
      });
    });

    it('keeps one booking when two server instances on one database race for a slot', {
      skip: target.name !== 'postgres' && 'needs a PostgreSQL server',
    }, async () => {
      const secondDb = await openPostgres(present(server.databaseUrl, 'database URL'));
      const second = createMedoraServer(makeApp({ db: secondDb, clock: fixedClock(NOW), config: server.app.config }), {
        log: () => {},
      });
      await new Promise<void>((resolve) => second.listen(0, '127.0.0.1', resolve));
      try {
        const doctor = await fx.doctor();
        const patients = await fx.patients(20);
        const slot = await slotAt(doctor.id, first(patients).token, FRIDAY, '13:00');
        const urls = [server.url, `http://127.0.0.1:${(second.address() as AddressInfo).port}`];
        const answers = await Promise.all(
          patients.map(async (p, i) => {
            const res = await fetch(`${urls[i % 2]}/api/appointments/book`, {
              method: 'POST',
              headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ doctor_id: doctor.id, schedule_id: slot.schedule_id, date: FRIDAY }),
            });
            return res.status;
          }),
        );
        assert.deepEqual(answers.sort(), [201, ...Array(19).fill(409)]);
        const { n } = only(
          await server.db.query<{ n: number }>(
            `select count(*)::int as n from appointments where doctor_id = $1 and date = $2 and status <> 'cancelled'`,
            [doctor.id, FRIDAY],
          ),
        );
        assert.equal(n, 1);
      } finally {
        await closeGracefully(second, 1000);
        await secondDb.close();
      }
    });
  });
}
