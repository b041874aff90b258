import assert from 'node:assert/strict';
import { after, before, describe, it } from '../../testing/node-test.ts';
import {
  STAND_IN_SECRET_KEY,
  STAND_IN_WEBHOOK_SECRET,
  startStripeStandIn,
  type StripeStandIn,
} from '../../testing/stripe-stand-in.ts';
import type { Browser, Page } from 'playwright-core';
import {
  CLINIC_TODAY,
  shownDate,
  openSignedInPage,
  phoneScreenshot,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  type TestServer,
} from './harness.ts';
import { chooseRowAction } from './row-actions.ts';
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

describe('the patient area in the browser', () => {
  let server: TestServer;
  let clinic: Clinic;
  let patient: Account;
  let page: Page;
  let problems: string[];
  let browser: Browser;
  // Stripe Checkout's stand-in: the patient's Pay goes to its page, which sends the signed webhook back.
  let stripe: StripeStandIn;
  before(async () => {
    stripe = await startStripeStandIn();
  });
  after(() => stripe.close());

  serverAndBrowserPerSuite(
    async (started, launched) => {
      server = started;
      browser = launched;
      stripe.webhookUrl = `${server.url}/api/card-payments/webhook`;
      clinic = await seedClinic(server);
      await openDoctorEveryDay(server, clinic);
      patient = await registerPatient(server, 'Pat Patient');
      await seedUnpaidBill(server, clinic, patient, '15:00', '80.00');
      await seedUnpaidBill(server, clinic, patient, '16:00', '120.50');
      // Recorded visits are no longer scheduled, so today stays free for the booking page; the rest come later.
      for (const [index, time] of ['10:00', '10:30', '11:00', '11:30', '10:00'].entries())
        await bookSlot(server, clinic, patient, time, daysAhead(index + 1));
      ({ page, problems } = await openSignedInPage(browser, server, patient.email));
    },
    () => ({ stripe: { secretKey: STAND_IN_SECRET_KEY, webhookSecret: STAND_IN_WEBHOOK_SECRET, apiUrl: stripe.url } }),
  );

  const slot = (label: string) => page.getByRole('radio', { name: new RegExp(`^${label} –`) });

  it('books a free slot of today, which then shows as booked', async () => {
    await page.goto('/user/patient/book');
    await page.getByRole('heading', { name: 'Select an Appointment' }).waitFor();
    const book = page.getByRole('button', { name: 'Book', exact: true });
    assert.equal(await book.isDisabled(), true);

    await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    await page.getByRole('group', { name: 'AM' }).waitFor();
    await page.getByRole('group', { name: 'PM' }).waitFor();
    assert.equal(await page.getByLabel('Date').inputValue(), CLINIC_TODAY);
    assert.equal(await slot('4:00 PM').isDisabled(), true, 'a slot booked earlier cannot be chosen');
    assert.equal(await book.isDisabled(), true, 'Book waits for a slot');

    await slot('9:00 AM').check();
    await book.click();
    await page.getByRole('alert').getByText('Appointment booked successfully!').waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name="slot"][value]:disabled'));
    assert.equal(await slot('9:00 AM').isDisabled(), true);
    assert.match(await page.locator('label', { has: slot('9:00 AM') }).innerText(), /booked/i);
    assert.equal(await book.isDisabled(), true);
  });

  it('explains a slot taken meanwhile and refreshes the slots', async () => {
    await slot('9:30 AM').check();
    const rival = await registerPatient(server, 'Quick Rival');
    await bookSlot(server, clinic, rival, '09:30');
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    const alert = page.getByRole('alert');
    await alert.locator('.alert-error').waitFor();
    assert.match(await alert.innerText(), /\S/);
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLInputElement>('input[name="slot"]')].some(
        (i) => i.disabled && i.closest('label')?.textContent?.startsWith('9:30'),
      ),
    );
  });

  it('pages, searches and resizes the upcoming appointments table, and keeps past visits apart', async () => {
    await page.goto('/user/patient');
    await page.getByRole('heading', { name: 'Scheduled Appointments' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Upcoming' }).getAttribute('aria-pressed'), 'true');
    const headers = await page.locator('thead th').allInnerTexts();
    assert.deepEqual(
      headers.map((h) => h.trim().toLowerCase()),
      ['date', 'start time', 'end time', 'doctor', 'department', 'room', 'actions'],
    );

    // Today's 9:00 and five days ahead; the two visits recorded today are past.
    const info = page.locator('.page-info');
    await info.getByText('1 - 5 of 6').waitFor();
    assert.equal(await page.locator('tbody tr').count(), 5);
    await page.getByRole('button', { name: 'Next page' }).click();
    await info.getByText('6 - 6 of 6').waitFor();
    await page.getByLabel('Go to page').fill('1');
    await info.getByText('1 - 5 of 6').waitFor();
    await page.getByLabel('Rows per page').selectOption('10');
    await info.getByText('1 - 6 of 6').waitFor();
    assert.equal(
      await page
        .locator('tbody')
        .getByText(/Completed|Cancelled/)
        .count(),
      0,
      'the upcoming list shows no completed or cancelled visit',
    );

    await page.getByLabel('Search').fill('nobody like this');
    await page.getByText('No appointments found.').waitFor();
    await info.getByText('0 - 0 of 0').waitFor();
    await page.getByLabel('Search').fill('Hopper');
    await info.getByText('1 - 6 of 6').waitFor();
    await page.getByLabel('Search').fill('');

    await page.getByRole('button', { name: 'Past' }).click();
    await info.getByText('1 - 2 of 2').waitFor();
    assert.equal(await page.locator('tbody tr', { hasText: 'Completed' }).count(), 2);
    assert.equal(await page.locator('tbody').getByRole('button', { name: 'Cancel' }).count(), 0);
  });

  it('shows the date of an appointment and cancels it after a confirmation', async () => {
    await page.goto('/user/patient');
    await page.getByLabel('Rows per page').selectOption('10');
    const row = page.locator('tbody tr', { has: page.locator('td[data-label="Start Time"]', { hasText: '9:00 AM' }) });
    await row.waitFor();
    assert.equal(await row.locator('td[data-label="Doctor"]').innerText(), clinic.doctor.name);
    assert.equal(await row.locator('td[data-label="Department"]').innerText(), 'Cardiology');

    await row.getByRole('button', { name: 'View Details' }).click();
    await page
      .getByRole('alert')
      .getByText(`Appointment date: ${shownDate(CLINIC_TODAY)}`)
      .waitFor();

    // By keyboard: the row's menu opens on ArrowDown, Escape closes it and gives the focus back; Cancel, its
    // second item, opens the dialog, and Escape closes that and gives the focus back to the menu's button.
    const more = row.getByRole('button', { name: /^More actions/ });
    const focused = (control: typeof more) => control.evaluate((element) => element === document.activeElement);
    await more.focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(row.getByRole('menuitem', { name: /^Reschedule/ })), true);
    await page.keyboard.press('Escape');
    assert.equal(await row.getByRole('menu').count(), 0);
    assert.equal(await focused(more), true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Are you sure you want to cancel this appointment/).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await focused(more), true);

    await chooseRowAction(row, /^Cancel/);
    await dialog.getByRole('button', { name: 'Cancel appointment' }).click();
    await page.getByRole('alert').getByText('Appointment cancelled successfully').waitFor();
    await row.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Past' }).click();
    const cancelled = page.locator('tbody tr', {
      has: page.locator('td[data-label="Start Time"]', { hasText: '9:00 AM' }),
    });
    await cancelled.getByText('Cancelled').waitFor();
    assert.equal(await cancelled.getByRole('button', { name: 'Cancel' }).count(), 0);
  });

  it('offers a new patient without any visit the way to book their first one', async () => {
    const newcomer = await registerPatient(server, 'Nora Newcomer');
    const fresh = await openSignedInPage(browser, server, newcomer.email);
    await fresh.page.goto('/user/patient');
    const first = fresh.page.getByRole('link', { name: 'Book your first appointment' });
    await first.waitFor();
    await fresh.page.getByText('You have no appointments yet.').waitFor();
    assert.equal(await fresh.page.locator('table').count(), 0, 'no empty table and pager');
    assert.equal(await fresh.page.getByRole('button', { name: 'Past' }).count(), 0);
    await settled(fresh.page);
    assert.deepEqual(await seriousAxeViolations(fresh.page), []);
    await first.click();
    await fresh.page.getByRole('heading', { name: 'Select an Appointment' }).waitFor();
    assert.deepEqual(fresh.problems, []);
    await fresh.page.close();
  });

  it('updates the profile and the header follows', async () => {
    await page.goto('/user/patient/profile');
    await page.getByRole('heading', { name: 'Patient Profile' }).waitFor();
    const name = page.getByLabel('Name');
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('form input')?.value);
    assert.equal(await name.inputValue(), 'Pat Patient');
    assert.equal(await page.getByLabel('Gender').inputValue(), 'female');

    await name.fill('Patricia Patient');
    await page.getByLabel('Phone').fill('+1 555 0177');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByRole('alert').getByText('Your Profile has been updated').waitFor();
    await page.getByRole('button', { name: /^Patricia Patient/ }).waitFor();

    await page.reload();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('form input')?.value === 'Patricia Patient',
    );
    assert.equal(await page.getByLabel('Phone').inputValue(), '+1 555 0177');
  });

  it('opens a doctor profile from the Doctor List, with its fallbacks', async () => {
    await page.goto('/user/patient/doctors');
    await page.getByRole('heading', { name: 'Doctor List' }).waitFor();
    await page.getByRole('link', { name: `Profile: ${clinic.doctor.name}` }).click();
    await page.waitForURL(`**/user/patient/doctors/${clinic.doctor.id}`);
    await page.getByRole('heading', { name: clinic.doctor.name }).waitFor();

    const detail = async (term: string) =>
      (await page.locator('dt', { hasText: term }).locator('+ dd').innerText()).trim();
    assert.equal(await detail('Doctor ID'), String(clinic.doctor.id));
    assert.equal(await detail('Specialization'), 'Cardiologist');
    assert.equal(await detail('Department'), 'Cardiology');
    assert.equal(await detail('Email'), clinic.doctor.email);
    assert.equal(await detail('Birthdate'), 'N/A');
    assert.equal(await detail('Address'), 'No address available');
    await page.getByText('No biography available.').waitFor();
  });

  it("pays an unpaid bill by card on the card processor's page, back to Paid and a printable receipt; a failed checkout is explained", async () => {
    await page.goto('/user/patient/bills');
    await page.getByRole('heading', { name: 'Your Bills' }).waitFor();
    const billRow = (amount: string) => page.locator('tbody tr', { has: page.getByText(amount, { exact: true }) });
    await billRow('$120.50').waitFor();
    await page.getByText('Outstanding balance: $200.50 (2 unpaid bills)').waitFor();
    const confirm = page.getByRole('dialog', { name: 'Pay by card' });

    // Cancelling the confirmation opens no checkout.
    await billRow('$80.00').getByRole('button', { name: /^Pay/ }).click();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    assert.equal(stripe.sessions.length, 0);

    await page.route('**/api/patient/billings/*/pay', (route) =>
      route.fulfill({ status: 500, json: { message: 'boom', code: 'internal' } }),
    );
    await billRow('$80.00').getByRole('button', { name: /^Pay/ }).click();
    await confirm.getByRole('button', { name: 'Continue to pay $80.00' }).click();
    await page.getByRole('alert').getByText('Error processing payment. Please try again.').waitFor();
    await page.unroute('**/api/patient/billings/*/pay');

    await billRow('$120.50').getByRole('button', { name: /^Pay/ }).click();
    await confirm.getByText('Consultation', { exact: false }).waitFor();
    await confirm.getByText('$120.50', { exact: true }).first().waitFor();
    await confirm.getByRole('button', { name: 'Continue to pay $120.50' }).click();
    // The processor's page (the stand-in's), then back to the bills once it has sent its signed webhook.
    await page.waitForURL(`${stripe.url}/c/pay/**`);
    assert.equal(stripe.sessions.at(-1)?.amount_total, 12050);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/user\/patient\/bills/);
    await page.getByRole('alert').getByText('Thank you: your card payment was taken', { exact: false }).waitFor();
    await billRow('$120.50').getByText('Paid', { exact: true }).waitFor();
    await page.getByText('Outstanding balance: $80.00 (1 unpaid bill)').waitFor();
    assert.equal(await billRow('$120.50').getByRole('button', { name: /^Pay/ }).count(), 0);
    assert.equal(await billRow('$80.00').getByRole('button', { name: /^Pay/ }).count(), 1);

    await billRow('$120.50')
      .getByRole('button', { name: /Receipt/ })
      .click();
    const receipt = page.getByRole('dialog', { name: 'Receipt' });
    for (const text of [
      'Medora Test Clinic',
      '12 Test Street, Testville',
      'Phone: +1 555 0199',
      clinic.doctor.name,
      shownDate(CLINIC_TODAY),
    ]) {
      await receipt.getByText(text, { exact: true }).first().waitFor();
    }
    await receipt.getByText('$120.50').first().waitFor();
    await receipt.getByText('(card)', { exact: false }).waitFor();
    await receipt.getByRole('button', { name: 'Print' }).waitFor();
    await page.emulateMedia({ media: 'print' });
    const top = await receipt.evaluate((element) => element.getBoundingClientRect().top);
    assert.ok(top < 5, `the printed receipt starts at the top of the page, not ${top}px down`);
    await page.emulateMedia({ media: 'screen' });
    await page.keyboard.press('Escape');
    await receipt.waitFor({ state: 'detached' });

    await chooseRowAction(billRow('$80.00'), /Receipt/);
    await page.getByRole('dialog', { name: 'Invoice' }).getByText('Balance due').waitFor();
    await page.keyboard.press('Escape');
  });

  it('shows the patient the records the doctor saved, newest first, with each bill', async () => {
    await page.getByRole('link', { name: 'My Records' }).click();
    await page.getByRole('heading', { name: 'My Records' }).waitFor();
    const visits = page.locator('.visit-record');
    await visits.first().waitFor();
    assert.equal(await visits.count(), 2);
    const newest = visits.first();
    await newest
      .getByRole('heading', { name: `${shownDate(CLINIC_TODAY)}, 4:00 PM · ${clinic.doctor.name}` })
      .waitFor();
    for (const text of ['Heart Disease', 'Mild arrhythmia', 'Rest', 'ECG', 'Consultation'])
      await newest.getByText(text, { exact: true }).waitFor();
    await newest.getByText('$120.50').waitFor();
    await visits.nth(1).getByText('$80.00').waitFor();
    await page.getByRole('button', { name: 'Print' }).waitFor();
  });

  // axe checks every patient screen at both widths in axe-every-screen.ts; here, the booking page
  // with a doctor's slots shown, which needs a choice first.
  it("finds no serious accessibility violation among a doctor's slots, and screenshots them at phone width", async () => {
    await page.goto('/user/patient/book');
    await page.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    await page.getByRole('group', { name: 'AM' }).waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await phoneScreenshot(page, 'patient-book');
    assert.deepEqual(problems, []);
  });
});
