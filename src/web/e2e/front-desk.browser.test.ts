/**
 * A walk-in at the front desk through the UI: reception registers a patient without an e-mail, books them and
 * checks them in; the doctor sees them waiting on today's agenda and records the visit; reception takes the
 * payment in cash and opens the receipt to print. Then a patient moves their own visit, and axe on each reception
 * screen and the admin's Reception page.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Locator, Page } from 'playwright-core';
import { cliActor } from '../../domain/shared/actor.ts';
import {
  atClinicTime,
  openPage,
  openSignedInPage,
  phoneScreenshot,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  shownDate,
  signInThroughUi,
  uniqueEmail,
  type TestServer,
} from './harness.ts';
import { chooseRowAction } from './row-actions.ts';
import {
  bookSlot,
  createReceptionist,
  openDoctorEveryDay,
  registerPatient,
  seedClinic,
  daysAhead,
  type Account,
  type Clinic,
} from './seed.ts';

const WALK_IN = 'Wanda Walk-in';

describe('the front desk in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let reception: Account;
  let desk: Page;
  let patientPage = '';
  const problems: string[][] = [];

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    reception = await createReceptionist(server, clinic.admin);
    const watched = await openPage(browser, server.url);
    desk = watched.page;
    problems.push(watched.problems);
  });

  const alertText = (page: Page, text: string) => page.getByRole('alert').getByText(text, { exact: true }).waitFor();
  const row = (page: Page, text: string): Locator => page.locator('tbody tr', { hasText: text });
  const cell = (r: Locator, header: string) => r.locator(`td[data-label="${header}"]`);

  it('reception signs in to today at the desk and registers a walk-in without an e-mail', async () => {
    await signInThroughUi(desk, reception.email);
    await desk.waitForURL('**/user/reception/today');
    await desk.getByRole('heading', { name: "Today's Appointments", level: 1 }).waitFor();

    await desk.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Patients' }).click();
    await desk.getByRole('heading', { name: 'Patients', level: 1 }).waitFor();
    await desk.getByRole('button', { name: 'Register Walk-in' }).click();
    const form = desk.getByRole('form', { name: 'New patient' });
    await form.getByLabel('Name').fill(WALK_IN);
    await form.getByLabel('Phone').fill('+1 555 0177');
    await form.getByLabel('Birthdate').fill('1961-02-14');
    await form.getByLabel('Gender').selectOption('female');
    await form.getByRole('button', { name: 'Register Patient' }).click();
    const registered = desk.getByRole('status', { name: 'Patient registered' });
    await registered.getByText(/is registered, without an e-mail address\.$/).waitFor();
    assert.match(await registered.innerText(), new RegExp(`${WALK_IN} \\(born Feb 14, 1961, phone \\+1 555 0177\\)`));
    const book = await registered.getByRole('link', { name: 'Book an appointment' }).getAttribute('href');
    assert.match(book ?? '', /^\/user\/reception\/patients\/\d+\?book=1$/);
    await registered.getByRole('link', { name: `Open ${WALK_IN}'s chart` }).click();
    await desk.waitForURL(/\/user\/reception\/patients\/\d+$/);
    patientPage = new URL(desk.url()).pathname;
    await desk.getByRole('heading', { name: WALK_IN, level: 1 }).waitFor();
    await desk.getByText('None: the patient cannot sign in and gets no e-mail').waitFor();
  });

  it('warns of a walk-in who may be registered already, links their chart, and registers a different person once told', async () => {
    await desk.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Patients' }).click();
    await desk.getByRole('button', { name: 'Register Walk-in' }).click();
    const form = desk.getByRole('form', { name: 'New patient' });
    await form.getByLabel('Name').fill(WALK_IN.toUpperCase());
    await form.getByLabel('Phone').fill('+1 555 0999');
    await form.getByLabel('Birthdate').fill('1961-02-14');
    await form.getByLabel('Gender').selectOption('female');
    await form.getByRole('button', { name: 'Register Patient' }).click();
    const dialog = desk.getByRole('dialog', { name: 'Already registered?' });
    await dialog.getByText('same name and birthdate').waitFor();
    const open = dialog.getByRole('link', { name: `Open the existing chart of ${WALK_IN}` });
    assert.equal(await open.getAttribute('href'), patientPage);
    assert.match((await open.getAttribute('class')) ?? '', /button-primary/, 'opening the chart is the primary action');
    await dialog.getByRole('button', { name: 'Register a different person' }).click();
    await dialog.waitFor({ state: 'detached' });
    await desk
      .getByRole('status', { name: 'Patient registered' })
      .getByText(WALK_IN.toUpperCase(), { exact: true })
      .waitFor();
    await desk.goto(patientPage);
  });

  it('books the walk-in with the doctor today and checks them in', async () => {
    await desk.getByRole('button', { name: 'Book Appointment' }).click();
    await desk.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    await desk.getByRole('radio', { name: /^9:00 AM –/ }).check();
    await desk.getByRole('button', { name: 'Book for this patient' }).click();
    await alertText(desk, 'Appointment booked successfully!');
    const visit = row(desk, clinic.doctor.name);
    await cell(visit, 'Status').getByText('Scheduled').waitFor();

    await visit.getByRole('button', { name: /^Check in/ }).click();
    await alertText(desk, `${WALK_IN} is checked in`);
    await cell(visit, 'Status').getByText('Checked in').waitFor();
    assert.equal(await visit.getByRole('button', { name: /^Check in/ }).count(), 0);

    await chooseRowAction(visit, /^Undo check-in/);
    await alertText(desk, `${WALK_IN}'s check-in is undone`);
    await cell(visit, 'Status').getByText('Scheduled').waitFor();
    await visit.getByRole('button', { name: /^Check in/ }).click();
    await alertText(desk, `${WALK_IN} is checked in`);

    await desk
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: "Today's Appointments" })
      .click();
    await cell(row(desk, WALK_IN), 'Status').getByText('Checked in').waitFor();
  });

  it("reception's day: counts, a doctor filter, the days around it with no check-in ahead of the day, cancelled visits folded away and a list to print", async () => {
    const late = await registerPatient(server, 'Nico No-show');
    const ahead = await registerPatient(server, 'Tara Tomorrow');
    const gone = await registerPatient(server, 'Cleo Cancelled');
    await bookSlot(server, clinic, late, '10:00');
    await bookSlot(server, clinic, ahead, '11:00', daysAhead(1));
    const cancelled = await bookSlot(server, clinic, gone, '12:00');
    await server.app.scheduling.cancelAppointment(cancelled.id, cliActor('front-desk-browser-test'));
    const counts = desk.getByRole('group', { name: 'Show visits by status' });
    const countIs = (label: string, n: number) =>
      counts.getByRole('button', { name: new RegExp(`^${label} ${n}$`) }).waitFor();

    await desk.reload();
    await desk.getByRole('heading', { name: /\(today\)$/, level: 2 }).waitFor();
    await row(desk, 'Nico No-show').waitFor();
    await countIs('Waiting', 1);
    await desk.getByText('Cancelled visits (1)').waitFor();
    assert.equal(await row(desk, 'Cleo Cancelled').count(), 0, 'the cancelled visit is folded away');
    await desk.locator('.cancelled-visits > summary').click();
    await row(desk, 'Cleo Cancelled').waitFor();
    await desk.locator('.cancelled-visits > summary').click();

    await atClinicTime('10:05', async () => {
      await desk.reload();
      const visit = row(desk, 'Nico No-show');
      await chooseRowAction(visit, /^No-show/);
      await desk.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
      await alertText(desk, 'Nico No-show is marked as a no-show');
      await cell(visit, 'Status').getByText('No show').waitFor();
      await countIs('No-show', 1);
      await chooseRowAction(visit, /^Undo no-show/);
      await alertText(desk, 'Nico No-show is no longer marked as a no-show');
      await cell(visit, 'Status').getByText('Scheduled').waitFor();
      await countIs('No-show', 0);
    });

    await desk.getByRole('group', { name: 'Choose the day' }).getByRole('button', { name: 'Tomorrow' }).click();
    await desk.waitForURL(`**/user/reception/today?date=${daysAhead(1)}`);
    const tomorrow = row(desk, 'Tara Tomorrow');
    await tomorrow.waitFor();
    assert.equal(await tomorrow.getByRole('button', { name: /^Check in/ }).count(), 0, 'no check-in before the day');
    assert.equal(await row(desk, WALK_IN).count(), 0);
    await desk.getByRole('group', { name: 'Choose the day' }).getByRole('button', { name: 'Previous day' }).click();
    await row(desk, WALK_IN).waitFor();
    await desk.getByLabel('Date').fill(daysAhead(1));
    await tomorrow.waitFor();
    await desk.getByRole('group', { name: 'Choose the day' }).getByRole('button', { name: 'Today' }).click();

    await desk.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    await desk.waitForURL(`**/user/reception/today?doctor_id=${clinic.doctor.id}`);
    await row(desk, WALK_IN).waitFor();
    await desk.evaluate(() => {
      window.print = () => document.body.setAttribute('data-printed', 'yes');
    });
    await desk.getByRole('button', { name: 'Print day list' }).click();
    await desk.locator('body[data-printed="yes"]').waitFor({ state: 'attached' });
    const sheet = desk.getByRole('region', { name: 'Day list to print' });
    assert.equal(await sheet.isVisible(), false, 'the list shows only on paper');
    await desk.emulateMedia({ media: 'print' });
    try {
      await sheet.locator('.letterhead-kind', { hasText: clinic.doctor.name }).waitFor();
      assert.deepEqual(await sheet.locator('tbody tr td:nth-child(2)').allInnerTexts(), [WALK_IN, 'Nico No-show']);
      assert.equal(await desk.getByRole('heading', { name: "Today's Appointments", level: 1 }).isVisible(), false);
    } finally {
      await desk.emulateMedia({ media: 'screen' });
    }
  });

  it("the doctor sees the walk-in waiting on today's agenda and records the visit once it begins", () =>
    atClinicTime('09:00', async () => {
      const { page, problems: seen } = await openSignedInPage(browser, server, clinic.doctor.email);
      problems.push(seen);
      await page.getByRole('heading', { name: 'Today', level: 1 }).waitFor();
      const visit = page.locator('.agenda-visit', { hasText: WALK_IN });
      await visit.getByText('Waiting', { exact: true }).waitFor();
      await visit.getByRole('button', { name: `Record visit of ${WALK_IN}, 9:00 AM`, exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('option', { hasText: 'Heart Disease' }).waitFor({ state: 'attached' });
      await dialog.getByLabel('Disease').selectOption({ label: 'Heart Disease' });
      await dialog.getByLabel('Diagnosis').fill('Palpitations, benign');
      await dialog.getByLabel('Service type').fill('Walk-in consultation');
      await dialog.getByLabel('Cost (USD)').fill('80');
      await dialog.getByRole('button', { name: 'Save Record' }).click();
      await alertText(page, 'Medical record saved successfully');
      await visit.getByText('Completed', { exact: true }).waitFor();
      await page.context().close();
    }));

  it('reception takes part of the bill in cash, then the rest by bank transfer, and opens the receipt to print', async () => {
    await desk.goto(patientPage);
    await desk.getByRole('heading', { name: WALK_IN, level: 1 }).waitFor();
    const bill = row(desk, 'Walk-in consultation');
    await cell(bill, 'Amount').getByText('$80.00').waitFor();
    await bill.getByRole('button', { name: /^Take payment/ }).click();
    const dialog = desk.getByRole('dialog', { name: 'Confirm payment' });
    assert.deepEqual(await dialog.getByLabel('Payment method').locator('option').allInnerTexts(), [
      'Cash',
      'Card',
      'Bank transfer',
      'Insurance',
    ]);
    await dialog.getByLabel('Payment method').selectOption('cash');
    assert.equal(await dialog.getByLabel('Amount paid').inputValue(), '80.00');
    await dialog.getByLabel('Amount paid').fill('30');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await alertText(desk, 'Payment successful');
    await cell(bill, 'Status').getByText('Partly paid').waitFor();
    await cell(bill, 'Balance').getByText('$50.00').waitFor();

    await bill.getByRole('button', { name: /^Take payment/ }).click();
    await dialog.getByLabel('Payment method').selectOption('bank_transfer');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await cell(bill, 'Status').getByText('Paid', { exact: true }).waitFor();

    await bill.getByRole('button', { name: /^Receipt of bill/ }).click();
    const receipt = desk.getByRole('dialog', { name: 'Receipt' });
    await receipt.getByText(WALK_IN).first().waitFor();
    await receipt.getByText('$80.00').first().waitFor();
    await receipt.getByText(/cash/i).first().waitFor();
    await receipt.getByRole('button', { name: 'Print' }).waitFor();
    assert.equal(await receipt.getByText('Palpitations, benign').count(), 0);
    await phoneScreenshot(desk, 'reception-receipt');
    await desk.keyboard.press('Escape');
    await receipt.waitFor({ state: 'detached' });
  });

  it('reception adds the e-mail a walk-in gives later, which waits for the link sent to it', async () => {
    const email = uniqueEmail('walk-in');
    await desk.getByRole('button', { name: 'Edit details or add e-mail' }).click();
    const dialog = desk.getByRole('dialog', { name: `Edit ${WALK_IN}` });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByRole('button', { name: 'Save details' }).click();
    await dialog.waitFor({ state: 'detached' });
    await desk.getByRole('alert').getByText(`A link to confirm ${email} was sent to that address;`).waitFor();
    await desk.locator('.details').getByText(`${email}: waiting for the patient to confirm it`).waitFor();
    await desk.getByText('None: the patient cannot sign in and gets no e-mail').waitFor();
  });

  it('a patient reschedules their own future visit to another free slot', async () => {
    const patient = await registerPatient(server, 'Rosa Reschedule');
    await bookSlot(server, clinic, patient, '11:00', daysAhead(2));
    const { page, problems: seen } = await openSignedInPage(browser, server, patient.email);
    problems.push(seen);
    const visit = row(page, shownDate(daysAhead(2)));
    await chooseRowAction(visit, /^Reschedule/);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: /^2:00 PM –/ }).check();
    await dialog.getByRole('button', { name: 'Move appointment here' }).click();
    await dialog.waitFor({ state: 'detached' });
    await alertText(page, 'Appointment rescheduled');
    await cell(row(page, shownDate(daysAhead(2))), 'Start Time')
      .getByText('2:00 PM')
      .waitFor();
    await page.context().close();
  });

  // axe checks every reception screen at both widths in axe-every-screen.ts; here, the forms that
  // open on demand.
  it("finds no serious accessibility violation in the desk's booking form and the admin's new receptionist form", async () => {
    await desk.goto(patientPage);
    await desk.locator('.shell-main h1').waitFor();
    await desk.getByRole('button', { name: 'Book Appointment' }).click();
    await desk.getByLabel('Doctor').selectOption(String(clinic.doctor.id));
    await settled(desk);
    assert.deepEqual(await seriousAxeViolations(desk), [], 'the booking form');

    const { page, problems: seen } = await openSignedInPage(browser, server, clinic.admin.email);
    problems.push(seen);
    await page.goto('/user/admin/receptionists');
    await row(page, reception.email).waitFor();
    await page.getByRole('button', { name: 'Add Receptionist' }).click();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), [], 'the admin Reception page');
    await page.context().close();
    assert.deepEqual(problems.flat(), []);
  });
});
