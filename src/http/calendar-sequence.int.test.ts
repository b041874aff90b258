import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';
import type { Clock } from '../domain/shared/clock.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { sendDue } from '../testing/send-due.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';

const ZONE = 'Europe/Berlin';

/** A "now" each step moves on a little, so every message has a DTSTAMP of its own. */
function movableClock(iso: string): Clock & { advance(minutes: number): void } {
  let now = new Date(iso);
  return {
    now: () => now,
    advance: (minutes) => {
      now = new Date(now.getTime() + minutes * 60_000);
    },
  };
}

/** Every VEVENT of a calendar file as ical.js reads it: its UID, the file's METHOD, STATUS and SEQUENCE. */
function eventsOf(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const method = calendar.getFirstPropertyValue('method');
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      method: method === null ? null : String(method),
      status: String(vevent.getFirstPropertyValue('status')),
      sequence: event.sequence,
    };
  });
}

const calendarFiles = (mail: ParsedMail) =>
  mail.attachments.filter((a) => a.contentType.startsWith('text/calendar')).map((a) => a.content.toString('utf8'));

for (const target of testDatabases('one')) {
  describe(`calendar SEQUENCE across a visit's changes on ${target.name}`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    const clock = movableClock('2030-03-20T10:00:00Z'); // Wednesday 11:00 in Berlin

    before(async () => {
      server = await startTestServer(target, { clock, clinicTz: ZONE, clinicName: 'Lakeside Clinic' });
      smtp = await startTestSmtp();
    });
    after(async () => {
      await smtp?.close();
      await server?.close();
    });

    it('counts 0, 1, 2, 3 over booking, two moves and the cancellation, in each e-mail and in the feed', async () => {
      const fixtures = clinicFixtures(server);
      const doctor = await fixtures.doctor('Dr. Ada Lovelace'); // one weekly slot, Monday 09:00
      const patient = await fixtures.patient('Mia Meyer');
      const admin = await signUpAdmin(server);
      const feed = await server.api('POST', '/api/user/calendar-feed', { token: patient.token });
      assert.equal(feed.status, 201, JSON.stringify(feed.body));
      const feedUrl = String(feed.body.url);
      await sendDue(server.db, smtp.url, clock);

      /** The one calendar file this step e-mailed to the patient, and the feed's event of the same UID. */
      const afterStep = async () => {
        smtp.received.length = 0;
        await sendDue(server.db, smtp.url, clock);
        const files = smtp.received
          .filter((m) => !Array.isArray(m.to) && m.to?.value[0]?.address === patient.user.email)
          .flatMap(calendarFiles);
        assert.equal(files.length, 1, `one calendar file, got ${files.length}`);
        const [mailed] = eventsOf(files[0] ?? '');
        assert.ok(mailed);
        const res = await fetch(feedUrl);
        assert.equal(res.status, 200);
        const inFeed = eventsOf(await res.text()).find((e) => e.uid === mailed.uid);
        assert.ok(inFeed, `the feed has ${mailed.uid}`);
        clock.advance(5);
        return { mailed: [mailed.method, mailed.status, mailed.sequence], feed: [inFeed.status, inFeed.sequence] };
      };

      const booked = await server.api('POST', '/api/appointments/book', {
        token: patient.token,
        body: { doctor_id: doctor.doctorId, schedule_id: doctor.scheduleId, date: '2030-03-25' },
      });
      assert.equal(booked.status, 201, JSON.stringify(booked.body));
      const id = Number(booked.body.id);
      assert.deepEqual(await afterStep(), { mailed: ['REQUEST', 'CONFIRMED', 0], feed: ['CONFIRMED', 0] });

      const byPatient = await server.api('POST', `/api/appointments/${id}/reschedule`, {
        token: patient.token,
        body: { schedule_id: doctor.scheduleId, date: '2030-04-01' },
      });
      assert.equal(byPatient.status, 200, JSON.stringify(byPatient.body));
      assert.deepEqual(await afterStep(), { mailed: ['REQUEST', 'CONFIRMED', 1], feed: ['CONFIRMED', 1] });

      const byAdmin = await server.api('POST', `/api/appointments/${id}/reschedule`, {
        token: admin.token,
        body: { schedule_id: doctor.scheduleId, date: '2030-04-08' },
      });
      assert.equal(byAdmin.status, 200, JSON.stringify(byAdmin.body));
      assert.deepEqual(await afterStep(), { mailed: ['REQUEST', 'CONFIRMED', 2], feed: ['CONFIRMED', 2] });

      const cancelled = await server.api('POST', `/api/patient/appointments/${id}/cancel`, { token: patient.token });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      assert.deepEqual(await afterStep(), { mailed: ['CANCEL', 'CANCELLED', 3], feed: ['CANCELLED', 3] });
    });

    it('leaves the sequence alone when a visit is checked in and completed, which the patient is not told of', async () => {
      const fixtures = clinicFixtures(server);
      const doctor = await fixtures.doctor('Dr. Grey');
      const patient = await fixtures.patient('Noah Neumann');
      const id = await fixtures.appointment({ doctor, patientId: patient.patientId, date: '2030-03-25' });
      await server.db.query(`update appointments set status = 'checked_in' where id = $1`, [id]);
      await server.db.query(`update appointments set status = 'completed' where id = $1`, [id]);
      const [row] = await server.db.query<{ sequence: number }>('select sequence from appointments where id = $1', [
        id,
      ]);
      assert.equal(row?.sequence, 0);
    });
  });
}
