import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { eventUid } from '../domain/notifications/ics.ts';
import { fixedClock } from '../domain/shared/clock.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { startTestServer, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { assertRoutesAnswerByAccess } from '../testing/route-access.ts';

const ZONE = 'Europe/Berlin';
const CLINIC = { name: 'Lakeside Clinic', timeZone: ZONE, locale: 'en-US', mailFrom: 'no-reply@medora.local' };

/** The file's one event, read as a calendar application reads it: through the file's own VTIMEZONE. */
function onlyEvent(text: string): ICAL.Event {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const events = calendar.getAllSubcomponents('vevent');
  assert.equal(events.length, 1);
  assert.equal(calendar.getFirstPropertyValue('method'), null, 'a file to add, not an invitation to answer');
  return new ICAL.Event(events[0]);
}

for (const target of testDatabases('one')) {
  describe(`a patient's booking helpers on ${target.name}`, () => {
    let server: TestServer;
    let fixtures: ReturnType<typeof clinicFixtures>;
    let doctor: Awaited<ReturnType<ReturnType<typeof clinicFixtures>['doctor']>>;
    let mia: Awaited<ReturnType<ReturnType<typeof clinicFixtures>['patient']>>;
    let otto: Awaited<ReturnType<ReturnType<typeof clinicFixtures>['patient']>>;
    const visits: Record<string, number> = {};

    before(async () => {
      // Wednesday 20 March 2030, 11:00 in Berlin.
      server = await startTestServer(target, {
        clock: fixedClock('2030-03-20T10:00:00Z'),
        clinicTz: ZONE,
        clinicName: CLINIC.name,
      });
      fixtures = clinicFixtures(server);
      doctor = await fixtures.doctor('Dr. Ada Lovelace');
      mia = await fixtures.patient('Mia Meyer');
      otto = await fixtures.patient('Otto Other');
      visits.coming = await fixtures.appointment({
        doctor,
        patientId: mia.patientId,
        date: '2030-03-25',
        start: '10:00',
      });
      visits.today = await fixtures.appointment({
        doctor,
        patientId: mia.patientId,
        date: '2030-03-20',
        start: '08:00',
      });
      visits.cancelled = await fixtures.appointment({
        doctor,
        patientId: mia.patientId,
        date: '2030-03-27',
        status: 'cancelled',
        start: '10:00',
      });
      visits.completed = await fixtures.appointment({
        doctor,
        patientId: mia.patientId,
        date: '2030-03-18',
        status: 'completed',
        start: '10:00',
      });
      visits.forgotten = await fixtures.appointment({
        doctor,
        patientId: mia.patientId,
        date: '2030-03-11',
        start: '10:00',
      });
      visits.otto = await fixtures.appointment({
        doctor,
        patientId: otto.patientId,
        date: '2030-03-25',
        start: '11:00',
      });
    });
    after(() => server.close());

    const calendarOf = (id: number, token: string) =>
      fetch(`${server.url}/api/patient/appointments/${id}/calendar.ics`, {
        headers: { authorization: `Bearer ${token}` },
      });

    it("answers the patient's own appointment as the invitation's event, at its instant in the clinic's zone", async () => {
      const res = await calendarOf(visits.coming ?? 0, mia.token);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/calendar/);
      assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="appointment\.ics"/);
      const event = onlyEvent(await res.text());
      assert.equal(event.uid, eventUid(visits.coming ?? 0, CLINIC));
      assert.equal(event.summary, 'Appointment with Dr. Ada Lovelace');
      assert.equal(event.startDate.toJSDate().toISOString(), '2030-03-25T09:00:00.000Z');
      assert.equal(event.endDate.toJSDate().toISOString(), '2030-03-25T09:30:00.000Z');
      assert.equal(event.component.getFirstPropertyValue('status'), 'CONFIRMED');
      assert.match(event.location, /^Lakeside Clinic/);
      assert.equal(event.attendees.length, 1);
    });

    it('marks a cancelled appointment cancelled', async () => {
      const res = await calendarOf(visits.cancelled ?? 0, mia.token);
      assert.equal(res.status, 200);
      assert.equal(onlyEvent(await res.text()).component.getFirstPropertyValue('status'), 'CANCELLED');
    });

    it("answers 404 for another patient's appointment and for none, and refuses staff", async () => {
      assert.equal((await calendarOf(visits.otto ?? 0, mia.token)).status, 404);
      assert.equal((await calendarOf(999_999, mia.token)).status, 404);
      assert.equal((await calendarOf(visits.coming ?? 0, doctor.token)).status, 403);
      const refused = await server.db.query(
        `select 1 from audit_log where action = 'refused' and entity = 'appointment' and entity_id = $1`,
        [visits.otto],
      );
      assert.equal(refused.length, 1);
    });

    it("splits the patient's appointments into those to come and past ones", async () => {
      const ids = async (when: string) => {
        const res = await server.api('GET', `/api/patient/appointments?when=${when}`, { token: mia.token });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return (res.body.appointments as { id: number }[]).map((a) => a.id);
      };
      assert.deepEqual(await ids('upcoming'), [visits.today, visits.coming]);
      assert.deepEqual(await ids('past'), [visits.cancelled, visits.completed, visits.forgotten]);
      assert.equal((await server.api('GET', '/api/patient/appointments?when=soon', { token: mia.token })).status, 422);
    });

    it("gives each doctor of the patient's list the first free time that next-available gives", async () => {
      const list = await server.api('GET', '/api/patient/doctors', { token: mia.token });
      assert.equal(list.status, 200, JSON.stringify(list.body));
      const ada = (list.body.doctors as { id: number; next_free?: unknown }[]).find((d) => d.id === doctor.doctorId);
      const next = await server.api('GET', `/api/appointments/next-available?doctor_id=${doctor.doctorId}`, {
        token: mia.token,
      });
      const [day] = next.body.days as {
        date: string;
        available_appointments: { start_time: string; end_time: string }[];
      }[];
      assert.ok(day, 'the doctor has a free day');
      const [slot] = day.available_appointments;
      assert.deepEqual(ada?.next_free, { date: day.date, start_time: slot?.start_time, end_time: slot?.end_time });
    });

    it("answers a doctor's month in one read: free days counted, closed days with why, the window's months", async () => {
      await server.db.query(
        `insert into time_off (doctor_id, starts_on, ends_on, reason) values
           (null, '2030-04-01', '2030-04-01', 'Easter Monday'), ($1, '2030-04-08', '2030-04-09', 'Private')`,
        [doctor.doctorId],
      );
      const month = async (query: string) => {
        const res = await server.api('GET', `/api/appointments/month/${doctor.doctorId}${query}`, { token: mia.token });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body;
      };
      const march = await month('');
      assert.equal(march.month, '2030-03');
      assert.deepEqual([march.today, march.last_bookable], ['2030-03-20', '2030-05-19']);
      assert.deepEqual([march.previous, march.next], [null, '2030-04-01']);
      const day = (answer: typeof march, date: string) =>
        (answer.days as { date: string; state: string; closed: unknown }[]).find((d) => d.date === date);
      assert.equal(march.days.length, 31);
      assert.deepEqual(day(march, '2030-03-18'), { date: '2030-03-18', state: 'outside', free: 0, closed: null });
      assert.deepEqual(day(march, '2030-03-20'), { date: '2030-03-20', state: 'off', free: 0, closed: null });
      assert.deepEqual(day(march, '2030-03-25'), { date: '2030-03-25', state: 'open', free: 1, closed: null });
      const april = await month('?month=2030-04-17');
      assert.equal(april.month, '2030-04');
      assert.deepEqual([april.previous, april.next], ['2030-03-01', '2030-05-01']);
      assert.deepEqual(day(april, '2030-04-01')?.closed, { kind: 'closure', name: 'Easter Monday' });
      assert.deepEqual(day(april, '2030-04-08'), {
        date: '2030-04-08',
        state: 'closed',
        free: 0,
        closed: { kind: 'leave', name: null },
      });
      assert.equal(day(april, '2030-04-15')?.state, 'open');
      assert.equal((await month('?month=2030-05-01')).next, null);
      for (const query of ['?month=2030-06-01', '?month=2030-02-28', '?month=March']) {
        const refused = await server.api('GET', `/api/appointments/month/${doctor.doctorId}${query}`, {
          token: mia.token,
        });
        assert.equal(refused.status, 422, query);
        assert.ok(refused.body.errors.month, JSON.stringify(refused.body));
      }
      assert.equal((await server.api('GET', '/api/appointments/month/999999', { token: mia.token })).status, 404);
    });

    it('answers the month route to each identity as its access says', async () => {
      const { schedulingRoutes } = await import('./routes/scheduling.ts');
      const routes = schedulingRoutes(server.app).filter((r) => r.path === '/api/appointments/month/{doctorId}');
      assert.equal(routes.length, 1);
      const identities = { none: undefined, patient: mia.token, doctor: doctor.token };
      assert.equal(await assertRoutesAnswerByAccess(server, routes, identities), 3);
    });
  });
}
