/**
 * The whole clinic loop through the UI only: the admin sets the clinic up, a patient books, the doctor
 * records the visit, the patient pays, the admin sees it all. Then every admin delete, and axe and
 * screenshots on each admin and doctor page.
 */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  PASSWORD,
  atClinicTime,
  openPage,
  phoneScreenshot,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  signInThroughUi,
  uniqueEmail,
  type TestServer,
} from './harness.ts';
import { chooseRowAction } from './row-actions.ts';
import { createAdmin, payAtDesk, registerPatient, type Account } from './seed.ts';

// A 1×1 PNG, the doctor's photo.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const DEPARTMENT = 'Oncology';
const SPECIALIZATION = 'Oncologist';
const DISEASE = 'Cancer';
const ROOM = 'Room 101';
const DOCTOR = 'Dr. Marie Curie';

describe('the clinic loop in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let admin: Account;
  let patient: Account;
  let adminPage: Page;
  const problems: string[][] = [];
  const doctorEmail = uniqueEmail('curie');
  let doctorId = '';
  let photoFile = '';

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    admin = await createAdmin(server);
    const dir = await mkdtemp(path.join(tmpdir(), 'medora-photo-'));
    photoFile = path.join(dir, 'curie.png');
    await writeFile(photoFile, PNG);
    const watched = await openPage(browser, server.url);
    adminPage = watched.page;
    problems.push(watched.problems);
    await signInThroughUi(adminPage, admin.email);
  });

  const alertText = (page: Page, text: string) => page.getByRole('alert').getByText(text, { exact: true }).waitFor();
  const row = (page: Page, text: string): Locator => page.locator('tbody tr', { hasText: text });
  const cell = (r: Locator, header: string) => r.locator(`td[data-label="${header}"]`);

  async function go(page: Page, url: string, heading: string) {
    await page.goto(url);
    await page.getByRole('heading', { name: heading, exact: true, level: 1 }).waitFor();
  }

  it('the admin creates a department (and sees the field error of a taken name)', async () => {
    const page = adminPage;
    await go(page, '/user/admin/departments/create', 'Add Department');
    await page.getByLabel('Name', { exact: true }).fill(DEPARTMENT);
    await page.getByLabel('Description').fill('Cancer care');
    await page.getByRole('button', { name: 'Create Department' }).click();
    await alertText(page, 'Department created successfully');
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), '');

    await page.getByLabel('Name', { exact: true }).fill(DEPARTMENT);
    await page.getByRole('button', { name: 'Create Department' }).click();
    await page.locator('.field-error').waitFor();

    await go(page, '/user/admin/departments', 'Department List');
    await row(page, DEPARTMENT).waitFor();
    await page.getByRole('link', { name: 'Add New Department' }).waitFor();
  });

  it('edits a department, with the spec messages', async () => {
    const page = adminPage;
    await go(page, '/user/admin/departments', 'Department List');
    await row(page, DEPARTMENT).getByRole('link', { name: /^Edit/ }).click();
    await page.getByRole('heading', { name: 'Edit Department' }).waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('form input')?.value === 'Oncology');
    await page.getByLabel('Description').fill('Cancer care and research');
    await page.getByRole('button', { name: 'Update Department' }).click();
    await alertText(page, 'Department updated successfully');

    await go(page, '/user/admin/departments/edit/999999', 'Edit Department');
    await alertText(page, 'Failed to load department data.');
  });

  it('creates a specialization, a disease and a room', async () => {
    const page = adminPage;
    await go(page, '/user/admin/specializations', 'Specializations');
    const toggle = page.getByRole('button', { name: 'Add Specialization' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    await page.getByLabel('Specialization name').fill(SPECIALIZATION);
    await page.getByRole('button', { name: 'Create Specialization' }).click();
    await alertText(page, 'Specialization created successfully');
    await row(page, SPECIALIZATION).waitFor();

    await go(page, '/user/admin/diseases', 'Diseases');
    await page.getByLabel('Disease name').fill(DISEASE);
    await page.getByRole('button', { name: 'Create Disease' }).click();
    await alertText(page, 'Disease Created Successfully');
    await row(page, DISEASE).waitFor();

    await go(page, '/user/admin/rooms', 'Rooms');
    await page.getByLabel('Room name').fill(ROOM);
    await page.locator('form').getByLabel('Department').selectOption({ label: DEPARTMENT });
    await page.getByRole('button', { name: 'Create Room' }).click();
    await alertText(page, 'Room created successfully');
    await cell(row(page, ROOM), 'Department').getByText(DEPARTMENT).waitFor();

    // Edit it: the form fills, Update saves.
    await row(page, ROOM).getByRole('button', { name: /^Edit/ }).click();
    assert.equal(await page.getByLabel('Room name').inputValue(), ROOM);
    await page.getByLabel('Room name').fill(`${ROOM} A`);
    await page.getByRole('button', { name: 'Update Room' }).click();
    await alertText(page, 'Room updated successfully');
    await row(page, `${ROOM} A`).waitFor();
  });

  it('creates a doctor with a photo and gives them a weekly schedule', async () => {
    const page = adminPage;
    await go(page, '/user/admin/doctors', 'Doctors');
    await page.getByRole('button', { name: 'Add Doctor' }).click();
    const form = page.getByRole('form', { name: 'New doctor' });
    await form.getByLabel('Name', { exact: true }).fill(DOCTOR);
    await form.getByLabel('Email', { exact: true }).fill(doctorEmail);
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByLabel('Phone').fill('+1 555 0199');
    await form.getByLabel('Gender').selectOption('female');
    await form.locator('option', { hasText: SPECIALIZATION }).waitFor({ state: 'attached' });
    await form.getByLabel('Specialization').selectOption({ label: SPECIALIZATION });
    await form.locator('option', { hasText: DEPARTMENT }).waitFor({ state: 'attached' });
    await form.getByLabel('Department').selectOption({ label: DEPARTMENT });
    await form.getByLabel('Birthdate').fill('1967-11-07');
    await form.getByLabel('Address').fill('Paris');
    await form.getByLabel('Bio').fill('Two Nobel prizes.');
    await form.getByLabel('Photo').setInputFiles(photoFile);
    await form.getByRole('button', { name: 'Create Doctor' }).click();
    await alertText(page, 'Doctor created successfully');

    const doctorRow = row(page, doctorEmail);
    await doctorRow.waitFor();
    doctorId = (await cell(doctorRow, 'ID').innerText()).trim();
    assert.match((await doctorRow.locator('img').getAttribute('src')) ?? '', /^\/api\/files\//);
    await page.waitForFunction(
      (email) =>
        [...document.querySelectorAll('tbody tr')].some(
          (tr) => tr.textContent?.includes(email) && (tr.querySelector('img') as HTMLImageElement)?.naturalWidth > 0,
        ),
      doctorEmail,
    );

    await chooseRowAction(doctorRow, `Schedule of ${DOCTOR}`);
    const dialog = page.getByRole('dialog', { name: `Weekly schedule: ${DOCTOR}` });
    await dialog.getByLabel('Monday 1 end').fill('12:00');
    await dialog.getByRole('button', { name: 'Copy Monday to Tuesday–Friday' }).click();
    await dialog.getByRole('button', { name: 'Save Schedule' }).click();
    await dialog.getByRole('alert').getByText('Schedule saved successfully').waitFor();
    await dialog
      .getByRole('row', { name: /^Monday/ })
      .getByRole('cell', { name: '6 slots', exact: true })
      .waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows an empty Doctor Of the year before any visit', async () => {
    const page = adminPage;
    await go(page, '/user/admin/dashboard', 'Dashboard');
    await page.locator('.top-doctor-name', { hasText: 'No visits completed yet' }).waitFor();
    assert.equal(await page.getByTestId('top-doctor-dates').innerText(), '0');
    assert.equal(await page.getByTestId('top-doctor-patients').innerText(), '0');
    await stat(page, 'Total Doctor', '1');
    await stat(page, 'Total Appointment', '0');
  });

  it('a patient books that doctor', async () => {
    patient = await registerPatient(server, 'Irene Patient');
    const { page, problems: seen } = await openPage(browser, server.url);
    problems.push(seen);
    await signInThroughUi(page, patient.email);
    await go(page, '/user/patient/book', 'Select an Appointment');
    await page.getByLabel('Doctor').selectOption(doctorId);
    await page.getByRole('radio', { name: /^9:00 AM –/ }).check();
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await alertText(page, 'Appointment booked successfully!');
    await page.context().close();
  });

  it('the doctor records the visit with a cost once it has begun; the row then shows completed', () =>
    atClinicTime('09:00', async () => {
      const { page, problems: seen } = await openPage(browser, server.url);
      problems.push(seen);
      await signInThroughUi(page, doctorEmail);
      assert.match(page.url(), /\/user\/doctor\/agenda$/);
      await page.locator('.agenda-visit', { hasText: patient.name }).waitFor();

      await go(page, '/user/doctor/manage-records', 'Manage Records');
      const visit = row(page, patient.name);
      await visit.getByRole('button', { name: /^Edit Record/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('option', { hasText: DISEASE }).waitFor({ state: 'attached' });
      await dialog.getByLabel('Disease').selectOption({ label: DISEASE });
      await dialog.getByLabel('Diagnosis').fill('Early stage, good prognosis');
      await dialog.getByLabel('Lab tests').fill('Biopsy');
      await dialog.getByLabel('Prescriptions').fill('Radiotherapy');
      await dialog.getByLabel('Service type').fill('Consultation');
      await dialog.getByLabel('Cost (USD)').fill('150');
      await dialog.getByRole('button', { name: 'Save Record' }).click();
      await alertText(page, 'Medical record saved successfully');
      await cell(visit, 'Status').getByText('Completed').waitFor();
      assert.equal(await visit.getByRole('button', { name: /^Edit Record/ }).count(), 0);

      await go(page, '/user/doctor/my-patients', 'Patient List');
      await page.getByText(`Patient ID:`).first().waitFor();
      await page.getByRole('link', { name: `View Profile: ${patient.name}` }).click();
      await page.getByRole('heading', { name: 'Patient Overview' }).waitFor();
      const card = page.locator('.record-card');
      await card.getByText('Early stage, good prognosis').waitFor();
      assert.match((await card.getAttribute('class')) ?? '', /record-warning/, 'Cancer shows as a warning');
      await card.locator('.record-icon svg').waitFor();
      await page.context().close();
    }));

  it('the patient reads the record the doctor saved, sees the unpaid bill and how to pay it, and pays at the desk', async () => {
    const { page, problems: seen } = await openPage(browser, server.url);
    problems.push(seen);
    await signInThroughUi(page, patient.email);
    await go(page, '/user/patient/records', 'My Records');
    const record = page.locator('.visit-record');
    await record.getByRole('heading', { name: `· ${DOCTOR}` }).waitFor();
    for (const text of [DISEASE, 'Early stage, good prognosis', 'Biopsy', 'Radiotherapy'])
      await record.getByText(text, { exact: true }).waitFor();
    await record.getByText('$150.00').waitFor();
    assert.deepEqual(await seriousAxeViolations(page), []);

    await go(page, '/user/patient/bills', 'Your Bills');
    const bill = page.locator('tbody tr', { has: page.getByText('$150.00', { exact: true }) });
    await bill.getByRole('button', { name: /^Pay/ }).click();
    // No card processor here: the patient is told how to pay instead, with the bill's number to quote.
    const howTo = page.getByRole('dialog', { name: 'How to pay this bill' });
    await howTo.getByText('Online card payment is not available.', { exact: false }).waitFor();
    await howTo.getByText('At the front desk').waitFor();
    await howTo.getByRole('button', { name: 'Close', exact: true }).last().click();
    await howTo.waitFor({ state: 'detached' });
    await payAtDesk(server, admin, patient);
    await page.reload();
    await bill.getByText('Paid', { exact: true }).waitFor();
    await page.context().close();
  });

  it('the admin sees the paid bill, its View modal and its printed receipt in a new window', async () => {
    const page = adminPage;
    await go(page, '/user/admin/bills', 'Bills');
    const bill = row(page, patient.name);
    await cell(bill, 'Status').getByText('Paid').waitFor();
    assert.equal(await cell(bill, 'Amount').innerText(), '$150.00');

    await bill.getByRole('button', { name: /^View bill/ }).click();
    const modal = page.getByRole('dialog');
    await modal.getByLabel('Patient and date').getByText(patient.name, { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    const [popup] = await Promise.all([page.context().waitForEvent('page'), chooseRowAction(bill, /^Print bill/)]);
    await popup.waitForLoadState();
    const receipt = popup.getByRole('dialog', { name: 'Receipt' });
    await receipt.getByText('Medora Test Clinic').waitFor();
    await receipt.getByText('$150.00').first().waitFor();
    await phoneScreenshot(popup, 'admin-receipt');
    await popup.close();
  });

  it('the dashboard shows the new statistics and top doctor; the patient overview shows the record', async () => {
    const page = adminPage;
    await go(page, '/user/admin/dashboard', 'Dashboard');
    await page.locator('.top-doctor-name', { hasText: DOCTOR }).waitFor();
    assert.equal(await page.locator('.top-doctor-specialization').innerText(), SPECIALIZATION);
    assert.equal(await page.getByTestId('top-doctor-dates').innerText(), '1');
    assert.equal(await page.getByTestId('top-doctor-patients').innerText(), '1');
    assert.match((await page.locator('.top-doctor img').getAttribute('src')) ?? '', /^\/api\/files\//);
    await stat(page, 'Total Appointment', '1');
    await stat(page, 'Total Patients', '1');
    await stat(page, 'Total Doctor', '1');
    await stat(page, 'Diseases By Doctor', '1');
    assert.match((await page.locator('svg.bar-chart desc').textContent()) ?? '', /^1 appointments/);

    await page.getByRole('link', { name: `View ${patient.name}` }).click();
    await page.waitForURL(/\/user\/admin\/patient\/profile\/\d+$/);
    await page.getByRole('heading', { name: patient.name }).waitFor();
    await page.locator('.record-card').getByText('Early stage, good prognosis').waitFor();
    await page.locator('.record-card').getByText(DISEASE).waitFor();
  });

  it('each admin delete asks first and tells the result; an in-use department explains the refusal', async () => {
    const page = adminPage;
    const dialog = page.getByRole('dialog');

    async function deleteRow(url: string, heading: string, name: string, what: string, result: string) {
      await go(page, url, heading);
      await chooseRowAction(row(page, name), `Delete ${name}`);
      await dialog.getByText(`Are you sure you want to delete this ${what}?`).waitFor();
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await alertText(page, result);
    }

    // Throwaway rows to delete.
    await go(page, '/user/admin/specializations', 'Specializations');
    await page.getByRole('button', { name: 'Add Specialization' }).click();
    await page.getByLabel('Specialization name').fill('Temp Specialization');
    await page.getByRole('button', { name: 'Create Specialization' }).click();
    await alertText(page, 'Specialization created successfully');
    await deleteRow(
      '/user/admin/specializations',
      'Specializations',
      'Temp Specialization',
      'specialization',
      'Specialization deleted successfully',
    );
    await row(page, 'Temp Specialization').waitFor({ state: 'detached' });

    await go(page, '/user/admin/diseases', 'Diseases');
    await page.getByLabel('Disease name').fill('Temp Disease');
    await page.getByRole('button', { name: 'Create Disease' }).click();
    await alertText(page, 'Disease Created Successfully');
    await deleteRow('/user/admin/diseases', 'Diseases', 'Temp Disease', 'disease', 'Disease deleted successfully');

    await go(page, '/user/admin/rooms', 'Rooms');
    await page.getByLabel('Room name').fill('Temp Room');
    await page.locator('form').getByLabel('Department').selectOption({ label: DEPARTMENT });
    await page.getByRole('button', { name: 'Create Room' }).click();
    await alertText(page, 'Room created successfully');
    await deleteRow('/user/admin/rooms', 'Rooms', 'Temp Room', 'room', 'Room deleted successfully');

    await go(page, '/user/admin/departments/create', 'Add Department');
    await page.getByLabel('Name', { exact: true }).fill('Temp Department');
    await page.getByRole('button', { name: 'Create Department' }).click();
    await alertText(page, 'Department created successfully');
    await deleteRow(
      '/user/admin/departments',
      'Department List',
      'Temp Department',
      'department',
      'Department deleted successfully',
    );

    // Declining keeps the row.
    await go(page, '/user/admin/departments', 'Department List');
    await chooseRowAction(row(page, DEPARTMENT), `Delete ${DEPARTMENT}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, DEPARTMENT).waitFor();

    // In use (a doctor, a room and an appointment belong to it): refused, with the reason.
    await chooseRowAction(row(page, DEPARTMENT), `Delete ${DEPARTMENT}`);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const refusal = page.getByRole('alert').locator('.alert-error');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /^Failed to delete department: .*\S/);
    await row(page, DEPARTMENT).waitFor();

    // The doctor has seen patients in this loop, so they are deactivated and their history kept.
    await deleteRow(
      '/user/admin/doctors',
      'Doctors',
      DOCTOR,
      'doctor',
      'Doctor deactivated: their appointments and records are kept, and they can no longer sign in',
    );
    await page.getByText('No doctors found.').waitFor();
  });

  // axe checks every screen of every role at both widths in axe-every-screen.ts; here, a form that
  // opens on demand, which that suite does not open.
  it('finds no serious accessibility violation in the Add Doctor form, and screenshots it on a phone', async () => {
    const page = adminPage;
    await page.goto('/user/admin/doctors');
    await page.getByRole('button', { name: 'Add Doctor' }).click();
    await page.getByRole('form', { name: 'New doctor' }).waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await phoneScreenshot(page, 'admin-doctors-form');
    assert.deepEqual(problems.flat(), []);
  });
});

async function stat(page: Page, label: string, value: string) {
  await page
    .locator('.stat', { has: page.locator('dt', { hasText: label }) })
    .locator('dd', { hasText: new RegExp(`^${value}(\\.0+)?$`) })
    .waitFor();
}
