import { after, before, beforeEach, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';
import { openPostgres } from '../db/postgres.ts';
import { outboxQueue } from '../db/outbox.pg.ts';
import { clinicInstant, type Clock } from '../domain/shared/clock.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { messageLink } from './start.ts';
import { smtpTransport } from './smtp.ts';
import { NO_MAIL_SERVER, startOutboxWorker, type OutboxWorker } from './worker.ts';

const ZONE = 'Europe/Berlin';
/** A movable "now": Wednesday 2030-03-20, 11:00 in Berlin, before the clocks go forward on Sunday 31 March. */
function movableClock(iso = '2030-03-20T10:00:00Z'): Clock & { set(iso: string): void } {
  let now = new Date(iso);
  return {
    now: () => now,
    set: (next) => {
      now = new Date(next);
    },
  };
}

/** The VEVENT of a message's calendar attachment, with the method of its calendar. */
function calendarOf(mail: ParsedMail): { method: string; event: ICAL.Event } {
  const file = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  assert.ok(file, `a calendar file in "${mail.subject}"`);
  const calendar = new ICAL.Component(ICAL.parse(file.content.toString('utf8')));
  // Registering the file's own VTIMEZONE is how a calendar application reads the event's local times.
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const vevent = calendar.getFirstSubcomponent('vevent');
  assert.ok(vevent);
  return { method: String(calendar.getFirstPropertyValue('method')), event: new ICAL.Event(vevent) };
}

for (const target of testDatabases('one')) {
  describe(`e-mail through a real SMTP server on ${target.name}`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    let clock: ReturnType<typeof movableClock>;
    let worker: OutboxWorker;
    let fixtures: ReturnType<typeof clinicFixtures>;

    before(async () => {
      clock = movableClock();
      server = await startTestServer(target, { clock, clinicTz: ZONE, clinicName: 'Lakeside Clinic' });
      smtp = await startTestSmtp();
      fixtures = clinicFixtures(server);
    });
    after(async () => {
      // Either is missing when the before hook failed; the other is still closed.
      await smtp?.close();
      await server?.close();
    });
    beforeEach(async () => {
      clock.set('2030-03-20T10:00:00Z');
      smtp.received.length = 0;
      smtp.verdict = () => ({ accept: true });
      // Whatever earlier tests left due is sent now, so each test sees its own messages alone.
      worker = workerOf(smtp.url);
      while ((await worker.runOnce()) > 0);
      smtp.received.length = 0;
    });

    const workerOf = (url: string | undefined, retry = { baseDelayMs: 1000, maxDelayMs: 60_000, maxAttempts: 4 }) =>
      startOutboxWorker(
        {
          queue: outboxQueue(server.db),
          transport: url ? smtpTransport(url) : undefined,
          clock,
          from: '"Lakeside Clinic" <desk@lakeside.test>',
          linkFor: (kind, token) => messageLink('https://lakeside.test', kind, token),
          pollMs: 1000,
          leaseMs: 60_000,
          retry,
        },
        { poll: false },
      );

    async function booked(date: string) {
      const doctor = await fixtures.doctor('Dr. Ada Lovelace');
      const patient = await fixtures.patient('Mia Meyer');
      // The sign-up's verification message goes first, so each test sees the booking's messages alone.
      await worker.runOnce();
      smtp.received.length = 0;
      const res = await server.api('POST', '/api/appointments/book', {
        token: patient.token,
        body: { doctor_id: doctor.doctorId, schedule_id: doctor.scheduleId, date },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return { doctor, patient, appointmentId: res.body.id as number };
    }

    it('sends one confirmation per booking whose calendar file is at the right instant, on both sides of a DST change', async () => {
      for (const [date, utc] of [
        ['2030-03-25', '2030-03-25T08:00:00.000Z'], // Monday, winter time (UTC+1)
        ['2030-04-01', '2030-04-01T07:00:00.000Z'], // Monday, summer time (UTC+2)
      ] as const) {
        smtp.received.length = 0;
        const { patient } = await booked(date);
        await worker.runOnce();
        await worker.runOnce();
        const confirmations = smtp.received.filter((m) => /^Your appointment on/.test(m.subject ?? ''));
        assert.equal(confirmations.length, 1, `exactly one confirmation for ${date}`);
        const [mail] = confirmations;
        assert.ok(mail);
        assert.equal(mail.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined, patient.email);
        assert.match(mail.text ?? '', /Dr\. Ada Lovelace .* at 9:00 AM \(until 9:30 AM\)/);
        assert.match(mail.text ?? '', /Lakeside Clinic\s*$/, 'signed with the clinic name');
        const { method, event } = calendarOf(mail);
        assert.equal(method, 'REQUEST');
        assert.equal(event.startDate.toJSDate().toISOString(), utc);
        assert.equal(event.startDate.toJSDate().toISOString(), clinicInstant(date, '09:00', ZONE).toISOString());
        assert.equal(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime(), 30 * 60_000);
      }
    });

    it('tells the patient (withdrawing the calendar event) and the doctor of a cancellation, and withdraws the reminder', async () => {
      const { patient, appointmentId } = await booked('2030-03-25');
      const cancelled = await server.api('POST', `/api/patient/appointments/${appointmentId}/cancel`, {
        token: patient.token,
      });
      assert.equal(cancelled.status, 200);
      await worker.runOnce();
      const subjects = smtp.received.map((m) => m.subject).sort();
      // The confirmation not sent yet is withdrawn with the reminder: the patient hears only of the cancellation.
      assert.deepEqual(subjects, [
        'Cancelled: Mia Meyer on Monday, March 25, 2030 at 9:00 AM',
        'Cancelled: your appointment on Monday, March 25, 2030 at 9:00 AM',
      ]);
      const toPatient = smtp.received.find((m) => m.subject?.startsWith('Cancelled: your'));
      assert.ok(toPatient);
      const { method, event } = calendarOf(toPatient);
      assert.equal(method, 'CANCEL');
      assert.equal(event.component.getFirstPropertyValue('status'), 'CANCELLED');
      const rows = await server.db.query<{ status: string }>(
        `select status from outbox where appointment_id = $1 and kind = 'reminder'`,
        [appointmentId],
      );
      assert.deepEqual(
        rows.map((r) => r.status),
        ['cancelled'],
      );
    });

    it('reminds a verified patient once, REMINDER_HOURS before, with a link that cancels', async () => {
      const { patient } = await booked('2030-03-25');
      await server.db.query('update users set email_verified_at = now() where id = $1', [patient.user.id]);
      await worker.runOnce();
      smtp.received.length = 0;
      clock.set('2030-03-24T07:59:00Z'); // 24 h 1 min before 09:00 Berlin
      assert.equal(await worker.runOnce(), 0, 'not due yet');
      clock.set('2030-03-24T08:00:00Z');
      await worker.runOnce();
      await worker.runOnce();
      assert.equal(smtp.received.length, 1);
      const [mail] = smtp.received;
      assert.match(mail?.subject ?? '', /^Reminder: your appointment on Monday, March 25, 2030 at 9:00 AM/);
      assert.match(
        mail?.text ?? '',
        /Cancel this appointment: https:\/\/lakeside\.test\/appointments\/cancel#token=[\w-]+/,
      );
      const stored = await server.db.query<{ text_body: string }>(
        `select text_body from outbox where kind = 'reminder' and status = 'sent'`,
      );
      assert.ok(
        stored.every((m) => m.text_body.includes('{{link}}')),
        'the stored body keeps the placeholder, never the token',
      );
    });

    it('skips the reminder of an unverified address or of a patient who turned reminders off', async () => {
      await booked('2030-03-25');
      await worker.runOnce();
      smtp.received.length = 0;
      clock.set('2030-03-24T09:00:00Z');
      await worker.runOnce();
      assert.equal(smtp.received.length, 0);
      const [row] = await server.db.query<{ status: string }>(
        `select status from outbox where kind = 'reminder' order by id desc limit 1`,
      );
      assert.equal(row?.status, 'skipped');
    });

    it('tries again after 451 twice and delivers on the third attempt', async () => {
      await booked('2030-03-25');
      let refused = 0;
      smtp.verdict = () =>
        refused++ < 2 ? { accept: false, code: 451, message: 'Try again later' } : { accept: true };
      await worker.runOnce();
      assert.equal(smtp.received.length, 0);
      let [row] = await server.db.query<{ status: string; attempts: number; last_error: string }>(
        `select status, attempts, last_error from outbox where kind = 'booking_confirmation' order by id desc limit 1`,
      );
      assert.equal(row?.status, 'pending');
      assert.match(row?.last_error ?? '', /451/);
      clock.set('2030-03-20T10:00:01Z');
      await worker.runOnce();
      assert.equal(smtp.received.length, 0, 'the second attempt, a second later, is refused again');
      clock.set('2030-03-20T10:00:04Z');
      await worker.runOnce();
      assert.equal(smtp.received.length, 1);
      [row] = await server.db.query(
        `select status, attempts, last_error from outbox where kind = 'booking_confirmation' order by id desc limit 1`,
      );
      assert.deepEqual({ status: row?.status, attempts: row?.attempts }, { status: 'sent', attempts: 3 });
    });

    it('dead-letters a message the server always rejects, and the Messages list shows why', async () => {
      const { patient } = await booked('2030-03-25');
      smtp.verdict = () => ({ accept: false, code: 550, message: 'No such mailbox here' });
      await worker.runOnce();
      const admin = await signUpAdmin(server);
      const list = await server.api('GET', `/api/admin/messages?status=dead&q=${encodeURIComponent(patient.email)}`, {
        token: admin.token,
      });
      assert.equal(list.status, 200);
      const [dead] = list.body.messages;
      assert.equal(dead.kind, 'booking_confirmation');
      assert.equal(dead.attempts, 1);
      assert.match(dead.last_error, /given up after 1 attempt\(s\): .*550.*No such mailbox here/);
      assert.deepEqual(dead.attachments, ['appointment.ics']);
      assert.equal((await server.api('GET', '/api/admin/messages?status=lost', { token: admin.token })).status, 422);
      assert.equal((await server.api('GET', '/api/admin/messages', { token: patient.token })).status, 403);
    });

    it('without a mail server keeps every message, marked not sent', async () => {
      await booked('2030-03-25');
      await workerOf(undefined).runOnce();
      const rows = await server.db.query<{ status: string; last_error: string }>(
        `select status, last_error from outbox where kind = 'booking_confirmation' order by id desc limit 1`,
      );
      assert.deepEqual(rows, [{ status: 'not_sent', last_error: NO_MAIL_SERVER }]);
    });

    it('sends a due reminder once when two servers on one database race for it', {
      skip: target.name !== 'postgres' && 'needs two connections',
    }, async () => {
      const { patient } = await booked('2030-03-25');
      await server.db.query('update users set email_verified_at = now() where id = $1', [patient.user.id]);
      await worker.runOnce();
      smtp.received.length = 0;
      clock.set('2030-03-24T09:00:00Z');
      // A second instance: its own connections to the same database, its own worker.
      const other = await openPostgres(server.databaseUrl ?? '', { max: 4 });
      try {
        const workers = [worker, startOutboxWorker({ ...optionsFor(other), clock }, { poll: false })];
        await Promise.all(Array.from({ length: 6 }, (_, i) => workers[i % 2]?.runOnce()));
        assert.equal(smtp.received.filter((m) => m.subject?.startsWith('Reminder')).length, 1);
      } finally {
        await other.close();
      }
    });

    /** The token of the link in the newest message to `email` whose subject matches. */
    const linkIn = async (email: string, subject: RegExp) => {
      await worker.runOnce();
      const mail = [...smtp.received]
        .reverse()
        .find(
          (m) => subject.test(m.subject ?? '') && (m.text ?? '').length > 0 && JSON.stringify(m.to).includes(email),
        );
      assert.ok(mail, `a message "${subject}" to ${email}`);
      const token = /#token=([\w%-]+)/.exec(mail.text ?? '')?.[1];
      assert.ok(token, mail.text);
      return decodeURIComponent(token);
    };

    it('sends a reset link for "Forgot password" without saying whether the address has an account', async () => {
      const patient = await fixtures.patient('Rosa Reset');
      const known = await server.api('POST', '/api/password-reset-requests', {
        body: { email: patient.email.toUpperCase() },
      });
      const unknown = await server.api('POST', '/api/password-reset-requests', {
        body: { email: 'nobody-here@example.test' },
      });
      assert.equal(known.status, 202);
      assert.deepEqual(known.body, unknown.body);
      const token = await linkIn(patient.email, /^Choose a new password/);
      assert.equal(
        smtp.received.filter((m) => /new password/.test(m.subject ?? '')).length,
        1,
        'nothing to the unknown address',
      );
      const reset = await server.api('POST', '/api/password-reset', {
        body: { token, password: 'rosa picked a new one' },
      });
      assert.equal(reset.status, 200);
      assert.equal((await server.api('GET', '/api/user', { token: patient.token })).status, 401, 'old sessions end');
      assert.equal(
        (await server.api('POST', '/api/login', { body: { email: patient.email, password: 'rosa picked a new one' } }))
          .status,
        200,
      );
      const stored = await server.db.query<{ text_body: string }>(
        `select text_body from outbox where kind = 'password_reset'`,
      );
      assert.ok(
        stored.every((m) => !m.text_body.includes(token)),
        'the token is never stored in the message',
      );
    });

    it('throttles reset requests per account and address', async () => {
      const patient = await fixtures.patient('Tina Throttle');
      const ask = () =>
        server.api('POST', '/api/password-reset-requests', {
          body: { email: patient.email },
          headers: { 'x-forwarded-for': '203.0.113.9' },
        });
      for (let i = 0; i < 3; i++) assert.equal((await ask()).status, 202);
      const refused = await ask();
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    });

    it('verifies a new sign-up by its link, after which reminders go to it', async () => {
      const patient = await fixtures.patient('Vera Verify');
      const profile = async () =>
        (await server.api('GET', '/api/patient/profile', { token: patient.token })).body.patient;
      assert.equal((await profile()).email_verified, false);
      const token = await linkIn(patient.email, /^Confirm your e-mail address/);
      const verified = await server.api('POST', '/api/email-verification', { body: { token } });
      assert.equal(verified.status, 200);
      assert.equal((await profile()).email_verified, true);
      assert.equal(
        (await server.api('POST', '/api/email-verification', { body: { token } })).status,
        422,
        'a link works once',
      );
    });

    it("cancels from the reminder's link after showing the visit, once", async () => {
      const { patient, appointmentId } = await booked('2030-03-25');
      await server.db.query('update users set email_verified_at = now() where id = $1', [patient.user.id]);
      await worker.runOnce();
      clock.set('2030-03-24T09:00:00Z');
      const token = await linkIn(patient.email, /^Reminder/);
      const preview = await server.api('POST', '/api/appointment-links/preview', { body: { token } });
      assert.equal(preview.status, 200);
      assert.equal(preview.body.appointment.id, appointmentId);
      assert.equal(preview.body.appointment.status, 'scheduled', 'looking changes nothing');
      const cancelled = await server.api('POST', '/api/appointment-links/cancel', { body: { token } });
      assert.equal(cancelled.status, 200);
      assert.equal(cancelled.body.appointment.status, 'cancelled');
      assert.equal((await server.api('POST', '/api/appointment-links/cancel', { body: { token } })).status, 422);
      assert.equal(
        (await server.api('POST', '/api/appointment-links/preview', { body: { token: 'made-up' } })).status,
        422,
      );
    });

    it('sends no reminder to a patient who turned reminders off', async () => {
      const { patient } = await booked('2030-03-25');
      await server.db.query('update users set email_verified_at = now() where id = $1', [patient.user.id]);
      const current = (await server.api('GET', '/api/patient/profile', { token: patient.token })).body.patient;
      const off = await server.api('PUT', '/api/patient/profile', {
        token: patient.token,
        body: { ...current, reminders: false },
      });
      assert.equal(off.status, 200);
      assert.equal(off.body.patient.reminders, false);
      await worker.runOnce();
      smtp.received.length = 0;
      clock.set('2030-03-24T09:00:00Z');
      await worker.runOnce();
      assert.equal(smtp.received.filter((m) => /^Reminder/.test(m.subject ?? '')).length, 0);
    });

    const optionsFor = (db: Parameters<typeof outboxQueue>[0]) => ({
      queue: outboxQueue(db),
      transport: smtpTransport(smtp.url),
      from: '"Lakeside Clinic" <desk@lakeside.test>',
      linkFor: (kind: Parameters<typeof messageLink>[1], token: string) =>
        messageLink('https://lakeside.test', kind, token),
      pollMs: 1000,
      leaseMs: 60_000,
    });
  });
}
