import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Page } from 'playwright-core';
import { atClinicTime, CLINIC_TODAY, openSignedInPage, serverAndBrowserPerSuite, seriousAxeViolations, settled, type TestServer } from './harness.ts';
import { bookSlot, daysAhead, openDoctorEveryDay, registerPatient, seedClinic, type Account, type Clinic } from './seed.ts';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe('booking when the chosen day is full', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let patient: Account;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    // Mondays (the clinic's today) one slot, Wednesdays two.
    const slots = [
      { weekday: 1, start_time: '09:00', end_time: '09:30' },
      { weekday: 3, start_time: '09:00', end_time: '09:30' },
      { weekday: 3, start_time: '14:00', end_time: '14:30' },
    ];
    const week = await server.api('PUT', `/api/admin/doctors/${clinic.doctor.id}/schedule`, { token: clinic.admin.token, body: { slots } });
    assert.equal(week.status, 200);
    await bookSlot(server, clinic, await registerPatient(server, 'Early Bird'), '09:00');
    patient = await registerPatient(server, 'Pat Planner');
  });

  const nextDays = (page: Page) => page.getByRole('list', { name: 'Next days with a free time slot:' }).getByRole('button');

  // The desktop run books Wednesday's 9:00, so the phone run finds that day free from 2:00 PM.
  for (const [viewport, time] of [
    [DESKTOP, '9:00 AM'],
    [PHONE, '2:00 PM'],
  ] as const) {
    it(`offers the next free days and books one, focusing the result, at ${viewport.width} px`, async () => {
      const booker = await registerPatient(server, `Pat ${viewport.width}`);
      const { page, problems } = await openSignedInPage(browser, server, booker.email);
      await page.setViewportSize(viewport);
      await page.goto('/user/patient/book');
      await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
      await page.getByText('No free time slot is left on this day.').waitFor();
      assert.equal(await page.getByLabel('Date').inputValue(), CLINIC_TODAY);
      await nextDays(page).first().waitFor();
      assert.deepEqual(await nextDays(page).allInnerTexts(), [`Wed, Jun 5 · from ${time}`, 'Mon, Jun 10 · from 9:00 AM', 'Wed, Jun 12 · from 9:00 AM']);
      await settled(page);
      assert.deepEqual(await seriousAxeViolations(page), []);

      await nextDays(page).first().click();
      await page.getByRole('group', { name: 'PM' }).waitFor();
      assert.equal(await page.getByLabel('Date').inputValue(), daysAhead(2));
      assert.equal(await nextDays(page).count(), 0);
      await page.getByRole('radio', { name: new RegExp(`^${time} –`) }).check();
      await page.getByRole('button', { name: 'Book', exact: true }).click();

      const message = page.getByRole('alert').getByText('Appointment booked successfully!');
      await message.waitFor();
      await page.waitForFunction(() => document.activeElement?.closest('[role="alert"]') !== null);
      const box = await message.boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= viewport.height, `the message is in view: ${JSON.stringify(box)}`);
      await settled(page);
      assert.deepEqual(await seriousAxeViolations(page), []);
      assert.deepEqual(problems, []);
    });
  }

  it("leads from a doctor's profile to the booking page with that doctor chosen", async () => {
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`/user/patient/doctors/${clinic.doctor.id}`);
      await page.getByRole('heading', { name: clinic.doctor.name }).waitFor();
      await settled(page);
      assert.deepEqual(await seriousAxeViolations(page), [], `${viewport.width} px`);
      await page.getByRole('link', { name: 'Book with this doctor' }).click();
      await page.getByRole('heading', { name: 'Select an Appointment' }).waitFor();
      await page.getByText('No free time slot is left on this day.').waitFor();
      assert.equal(await page.getByLabel('Doctor').inputValue(), String(clinic.doctor.id));
    }
    assert.deepEqual(problems, []);
  });
});

describe('booking in the evening', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let patient: Account;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    patient = await registerPatient(server, 'Eve Evening');
  });

  // 19:30 in the clinic: every slot of the day has started.
  it('says the day is over above its past slots and offers tomorrow', () => atClinicTime('19:30', async () => {
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    await page.setViewportSize(PHONE);
    await page.goto('/user/patient/book');
    await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    const hint = page.getByText('No free time slot is left on this day.');
    await hint.waitFor();
    assert.equal(await page.locator('input[name="slot"]:not(:disabled)').count(), 0, 'every slot of the day is past');
    const firstPast = page.locator('.slot-past').first();
    const [hintBox, pastBox] = [await hint.boundingBox(), await firstPast.boundingBox()];
    assert.ok(hintBox && pastBox && hintBox.y < pastBox.y, 'the hint comes before the past slots');
    const tomorrow = page.getByRole('button', { name: 'Tue, Jun 4 · from 9:00 AM' });
    await tomorrow.waitFor();
    await tomorrow.click();
    await page.locator('input[name="slot"]:not(:disabled)').first().waitFor();
    assert.equal(await page.getByLabel('Date').inputValue(), daysAhead(1));
    assert.deepEqual(problems, []);
  }));
});
