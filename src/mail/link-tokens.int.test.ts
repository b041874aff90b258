import { after, before, beforeEach, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import type { Clock } from '../domain/shared/clock.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { startTestServer, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { sendDue as sendDueMail } from '../testing/send-due.ts';

const ZONE = 'Europe/Berlin';
const BOOKED_AT = '2030-03-20T10:00:00Z';
const VISIT = '2030-03-25'; // a Monday, 09:00 Berlin; its reminder is due 24 h before
const REMINDER_DUE = '2030-03-24T08:00:00Z';

function movableClock(): Clock & { set(iso: string): void } {
  let now = new Date(BOOKED_AT);
  return {
    now: () => now,
    set: (next) => {
      now = new Date(next);
    },
  };
}

const tokenIn = (text: string | undefined): string | undefined => {
  const token = /#token=([\w%-]+)/.exec(text ?? '')?.[1];
  return token && decodeURIComponent(token);
};
const isReminder = (mail: ParsedMail) => mail.subject?.startsWith('Reminder:') ?? false;

for (const target of testDatabases('one')) {
  describe(`link tokens minted when their message is sent, on ${target.name}`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    let clock: ReturnType<typeof movableClock>;
    let fixtures: ReturnType<typeof clinicFixtures>;

    before(async () => {
      clock = movableClock();
      server = await startTestServer(target, { clock, clinicTz: ZONE, clinicName: 'Lakeside Clinic' });
      smtp = await startTestSmtp();
      fixtures = clinicFixtures(server);
    });
    after(async () => {
      await smtp?.close();
      await server?.close();
    });
    beforeEach(() => {
      clock.set(BOOKED_AT);
      smtp.received.length = 0;
      smtp.verdict = () => ({ accept: true });
    });

    const sendDue = () =>
      sendDueMail(server.db, smtp.url, clock, { retry: { baseDelayMs: 1000, maxDelayMs: 60_000, maxAttempts: 4 } });

    /** A verified patient's booking, whose reminder with a cancel link waits in the outbox; what was due is sent. */
    async function bookedWithReminder() {
      const doctor = await fixtures.doctor();
      const patient = await fixtures.patient();
      await server.db.query('update users set email_verified_at = now() where id = $1', [patient.user.id]);
      const res = await server.api('POST', '/api/appointments/book', {
        token: patient.token,
        body: { doctor_id: doctor.doctorId, schedule_id: doctor.scheduleId, date: VISIT },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      await sendDue();
      smtp.received.length = 0;
      return { appointmentId: res.body.id as number };
    }

    /** Every text column of every table of the database, as stored. */
    async function textColumns(): Promise<string> {
      const columns = await server.db.query<{ table_name: string; column_name: string }>(
        `select c.table_name, c.column_name from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
         where c.table_schema = current_schema() and c.data_type in ('text', 'character varying', 'character', 'jsonb', 'json')`,
      );
      const values = await Promise.all(
        columns.map(({ table_name, column_name }) =>
          server.db.query<{ v: string }>(
            `select string_agg(${quoteIdent(column_name)}::text, ' ') as v from ${quoteIdent(table_name)}`,
          ),
        ),
      );
      assert.ok(
        columns.some((c) => c.table_name === 'outbox'),
        'the scan reaches the outbox',
      );
      return values.map((rows) => rows[0]?.v ?? '').join('\n');
    }

    /** Every row of every table as text: what a data dump (`medora backup`) holds. */
    async function everyRow(): Promise<string> {
      const tables = await server.db.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
      );
      const rows = await Promise.all(
        tables.map(({ table_name }) =>
          server.db.query<{ v: string }>(`select string_agg(t::text, '\n') as v from ${quoteIdent(table_name)} t`),
        ),
      );
      return rows.map((r) => r[0]?.v ?? '').join('\n');
    }

    const preview = (token: string) => server.api('POST', '/api/appointment-links/preview', { body: { token } });
    const cancel = (token: string) => server.api('POST', '/api/appointment-links/cancel', { body: { token } });

    it('keeps no token of a queued reminder in any column or row; the token the e-mail carries then cancels once', async () => {
      await bookedWithReminder();
      const [columns, rows] = [await textColumns(), await everyRow()];
      clock.set(REMINDER_DUE);
      await sendDue();
      const token = tokenIn(smtp.received.find(isReminder)?.text);
      assert.ok(token, 'the reminder carries a cancel link');
      const digest = createHash('sha256').update(token).digest('hex');
      assert.ok(
        !columns.includes(token) && !rows.includes(token),
        'the token did not exist before the reminder was sent',
      );
      assert.ok(!rows.includes(digest), 'nor its digest: nothing from before sending can be used');
      assert.ok(!(await everyRow()).includes(token), 'once sent, only its digest is kept');
      assert.equal((await cancel(token)).status, 200);
      assert.notEqual((await cancel(token)).status, 200, 'the link works once');
    });

    it('mints a new link for a retried send, and the failed attempt’s link no longer works', async () => {
      await bookedWithReminder();
      const refused: string[] = [];
      smtp.verdict = (_attempt, mail) => {
        if (!isReminder(mail) || refused.length > 0) return { accept: true };
        refused.push(tokenIn(mail.text) ?? '');
        return { accept: false, code: 451, message: 'Try again later' };
      };
      clock.set(REMINDER_DUE);
      await sendDue();
      assert.equal(smtp.received.filter(isReminder).length, 0, 'the first attempt is refused');
      clock.set('2030-03-24T08:00:05Z');
      await sendDue();
      const [first] = refused;
      const second = tokenIn(smtp.received.find(isReminder)?.text);
      assert.ok(first && second && first !== second, 'each attempt carries its own token');
      assert.notEqual((await preview(first)).status, 200, "the refused attempt's link is void");
      assert.equal((await preview(second)).status, 200);
      assert.equal((await cancel(second)).status, 200);
    });

    it('sends no reset link of a request a newer one replaced before it went out, and the newer link works once', async () => {
      const patient = await fixtures.patient();
      for (let i = 0; i < 2; i++) {
        assert.equal(
          (await server.api('POST', '/api/password-reset-requests', { body: { email: patient.email } })).status,
          202,
        );
      }
      await sendDue();
      const resets = smtp.received.filter((m) => m.subject?.startsWith('Choose a new password'));
      assert.equal(resets.length, 1, 'only the newer request is e-mailed');
      const token = tokenIn(resets[0]?.text);
      assert.ok(token);
      assert.equal(
        (await server.api('POST', '/api/password-reset', { body: { token, password: 'a brand new password' } })).status,
        200,
      );
      assert.notEqual(
        (await server.api('POST', '/api/password-reset', { body: { token, password: 'and another one now' } })).status,
        200,
        'the link works once',
      );
    });
  });
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
