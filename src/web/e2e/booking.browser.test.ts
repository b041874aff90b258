import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Page } from 'playwright-core';
import {
  atClinicTime,
  CLINIC_TODAY,
  openSignedInPage,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  shownDate,
  type TestServer,
} from './harness.ts';
import {
  bookSlot,
  daysAhead,
  openDoctorEveryDay,
  registerPatient,
  seedClinic,
  type Account,
  type Clinic,
} from './seed.ts';

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
    const week = await server.api('PUT', `/api/admin/doctors/${clinic.doctor.id}/schedule`, {
      token: clinic.admin.token,
      body: { slots },
    });
    assert.equal(week.status, 200);
    await bookSlot(server, clinic, await registerPatient(server, 'Early Bird'), '09:00');
    patient = await registerPatient(server, 'Pat Planner');
  });

  const nextDays = (page: Page) =>
    page.getByRole('list', { name: 'Next days with a free time slot:' }).getByRole('button');

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
      assert.deepEqual(await nextDays(page).allInnerTexts(), [
        `Wed, Jun 5 · from ${time}`,
        'Mon, Jun 10 · from 9:00 AM',
        'Wed, Jun 12 · from 9:00 AM',
      ]);
      await settled(page);
      assert.deepEqual(await seriousAxeViolations(page), []);

      await nextDays(page).first().click();
      await page.getByRole('group', { name: 'PM' }).waitFor();
      assert.equal(await page.getByLabel('Date').inputValue(), daysAhead(2));
      assert.equal(await nextDays(page).count(), 0);
      await page.getByRole('radio', { name: new RegExp(`^${time} –`) }).check();
      const summary = page.getByRole('region', { name: 'Summary' });
      for (const text of [clinic.doctor.name, 'Wed, Jun 5', new RegExp(`^${time} –`), 'Cardiology'])
        await summary.getByText(text).first().waitFor();
      await page.getByRole('button', { name: 'Book', exact: true }).click();

      const message = page.getByRole('alert').getByText('Appointment booked successfully!');
      await message.waitFor();
      await page.waitForFunction(() => document.activeElement?.closest('[role="alert"]') !== null);
      const box = await message.boundingBox();
      assert.ok(
        box && box.y >= 0 && box.y + box.height <= viewport.height,
        `the message is in view: ${JSON.stringify(box)}`,
      );
      const booked = page.getByRole('region', { name: 'Your appointment' });
      const detail = async (term: string) =>
        (await booked.locator('dt', { hasText: term }).locator('+ dd').innerText()).trim();
      assert.equal(await detail('Who'), clinic.doctor.name);
      assert.match(await detail('When'), new RegExp(`^Wed, Jun 5, ${time} – `));
      assert.match(await detail('Where'), /Cardiology/);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        booked.getByRole('link', { name: 'Add to calendar' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'appointment.ics');
      const ics = await readFile((await download.path()) ?? '', 'utf8');
      assert.match(ics, /BEGIN:VEVENT/);
      assert.match(ics, new RegExp(`SUMMARY:Appointment with ${clinic.doctor.name}`));
      await settled(page);
      assert.deepEqual(await seriousAxeViolations(page), []);
      await booked.getByRole('link', { name: 'View appointment' }).click();
      await page.getByRole('heading', { name: 'Scheduled Appointments' }).waitFor();
      await page
        .locator('tbody tr', { hasText: shownDate(daysAhead(2)) })
        .first()
        .waitFor();
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
  it('says the day is over, shows none of its past slots and offers tomorrow', () =>
    atClinicTime('19:30', async () => {
      const { page, problems } = await openSignedInPage(browser, server, patient.email);
      await page.setViewportSize(PHONE);
      await page.goto('/user/patient/book');
      await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
      const hint = page.getByText('No free time slot is left on this day.');
      await hint.waitFor();
      assert.equal(await page.locator('input[name="slot"]').count(), 0, 'no past slot is shown');
      assert.equal(await page.getByRole('group', { name: 'AM' }).count(), 0);
      const tomorrow = page.getByRole('button', { name: 'Tue, Jun 4 · from 9:00 AM' });
      await tomorrow.waitFor();
      await tomorrow.click();
      await page.locator('input[name="slot"]:not(:disabled)').first().waitFor();
      assert.equal(await page.getByLabel('Date').inputValue(), daysAhead(1));
      assert.deepEqual(problems, []);
    }));
});

