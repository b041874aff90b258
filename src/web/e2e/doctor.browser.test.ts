import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Page } from 'playwright-core';
import { atClinicTime, openSignedInPage, serverAndBrowserPerSuite, type TestServer } from './harness.ts';
import {
  bookSlot,
  daysAhead,
  openDoctorEveryDay,
  registerPatient,
  seedClinic,
  seedUnpaidBill,
  type Account,
  type Clinic,
} from './seed.ts';

describe('the doctor area in the browser', () => {
  let server: TestServer;
  let clinic: Clinic;
  let heart: Account;
  let fresh: Account;
  let page: Page;
  let problems: string[];

  serverAndBrowserPerSuite(async (started, browser) => {
    server = started;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    await server.api('POST', '/api/admin/diseases', {
      token: clinic.admin.token,
      body: { name: 'corona', description: '' },
    });
    heart = await registerPatient(server, 'Hector Heart');
    await seedUnpaidBill(server, clinic, heart, '09:00', '50.00');
    const times = ['09:30', '10:00', '10:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30', '14:00'];
    for (const [index, time] of times.entries()) await bookSlot(server, clinic, heart, time, daysAhead(index + 1));
    fresh = await registerPatient(server, 'Nora New');
    await bookSlot(server, clinic, fresh, '15:00');
    ({ page, problems } = await openSignedInPage(browser, server, clinic.doctor.email));
  });

  it("lists the doctor's appointments read-only, 10 a page", async () => {
    await page.goto('/user/doctor/appointments');
    await page.getByRole('heading', { name: "Doctor's Appointments" }).waitFor();
    await page.locator('.page-info').getByText('1 - 10 of 12').waitFor();
    // Read-only: a row's one control shows its details.
    assert.equal(
      await page
        .locator('tbody button')
        .filter({ hasNotText: /^Details$/ })
        .count(),
      0,
    );
    assert.equal(
      await page
        .locator('tbody')
        .getByRole('button', { name: /^Details of / })
        .count(),
      10,
    );
  });

  it("opens on today's agenda in time order, records a visit once it has begun there, and shows the week", async () => {
    const ada = await registerPatient(server, 'Ada Agenda');
    await bookSlot(server, clinic, ada, '13:00');
    await page.goto('/user/doctor');
    await page.waitForURL('**/user/doctor/agenda');
    await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor();
    const visits = page.locator('.agenda-visit');
    const adaVisit = visits.filter({ hasText: 'Ada Agenda' });
    await adaVisit.getByText('From 1:00 PM').waitFor();
    assert.deepEqual(await visits.locator('.agenda-patient a').allInnerTexts(), [
      'Hector Heart',
      'Ada Agenda',
      'Nora New',
    ]);
    assert.equal(await visits.filter({ hasText: 'Hector Heart' }).getByText('Completed').count(), 1);

    await atClinicTime('13:00', async () => {
      await page.reload();
      await adaVisit.getByRole('button', { name: /^Record visit of Ada Agenda/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('option', { hasText: 'corona' }).waitFor({ state: 'attached' });
      await dialog.getByLabel('Disease').selectOption({ label: 'corona' });
      await dialog.getByLabel('Diagnosis').fill('Seasonal cold');
      await dialog.getByLabel('Service type').fill('Consultation');
      await dialog.getByRole('button', { name: 'Save Record' }).click();
      await page.getByRole('alert').getByText('Medical record saved successfully').waitFor();
      await adaVisit.getByText('Completed').waitFor();
      // A completed visit is recorded once; what is left to do from it is prescribing, an admission or tests.
      assert.deepEqual(await adaVisit.getByRole('button').allInnerTexts(), [
        'Prescribe',
        'Request admission',
        'Order tests',
      ]);
      await visits.filter({ hasText: 'Nora New' }).getByText('From 3:00 PM').waitFor();
    });

    await page.getByRole('button', { name: 'Week', exact: true }).click();
    await page.getByRole('heading', { name: 'Week of Mon, Jun 3', level: 1 }).waitFor();
    assert.equal(await page.locator('.agenda-card').count(), 7);
    const tuesday = page.locator('.agenda-card', { has: page.getByRole('heading', { name: /Tue, Jun 4/ }) });
    await tuesday.getByText('Hector Heart').waitFor();
    await page.getByRole('button', { name: 'Next week ›' }).click();
    await page.getByRole('heading', { name: 'Week of Mon, Jun 10', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Wed, Jun 12' }).click();
    await page.getByRole('heading', { name: 'Wed, Jun 12', level: 1 }).waitFor();
    await visits.filter({ hasText: 'Hector Heart' }).getByText('From 1:30 PM').waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Week of Mon, Jun 10', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Today' }).click();
    await page.getByRole('heading', { name: 'Week of Mon, Jun 3', level: 1 }).waitFor();
    assert.deepEqual(problems, []);
  });

  it('offers Edit Record only once a visit has begun, and says from when for later ones', async () => {
    await page.goto('/user/doctor/manage-records');
    await page.getByLabel('Search').fill('Nora');
    const row = page.locator('tbody tr', { hasText: 'Nora New' });
    await page.locator('.page-info').getByText('1 - 1 of 1').waitFor();
    await row.getByText('From 3:00 PM on Mon, Jun 3').waitFor();
    assert.equal(await row.getByRole('button', { name: /^Edit Record/ }).count(), 0);
  });

  it('explains a failed save, then saves a record and shows the row completed', () =>
    atClinicTime('15:00', async () => {
      await page.goto('/user/doctor/manage-records');
      await page.getByLabel('Search').fill('Nora');
      const row = page.locator('tbody tr', { hasText: 'Nora New' });
      await page.locator('.page-info').getByText('1 - 1 of 1').waitFor();
      await row.getByRole('button', { name: /^Edit Record/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('option', { hasText: 'corona' }).waitFor({ state: 'attached' });
      await dialog.getByLabel('Disease').selectOption({ label: 'corona' });
      await dialog.getByLabel('Diagnosis').fill('Mild fever');
      await dialog.getByLabel('Service type').fill('Consultation');
      await dialog.getByLabel('Cost (USD)').fill('40');

      await page.route('**/medical-record', (route) =>
        route.fulfill({ status: 500, json: { message: 'boom', code: 'internal' } }),
      );
      await dialog.getByRole('button', { name: 'Save Record' }).click();
      await dialog.getByRole('alert').getByText('An error occurred while saving the medical record').waitFor();
      await page.unroute('**/medical-record');

      await dialog.getByRole('button', { name: 'Save Record' }).click();
      await page.getByRole('alert').getByText('Medical record saved successfully').waitFor();
      await row.getByText('Completed').waitFor();
      assert.equal(await row.getByRole('button', { name: /^Edit Record/ }).count(), 0);
    }));

  it('shows patient cards and overviews with the disease icon colours and the empty text', async () => {
    await page.goto('/user/doctor/my-patients');
    await page.getByRole('heading', { name: 'Patient List' }).waitFor();
    const card = page.locator('.profile-card', { hasText: 'Hector Heart' });
    await card.getByText(/^Patient ID: \d+$/).waitFor();
    await card.getByText('+1 555 0101').waitFor();
    await card.getByRole('link', { name: 'View Profile: Hector Heart' }).click();
    await page.waitForURL(/\/user\/doctor\/my-patients\/\d+$/);
    const record = page.locator('.record-card', { hasText: 'Heart Disease' });
    await record.waitFor();
    assert.match((await record.getAttribute('class')) ?? '', /record-danger/);
    await record.getByText('Mild arrhythmia').waitFor();

    await page.goto('/user/doctor/my-patients');
    await page.getByRole('link', { name: 'View Profile: Nora New' }).click();
    const corona = page.locator('.record-card', { hasText: 'corona' });
    await corona.waitFor();
    assert.match((await corona.getAttribute('class')) ?? '', /record-warning/);

    // A patient whose only visit is still scheduled has no records yet.
    const other = await registerPatient(server, 'Otto Other');
    await bookSlot(server, clinic, other, '16:00');
    const list = await server.api('GET', '/api/doctor/patients?q=Otto', { token: clinic.doctor.token });
    await page.goto(`/user/doctor/my-patients/${list.body.patients[0].id}`);
    await page.getByText('No medical records found for this patient.').waitFor();

    // A patient imported without a phone (the column's default is empty) shows the fallback.
    await server.db.query(`update patients set phone = '' where id = $1`, [list.body.patients[0].id]);
    await page.goto('/user/doctor/my-patients');
    await page.locator('.profile-card', { hasText: 'Otto Other' }).getByText('No Phone', { exact: true }).waitFor();
    assert.deepEqual(problems, []);
  });
});
