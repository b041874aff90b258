import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser } from 'playwright-core';
import { outboxQueue } from '../../db/outbox.pg.ts';
import { startOutboxWorker } from '../../mail/worker.ts';
import { CLINIC_NOW, openSignedInPage, serverAndBrowserPerSuite, settled, type TestServer } from './harness.ts';
import {
  bookSlot,
  daysAhead,
  openDoctorEveryDay,
  registerPatient,
  seedClinic,
  type Account,
  type Clinic,
} from './seed.ts';

describe('messages and calendar feeds in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let patient: Account;
  let visit: { id: number };

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    patient = await registerPatient(server, 'Mia Meyer');
    // In three days: the confirmation is due now, the reminder two days from now.
    visit = await bookSlot(server, clinic, patient, '10:00', daysAhead(3));
    // A worker without a mail server, as on a site with no SMTP_URL: what is due is kept, marked not sent.
    const worker = startOutboxWorker(
      {
        queue: outboxQueue(server.db),
        transport: undefined,
        clock: { now: () => new Date(CLINIC_NOW) },
        from: 'desk@clinic.test',
        linkFor: () => 'https://clinic.test/',
        pollMs: 1000,
        leaseMs: 60_000,
      },
      { poll: false },
    );
    await worker.runOnce();
  });

  it('lets an admin filter the messages by status and read one', async () => {
    const { page, problems } = await openSignedInPage(browser, server, clinic.admin.email);
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
    await page.getByRole('note').getByText('not sent because no mail server is configured').waitFor();
    const table = page.getByRole('table', { name: 'Messages' });
    await table.getByRole('row').filter({ hasText: patient.email }).first().waitFor();

    await page.getByLabel('Status').selectOption({ label: 'Pending' });
    await settled(page);
    const pending = table.locator('tbody tr');
    assert.equal(await pending.count(), 1);
    assert.match((await pending.textContent()) ?? '', /Reminder: your appointment/);
    await pending.getByRole('button', { name: /^View message/ }).click();
    const reminderText = (await page.getByRole('dialog').getByLabel('Message text').textContent()) ?? '';
    assert.match(reminderText, /Cancel this appointment: \[a one-time link, filled in when sent\]/);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await page.getByLabel('Status').selectOption({ label: 'Not sent' });
    await settled(page);
    const unsent = table.locator('tbody tr').filter({ hasText: 'Your appointment on' });
    assert.equal(await unsent.count(), 1);
    assert.match((await unsent.textContent()) ?? '', /Not sent.*no mail server configured/);

    await unsent.getByRole('button', { name: /^View message/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('appointment.ics').waitFor();
    assert.match(
      (await dialog.getByLabel('Message text').textContent()) ?? '',
      /^Dear Mia Meyer,\s+your appointment with Dr\. Grace Hopper is booked/,
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.deepEqual(problems, []);
  });

  it('lets a patient make a calendar address that answers their calendar', async () => {
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    await page.getByRole('link', { name: 'Sign-in & Security' }).click();
    await page.getByRole('heading', { name: 'Calendar feed' }).waitFor();
    await page.getByRole('button', { name: 'Make a calendar address' }).click();
    const address = page.getByLabel('Your calendar address');
    await address.waitFor();
    await page.getByText('it is shown only this once').waitFor();
    const url = await address.inputValue();
    assert.ok(url.startsWith(`${server.url}/api/calendar/`), url);

    const feed = await fetch(url);
    assert.equal(feed.status, 200);
    assert.match(feed.headers.get('content-type') ?? '', /^text\/calendar/);
    assert.match(await feed.text(), new RegExp(`UID:appointment-${visit.id}@`));

    await page.reload();
    await page.getByText(/^On since/).waitFor();
    assert.equal(await page.getByLabel('Your calendar address').count(), 0, 'the address is shown only once');
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Turn off' }).click();
    await page.getByText('The calendar feed is off.').waitFor();
    assert.equal((await fetch(url)).status, 404);
    assert.deepEqual(problems, []);
  });
});
