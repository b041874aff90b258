import assert from 'node:assert/strict';
import { after, describe, it } from '../../testing/node-test.ts';
import type { Browser } from 'playwright-core';
import { outboxQueue } from '../../db/outbox.pg.ts';
import { messageLink } from '../../mail/start.ts';
import { smtpTransport } from '../../mail/smtp.ts';
import { startOutboxWorker } from '../../mail/worker.ts';
import { startTestSmtp, type TestSmtp } from '../../testing/smtp.ts';
import {
  CLINIC_NOW,
  openSignedInPage,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  shownDate,
  type TestServer,
} from './harness.ts';
import { bookSlot, daysAhead, registerPatient, seedClinic, type Account, type Clinic } from './seed.ts';

const WEDNESDAY = daysAhead(2);

describe('the waitlist in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let smtp: TestSmtp;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    // One slot a week, on Wednesdays: one booking fills the day.
    const week = await server.api('PUT', `/api/admin/doctors/${clinic.doctor.id}/schedule`, {
      token: clinic.admin.token,
      body: { slots: [{ weekday: 3, start_time: '09:00', end_time: '09:30' }] },
    });
    assert.equal(week.status, 200);
    smtp = await startTestSmtp();
  });
  after(() => smtp?.close());

  it("lets a patient join a full day's waitlist, and the offer e-mail's link books the freed time", async () => {
    const early: Account = await registerPatient(server, 'Early Bird');
    const booked = await bookSlot(server, clinic, early, '09:00', WEDNESDAY);
    const waiter = await registerPatient(server, 'Wanda Waiting');
    const { page, problems } = await openSignedInPage(browser, server, waiter.email);

    await page.goto('/user/patient/book');
    await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    await page.getByLabel('Date').fill(WEDNESDAY);
    await page.getByText('No free time slot is left on this day.').waitFor();
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await page
      .getByRole('alert')
      .getByText('You are on the waitlist for Wed, Jun 5. If a time frees up, we will e-mail you.')
      .waitFor();

    await page.getByRole('link', { name: 'Waitlist' }).click();
    await page.getByRole('heading', { name: 'Waitlist', exact: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: clinic.doctor.name });
    await row.getByText('Waiting for a free time').waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);

    const cancelled = await server.api('POST', `/api/patient/appointments/${booked.id}/cancel`, { token: early.token });
    assert.equal(cancelled.status, 200);
    const worker = startOutboxWorker(
      {
        queue: outboxQueue(server.db),
        transport: smtpTransport(smtp.url),
        clock: { now: () => new Date(CLINIC_NOW) },
        from: 'desk@clinic.test',
        linkFor: (kind, token) => messageLink(server.url, kind, token),
        pollMs: 1000,
        leaseMs: 60_000,
      },
      { poll: false },
    );
    while ((await worker.runOnce()) > 0);
    await worker.stop();
    const offer = await smtp.waitForMessage(
      (m) => m.subject === `A time with ${clinic.doctor.name} is free: Wednesday, June 5, 2030 at 9:00 AM`,
    );
    const link = /Accept or decline this time: (\S+)/.exec(offer.text ?? '')?.[1];
    assert.ok(link, offer.text);

    await page.reload();
    await row.getByText(/Wed, Jun 5 at 9:00 AM, held for you until Mon, Jun 3, 8:30 AM/).waitFor();

    await page.goto(link);
    await page.getByRole('heading', { name: 'A time is free for you' }).waitFor();
    await page.getByText(clinic.doctor.name).waitFor();
    await page.getByText('9:00 AM – 9:30 AM').waitFor();
    await page.getByText('Mon, Jun 3, 8:30 AM').waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('alert').getByText('Your appointment is booked. It is in My Appointments.').waitFor();

    await page.goto('/user/patient');
    const visit = page.getByRole('row').filter({ hasText: shownDate(WEDNESDAY) });
    await visit.getByText(clinic.doctor.name).waitFor();
    await visit.getByText('9:00 AM').first().waitFor();
    assert.deepEqual(problems, []);
  });

  it("lets an admin put a patient on a doctor's waitlist from the patient's overview", async () => {
    const patient = await registerPatient(server, 'Desk Caller');
    const [row] = await server.db.query<{ id: number }>(
      'select p.id from patients p join users u on u.id = p.user_id where u.email = $1',
      [patient.email],
    );
    assert.ok(row);
    const { page, problems } = await openSignedInPage(browser, server, clinic.admin.email);
    await page.goto(`/user/admin/patient/profile/${row.id}`);
    const form = page.getByRole('region', { name: 'Add to a waitlist' });
    await form.getByRole('button', { name: 'Join the waitlist' }).click();
    await form.getByText('Doctor is required').waitFor();
    await form.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    await form.getByLabel('From', { exact: true }).fill(WEDNESDAY);
    await form.getByLabel('To', { exact: true }).fill(daysAhead(9));
    await form.getByRole('button', { name: 'Join the waitlist' }).click();
    await form
      .getByRole('alert')
      .getByText('Desk Caller is on the waitlist. If a time frees up, they get an e-mail.')
      .waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);
    const entries = await server.api('GET', '/api/patient/waitlist', { token: patient.token });
    assert.deepEqual(
      entries.body.entries.map((e: { from_date: string; to_date: string }) => [e.from_date, e.to_date]),
      [[WEDNESDAY, daysAhead(9)]],
    );
    assert.deepEqual(problems, []);
  });

  it('lets a patient join a waitlist for a range of days on the Waitlist page, and leave it', async () => {
    const patient = await registerPatient(server, 'Rhoda Range');
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    await page.goto('/user/patient/waitlist');
    await page.getByText('You are not on any waitlist.').waitFor();
    const form = page.getByRole('region', { name: 'Join a waitlist' });
    await form.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    await form.getByLabel('From', { exact: true }).fill(daysAhead(9));
    await form.getByLabel('To', { exact: true }).fill(WEDNESDAY);
    await form.getByRole('button', { name: 'Join the waitlist' }).click();
    await form.getByText('To must not be before from_date').waitFor();
    await form.getByLabel('To', { exact: true }).fill(daysAhead(16));
    await form.getByRole('button', { name: 'Join the waitlist' }).click();
    await form
      .getByRole('alert')
      .getByText('You are on the waitlist. If a time frees up, we will e-mail you.')
      .waitFor();
    const row = page.getByRole('row').filter({ hasText: clinic.doctor.name });
    await row.getByText('Wed, Jun 12 – Wed, Jun 19').waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);

    await row.getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
    await page.getByRole('alert').getByText('You left the waitlist').waitFor();
    await page.getByText('You are not on any waitlist.').waitFor();
    assert.deepEqual(problems, []);
  });
});
