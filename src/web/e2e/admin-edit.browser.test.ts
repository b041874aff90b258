/**
 * The admin's edit screens and filtered lists: a doctor's details, photo and weekly schedule, a patient's contact
 * details, appointments and bills filtered (kept in the URL) and downloaded as CSV, and a bill's full View.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from '../../testing/node-test.ts';
import type { Page } from 'playwright-core';
import {
  CLINIC_TODAY,
  PASSWORD,
  openSignedInPage,
  phoneScreenshot,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  shownDate,
  uniqueEmail,
  type TestServer,
} from './harness.ts';
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

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

// A 1×1 PNG, the doctor's new photo.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('the admin edits doctors and patients and filters and exports lists in the browser', () => {
  let server: TestServer;
  let clinic: Clinic;
  let house: Clinic['doctor'];
  let patient: Account & { id: number };
  let page: Page;
  let problems: string[];
  const appointments: Record<string, number> = {};

  serverAndBrowserPerSuite(async (started, browser) => {
    server = started;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    const admin = { token: clinic.admin.token };
    const houseEmail = uniqueEmail('house');
    const created = await server.api('POST', '/api/admin/doctors', {
      ...admin,
      body: { name: 'Dr. Gregory House', email: houseEmail, password: PASSWORD },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const login = await server.api('POST', '/api/login', { body: { email: houseEmail, password: PASSWORD } });
    house = { id: created.body.id, name: 'Dr. Gregory House', email: houseEmail, token: login.body.token };
    const withHouse = { ...clinic, doctor: house };
    await openDoctorEveryDay(server, withHouse);

    const paula = await registerPatient(server, 'Paula Patient');
    const mark = await registerPatient(server, '=Mark Formula');
    const listed = await server.api('GET', '/api/admin/patients?q=Paula', admin);
    patient = { ...paula, id: listed.body.patients[0].id };
    await seedUnpaidBill(server, clinic, paula, '09:00', '80.00');
    appointments.houseScheduled = (await bookSlot(server, withHouse, paula, '10:00', daysAhead(1))).id;
    appointments.houseCancelled = (await bookSlot(server, withHouse, mark, '11:00', daysAhead(2))).id;
    appointments.hopper = (await bookSlot(server, clinic, mark, '10:00', daysAhead(3))).id;
    assert.equal(
      (await server.api('POST', `/api/admin/appointments/${appointments.houseCancelled}/cancel`, admin)).status,
      200,
    );
    ({ page, problems } = await openSignedInPage(browser, server, clinic.admin.email));
  });

  const alertText = (text: string) => page.getByRole('alert').getByText(text, { exact: true }).waitFor();
  const api = async (path: string) => (await server.api('GET', path, { token: clinic.admin.token })).body;

  /** No sideways scrolling, the first row's controls in view, and no serious axe finding, at both widths. */
  async function checkScreen(what: string, firstRow = true): Promise<void> {
    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport);
      await settled(page);
      const { scrollWidth, clientWidth } = await page.evaluate(() => {
        const root = document.scrollingElement ?? document.documentElement;
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
      });
      assert.ok(
        scrollWidth <= clientWidth,
        `${what} at ${viewport.width} px scrolls sideways: ${scrollWidth} > ${clientWidth}`,
      );
      if (firstRow) {
        const controls = page.locator('tbody tr').first().locator('a:visible, button:visible');
        for (let index = 0; index < (await controls.count()); index++) {
          const box = await controls.nth(index).boundingBox();
          assert.ok(
            box && box.x >= 0 && box.x + box.width <= viewport.width,
            `${what} at ${viewport.width} px: control ${index} is out of view`,
          );
        }
      }
      assert.deepEqual(await seriousAxeViolations(page), [], `${what} at ${viewport.width} px`);
    }
    await page.setViewportSize(WIDTHS[0]);
  }

  it("edits a doctor's details, photo and weekly schedule from the Doctors list", async () => {
    await page.goto('/user/admin/doctors');
    await page.getByRole('link', { name: `Edit ${house.name}` }).click();
    await page.getByRole('heading', { name: `Edit ${house.name}`, level: 1 }).waitFor();
    const details = page.getByRole('form', { name: 'Doctor details' });
    await details.locator('option', { hasText: 'Cardiology' }).waitFor({ state: 'attached' });
    await checkScreen('the doctor edit page', false);

    await details.getByLabel('Email', { exact: true }).fill('not an email');
    await details
      .getByRole('button', { name: 'Save Doctor' })
      .evaluate((button) => button.closest('form')?.setAttribute('novalidate', ''));
    await details.getByRole('button', { name: 'Save Doctor' }).click();
    await details.getByText('Email must be a valid email address').waitFor();

    await details.getByLabel('Email', { exact: true }).fill(house.email);
    await details.getByLabel('Phone').fill('+1 555 0177');
    await details.getByLabel('Address').fill('221B Baker Street');
    await details.getByLabel('Department').selectOption({ label: 'Cardiology' });
    await details.getByLabel('New photo').setInputFiles({ name: 'house.png', mimeType: 'image/png', buffer: PNG });
    await details.getByRole('button', { name: 'Save Doctor' }).click();
    await alertText('Doctor updated successfully');
    const saved = await api(`/api/admin/doctors/${house.id}`);
    assert.equal(saved.phone, '+1 555 0177');
    assert.equal(saved.address, '221B Baker Street');
    assert.equal(saved.department.name, 'Cardiology');
    assert.match(saved.image ?? '', /^\/api\/files\//);
    assert.equal(await details.getByRole('img', { name: house.name }).getAttribute('src'), saved.image);

    const hours = page.getByRole('form', { name: 'Working hours' });

    // The save's own answer, then its message: the message of an earlier save may still be on the screen.
    const saveSchedule = async () => {
      const [answer] = await Promise.all([
        page.waitForResponse(
          (res) => res.url().endsWith(`/api/admin/doctors/${house.id}/schedule`) && res.request().method() === 'PUT',
        ),
        hours.getByRole('button', { name: 'Save Schedule' }).click(),
      ]);
      assert.equal(answer.status(), 200, await answer.text());
      await page.getByRole('alert').getByText('Schedule saved successfully').waitFor();
    };
    const preview = page.getByRole('table', { name: 'Slots preview' });
    await preview
      .getByRole('row', { name: /^Sunday/ })
      .getByRole('cell', { name: '16 slots', exact: true })
      .waitFor();
    const before = await api(`/api/admin/doctors/${house.id}/schedule`);
    await saveSchedule();
    assert.deepEqual(
      await api(`/api/admin/doctors/${house.id}/schedule`),
      before,
      'the form holds exactly what is saved',
    );

    await hours.getByRole('button', { name: 'Remove Saturday 1' }).click();
    await hours.getByRole('button', { name: 'Remove Sunday 1' }).click();
    await hours.getByLabel('Monday 1 start').fill('10:00');
    await hours.getByLabel('Monday 1 end').fill('12:00');
    await hours.getByRole('button', { name: 'Add hours to Monday' }).click();
    await hours.getByLabel('Monday 2 start').fill('13:00');
    await hours.getByLabel('Monday 2 end').fill('14:00');
    await hours.getByLabel('Monday 2 slot minutes').fill('20');
    await hours.getByRole('button', { name: 'Copy Monday to Tuesday–Friday' }).click();
    await preview
      .getByRole('row', { name: /^Friday/ })
      .getByRole('cell', { name: '7 slots', exact: true })
      .waitFor();
    await saveSchedule();
    await preview
      .getByRole('row', { name: /^Monday/ })
      .getByRole('cell', { name: '7 slots', exact: true })
      .waitFor();
    await preview
      .getByRole('row', { name: /^Sunday/ })
      .getByRole('cell', { name: '0 slots', exact: true })
      .waitFor();
    const schedule = await api(`/api/admin/doctors/${house.id}/schedule`);
    assert.deepEqual([...new Set(schedule.slots.map((s: { weekday: number }) => s.weekday))], [1, 2, 3, 4, 5]);
    assert.deepEqual(
      schedule.slots
        .filter((s: { weekday: number }) => s.weekday === 1)
        .map((s: { start_time: string }) => s.start_time),
      ['10:00', '10:30', '11:00', '11:30', '13:00', '13:20', '13:40'],
    );

    await page.reload();
    await preview
      .getByRole('row', { name: /^Monday/ })
      .getByRole('cell', { name: '7 slots', exact: true })
      .waitFor();
    assert.equal(
      await hours.getByLabel('Monday 2 slot minutes').inputValue(),
      '20',
      'the form loads the saved slot length',
    );
    const leave = page.getByRole('form', { name: 'Add time off' });
    await leave.getByLabel('First day').fill('2099-01-06');
    await leave.getByLabel('Reason').fill('Course');
    await leave.getByRole('button', { name: 'Add Time Off' }).click();
    await page.getByRole('alert').getByText('Time off added; no booked visits inside it').waitFor();
    await page.getByRole('region', { name: 'Leave and closures' }).getByText('Leave: Jan 6, 2099 (Course)').waitFor();
    await phoneScreenshot(page, 'admin-doctor-edit');
    assert.deepEqual(problems, []);
  });

  it("edits a patient's phone from the patient's profile, naming a field the server refuses", async () => {
    await page.goto(`/user/admin/patient/profile/${patient.id}`);
    await page.getByRole('heading', { name: 'Patient Overview' }).waitFor();
    await page.getByRole('button', { name: 'Edit details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Paula Patient' });
    await checkScreen('the patient edit dialog', false);

    await dialog.getByLabel('Birthdate').fill('2999-01-01');
    await dialog.getByRole('button', { name: 'Save details' }).click();
    await dialog
      .locator('.field-error')
      .getByText(/^Birthdate /)
      .waitFor();
    await dialog.getByLabel('Birthdate').fill('1990-05-17');
    await dialog.getByLabel('Phone').fill('+1 555 0123');
    await dialog.getByRole('button', { name: 'Save details' }).click();
    await alertText('Patient details updated');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.shell-main').getByText('+1 555 0123').waitFor();
    assert.equal((await api(`/api/admin/patients/${patient.id}`)).phone, '+1 555 0123');
    assert.deepEqual(problems, []);
  });

  it('filters appointments by doctor and status, keeps the filters over a reload and downloads exactly those rows', async () => {
    await page.goto('/user/admin/appointments');
    const filters = page.getByRole('form', { name: 'Filter appointments' });
    await filters.locator('option', { hasText: house.name }).waitFor({ state: 'attached' });
    await page.locator('.page-info').getByText('1 - 4 of 4').waitFor();
    await filters.getByLabel('Doctor').selectOption({ label: house.name });
    await filters.getByLabel('Status').selectOption('cancelled');
    await filters.getByRole('button', { name: 'Apply filters' }).press('Enter');
    await page.locator('.page-info').getByText('1 - 1 of 1').waitFor();
    assert.match(await page.locator('tbody tr').first().innerText(), /Mark Formula/);
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('doctor_id'), String(house.id));
    assert.equal(url.searchParams.get('status'), 'cancelled');

    await page.reload();
    await page.locator('.page-info').getByText('1 - 1 of 1').waitFor();
    assert.equal(await filters.getByLabel('Status').inputValue(), 'cancelled');
    assert.equal(await filters.getByLabel('Doctor').inputValue(), String(house.id));
    await checkScreen('the filtered appointments');
    await phoneScreenshot(page, 'admin-appointments-filtered');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      filters.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `medora-appointments-${CLINIC_TODAY}.csv`);
    const lines = (await readFile(await download.path(), 'utf8')).split('\r\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0] ?? '', /^id,date,start_time,end_time,status,patient_id,patient_name/);
    assert.ok(lines[1]?.startsWith(`${appointments.houseCancelled},${daysAhead(2)},11:00,11:30,cancelled,`), lines[1]);
    assert.match(lines[1] ?? '', /,'=Mark Formula,/);

    await filters.getByLabel('From', { exact: true }).fill(daysAhead(5));
    await filters.getByLabel('To', { exact: true }).fill(daysAhead(4));
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await filters.getByText('To must not be before from').waitFor();
    await filters.getByRole('button', { name: 'Clear' }).click();
    await page.locator('.page-info').getByText('1 - 4 of 4').waitFor();
    assert.equal(new URL(page.url()).search, '');
    assert.deepEqual(problems, []);
  });

  it("filters the bills and shows a bill's doctor, visit, items and status in its View", async () => {
    await page.goto('/user/admin/bills');
    const filters = page.getByRole('form', { name: 'Filter bills' });
    await page.locator('.page-info').getByText('1 - 1 of 1').waitFor();
    await checkScreen('the bills');

    await page.getByRole('button', { name: /^View bill/ }).click();
    const modal = page.getByRole('dialog', { name: /^Bill #/ });
    await modal.getByText(clinic.doctor.name).waitFor();
    // The bill's head names the patient as every printout does: name, birth date and id.
    const printedPatient = modal.getByLabel('Patient and date');
    await printedPatient.getByText(patient.name, { exact: true }).waitFor();
    assert.match(await printedPatient.innerText(), new RegExp(`Patient ID\\s+${patient.id}\\b`));
    await modal.getByRole('cell', { name: 'Consultation' }).waitFor();
    await modal.getByText('Unpaid').waitFor();
    assert.match(await modal.innerText(), new RegExp(`Visit date\\s+${shownDate(CLINIC_TODAY)}`));
    assert.deepEqual(await seriousAxeViolations(page), []);
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });

    await filters.getByLabel('Status').selectOption('paid');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No bills found.').waitFor();
    await filters.getByLabel('Status').selectOption('unpaid');
    await filters.getByLabel('Doctor').selectOption({ label: clinic.doctor.name });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      filters.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = await readFile(await download.path(), 'utf8');
    assert.match(
      csv,
      /^id,billing_date,patient_id,patient_name,patient_email,doctor_name,visit_date,service,amount,currency,status\r\n\d+,2030-06-03,\d+,Paula Patient,[^,]+,Dr\. Grace Hopper,2030-06-03,Consultation,80\.00,USD,unpaid\r\n$/,
    );
    await page.locator('.page-info').getByText('1 - 1 of 1').waitFor();
    assert.deepEqual(problems, []);
  });
});