describe('booking when the slots cannot be loaded, and in the afternoon', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let patient: Account;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    patient = await registerPatient(server, 'Rita Retry');
  });

  it('says the slots could not be loaded and offers Retry, which loads them', async () => {
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    await page.goto('/user/patient/book');
    await page.route('**/api/appointments/available/**', (route) =>
      route.fulfill({ status: 500, json: { message: 'boom', code: 'internal' } }),
    );
    await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    const failure = page.getByRole('alert').filter({ hasText: 'Time slots could not be loaded.' });
    await failure.waitFor();
    assert.equal(await page.getByText('No time slots on this day.').count(), 0);
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await page.unroute('**/api/appointments/available/**');
    await failure.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('group', { name: 'AM' }).waitFor();
    await failure.waitFor({ state: 'detached' });
    assert.ok((await page.locator('input[name="slot"]:not(:disabled)').count()) > 0);
    assert.deepEqual(problems, []);
  });

  // 13:15 in the clinic: the morning is over and no longer shown; the afternoon is.
  it("shows only the day's slots still to come", () =>
    atClinicTime('13:15', async () => {
      const { page, problems } = await openSignedInPage(browser, server, patient.email);
      await page.goto('/user/patient/book');
      await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
      await page.getByRole('group', { name: 'PM' }).locator('input[name="slot"]').first().waitFor();
      assert.equal(await page.locator('.slot-past').count(), 0);
      const starts = await page.locator('.slot span:first-of-type').allInnerTexts();
      assert.match(starts[0] ?? '', /^1:30 PM –/, 'the slot that started at 1:00 PM is gone');
      assert.ok(
        starts.every((text) => !/AM/.test(text)),
        JSON.stringify(starts),
      );
      assert.deepEqual(problems, []);
    }));

  it('lists doctors as cards with their next free time and a Book link', async () => {
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    await page.setViewportSize(PHONE);
    await page.goto('/user/patient/doctors');
    const card = page.locator('.profile-card', { has: page.getByRole('heading', { name: clinic.doctor.name }) });
    await card.waitFor();
    for (const text of ['Cardiologist', 'Cardiology']) await card.getByText(text, { exact: true }).waitFor();
    await card.getByText(/^Next free: Mon, Jun 3, \d+:\d\d (AM|PM)$/).waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await card.getByRole('link', { name: `Book: ${clinic.doctor.name}` }).click();
    await page.getByRole('heading', { name: 'Select an Appointment' }).waitFor();
    // The heading comes before the list of doctors, which is when the doctor can be chosen in it.
    await page
      .getByLabel('Doctor')
      .locator(`option[value="${clinic.doctor.id}"]:checked`)
      .waitFor({ state: 'attached' });
    assert.equal(await page.getByLabel('Doctor').inputValue(), String(clinic.doctor.id));
    assert.deepEqual(problems, []);
  });
});

describe("booking from the doctor's month", () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let patient: Account;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    const admin = { token: clinic.admin.token };
    // Thursday 6 June the clinic is closed; Saturday 8 to Monday 10 June the doctor is away.
    const closure = await server.api('POST', '/api/admin/closures', {
      ...admin,
      body: { starts_on: daysAhead(3), reason: 'Founders Day' },
    });
    assert.equal(closure.status, 201, JSON.stringify(closure.body));
    const leave = await server.api('POST', `/api/admin/doctors/${clinic.doctor.id}/leave`, {
      ...admin,
      body: { starts_on: daysAhead(5), ends_on: daysAhead(7), reason: 'Conference' },
    });
    assert.equal(leave.status, 201, JSON.stringify(leave.body));
    patient = await registerPatient(server, 'Molly Month');
  });

  const dayButton = (page: Page, date: string) => page.locator(`.month-grid button[data-date="${date}"]`);

  it('shows which days have free slots and why a closed day is closed, by keyboard, within 390 px', async () => {
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    await page.setViewportSize(PHONE);
    await page.goto('/user/patient/book');
    await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    const month = page.getByRole('heading', { name: 'June 2030' });
    await month.waitFor();
    assert.equal(await page.getByRole('button', { name: 'Previous month' }).isDisabled(), true, 'June is this month');
    await page.getByRole('button', { name: 'Monday, June 3, 2030: 16 free slots', exact: true }).waitFor();
    assert.equal(await dayButton(page, CLINIC_TODAY).getAttribute('aria-pressed'), 'true');
    assert.equal(await dayButton(page, daysAhead(1)).locator('.month-day-mark').innerText(), '16');
    await page
      .getByRole('button', { name: 'Thursday, June 6, 2030: clinic closed: Founders Day', exact: true })
      .waitFor();
    assert.equal(await dayButton(page, daysAhead(6)).locator('.month-day-mark').innerText(), 'Leave');
    assert.equal(await page.locator('.month-grid button[data-date="2030-06-02"]').count(), 0, 'the past is no button');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `the page is ${width} px wide`);

    // The arrows move between days and Enter chooses one: the closed day says why instead of "no slots".
    await dayButton(page, CLINIC_TODAY).focus();
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-date')), daysAhead(3));
    await page.keyboard.press('Enter');
    await page.getByText('The clinic is closed: Founders Day.', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Date').inputValue(), daysAhead(3));
    assert.equal(await page.getByText('No time slots on this day.').count(), 0);
    await dayButton(page, daysAhead(6)).click();
    await page.getByText('The doctor is on leave.', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('heading', { name: 'July 2030' }).waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Next month' }).isDisabled(),
      false,
      'August has bookable days',
    );
    // Page Up from a day of July goes back to June.
    await dayButton(page, '2030-07-01').focus();
    await page.keyboard.press('PageUp');
    await month.waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);
    assert.deepEqual(problems, []);
  });

  it('keeps Book in view at 390 × 844 once a slot is chosen', async () => {
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    await page.setViewportSize(PHONE);
    await page.goto('/user/patient/book');
    await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    await dayButton(page, daysAhead(1)).click();
    await page.getByRole('group', { name: 'PM' }).locator('input[name="slot"]').first().waitFor();
    const book = page.getByRole('button', { name: 'Book', exact: true });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height > PHONE.height + 200, `the page (${height} px) is longer than the screen`);
    await page
      .getByRole('group', { name: 'PM' })
      .getByLabel(/^4:30 PM/)
      .check();
    const box = await book.evaluate((button) => {
      const rect = button.getBoundingClientRect();
      return { top: rect.top, bottom: rect.bottom, scrolled: window.scrollY };
    });
    assert.ok(box.top >= 0 && box.bottom <= PHONE.height, `Book at ${JSON.stringify(box)}`);
    assert.equal(await book.isEnabled(), true);
    await page.getByText('Tue, Jun 4 · 4:30 PM', { exact: true }).waitFor();
    // Back at the top of the page, with the slot still chosen, Book is still on screen without scrolling to it.
    await page.evaluate(() => window.scrollTo(0, 0));
    const top = await book.evaluate((button) => button.getBoundingClientRect().bottom);
    assert.ok(top <= PHONE.height, `Book's bottom at ${top} px with the page at its top`);
    assert.deepEqual(problems, []);
  });
});
