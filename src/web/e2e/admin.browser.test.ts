import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Page } from 'playwright-core';
import { PASSWORD, openSignedInPage, serverAndBrowserPerSuite, uniqueEmail, type TestServer } from './harness.ts';
import { chooseRowAction } from './row-actions.ts';
import { bookSlot, openDoctorEveryDay, registerPatient, seedClinic, type Clinic } from './seed.ts';

describe('the admin area in the browser', () => {
  let server: TestServer;
  let clinic: Clinic;
  let page: Page;
  let problems: string[];

  serverAndBrowserPerSuite(async (started, browser) => {
    server = started;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    // Twelve patients of one name, as a patient books one visit a day with a doctor.
    const times = [
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
      '13:00',
      '13:30',
      '14:00',
      '14:30',
    ];
    for (const time of times) await bookSlot(server, clinic, await registerPatient(server, 'Paula Patient'), time);
    for (const name of ['Dermatology', 'Neurology', 'Pediatrics', 'Radiology', 'Surgery']) {
      await server.api('POST', '/api/admin/departments', {
        token: clinic.admin.token,
        body: { name, description: '' },
      });
    }
    ({ page, problems } = await openSignedInPage(browser, server, clinic.admin.email));
  });

  const alertText = (text: string) => page.getByRole('alert').getByText(text, { exact: true }).waitFor();
  const info = () => page.locator('.page-info');

  it('lists appointments 10 a page with the spec columns, searches, and cancels a scheduled one', async () => {
    await page.goto('/user/admin/appointments');
    await page.getByRole('heading', { name: 'Appointments', level: 1 }).waitFor();
    const headers = (await page.locator('thead th').allTextContents()).map((h) => h.trim());
    assert.deepEqual(headers, [
      'Appointment ID',
      'Patient Name',
      'Patient Email',
      'Doctor Name',
      'Doctor Email',
      'Department',
      'Date',
      'Actions',
    ]);
    await info().getByText('1 - 10 of 12').waitFor();
    await page.getByLabel('Search').fill('nobody at all');
    await page.getByText('No appointments found.').waitFor();
    await page.getByLabel('Search').fill('Paula');
    await info().getByText('1 - 10 of 12').waitFor();

    const first = page.locator('tbody tr').first();
    await chooseRowAction(first, /^Cancel appointment/);
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Are you sure you want to cancel appointment/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel appointment' }).click();
    await alertText('Appointment cancelled successfully');
    await page.locator('tbody').getByText('Cancelled', { exact: true }).waitFor();
  });

  it('pages the departments 5 at a time and shows the create and update failures', async () => {
    await page.goto('/user/admin/departments');
    await info().getByText('1 - 5 of 6').waitFor();
    assert.equal(await page.locator('tbody tr').count(), 5);

    await page.route('**/api/admin/departments', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, json: { message: 'boom', code: 'internal' } })
        : route.continue(),
    );
    await page.getByRole('link', { name: 'Add New Department' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Broken');
    await page.getByRole('button', { name: 'Create Department' }).click();
    await alertText('An error occurred. Please try again.');
    await page.unroute('**/api/admin/departments');

    await page.getByLabel('Name', { exact: true }).fill('');
    await page.evaluate(() => document.querySelector('form')?.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: 'Create Department' }).click();
    await page.locator('.field-error').waitFor();

    const departments = (await server.api('GET', '/api/admin/departments?q=Surgery', { token: clinic.admin.token }))
      .body.departments;
    await page.route('**/api/admin/departments/*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, json: { message: 'boom', code: 'internal' } })
        : route.continue(),
    );
    await page.goto(`/user/admin/departments/edit/${departments[0].id}`);
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('form input')?.value === 'Surgery');
    await page.getByRole('button', { name: 'Update Department' }).click();
    await alertText('Update failed');
    await page.unroute('**/api/admin/departments/*');
  });

  it('shows the specialization failure and refuses to delete a doctor with upcoming appointments, saying why', async () => {
    await page.goto('/user/admin/specializations');
    await page.route('**/api/admin/specializations', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, json: { message: 'boom', code: 'internal' } })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Add Specialization' }).click();
    await page.getByLabel('Specialization name').fill('Broken');
    await page.getByRole('button', { name: 'Create Specialization' }).click();
    await alertText('Failed to create specialization');
    await page.unroute('**/api/admin/specializations');

    await page.goto('/user/admin/doctors');
    await chooseRowAction(page.locator('tbody tr', { hasText: clinic.doctor.name }), `Delete ${clinic.doctor.name}`);
    await page.getByRole('dialog').getByText('Are you sure you want to delete this doctor?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    const refusal = page.getByRole('alert').locator('.alert-error');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /^Failed to delete doctor: \S/);
  });

  it('deactivates a doctor who has history instead of deleting them, and says so', async () => {
    const admin = { token: clinic.admin.token };
    const name = 'Dr. Alan Turing';
    const created = await server.api('POST', '/api/admin/doctors', {
      ...admin,
      body: { name, email: uniqueEmail('turing'), password: PASSWORD, phone: '+1 555 0199', gender: 'male' },
    });
    const doctorId = created.body.id;
    await server.api('PUT', `/api/admin/doctors/${doctorId}/schedule`, {
      ...admin,
      body: { days: [1, 2, 3, 4, 5, 6, 7], start_time: '09:00', end_time: '10:00', slot_minutes: 30 },
    });
    const visitor = await registerPatient(server, 'Vic Visitor');
    const booked = await bookSlot(server, { ...clinic, doctor: { ...clinic.doctor, id: doctorId } }, visitor, '09:00');
    assert.equal(
      (await server.api('POST', `/api/patient/appointments/${booked.id}/cancel`, { token: visitor.token })).status,
      200,
    );

    await page.goto('/user/admin/doctors');
    await chooseRowAction(page.locator('tbody tr', { hasText: name }), `Delete ${name}`);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await alertText('Doctor deactivated: their appointments and records are kept, and they can no longer sign in');
    await page.locator('tbody tr', { hasText: name }).waitFor({ state: 'detached' });
  });

  it('says "+" after a total the server counted only so far, and pages on past it', async () => {
    const row = (id: number) => ({
      id,
      name: `Patient ${id}`,
      email: `p${id}@medora.test`,
      phone: '1',
      gender: 'other',
      birthdate: '1990-01-01',
    });
    await page.route('**/api/admin/patients?*', (route) => {
      const asked = new URL(route.request().url());
      const [number, perPage] = [Number(asked.searchParams.get('page')), Number(asked.searchParams.get('per_page'))];
      const ids = Array.from({ length: perPage }, (_, i) => (number - 1) * perPage + i + 1);
      const total = (number - 1) * perPage + perPage * 10;
      return route.fulfill({
        json: { patients: ids.map(row), total, total_is_lower_bound: true, page: number, per_page: perPage },
      });
    });
    await page.goto('/user/admin/patients');
    await info().getByText('1 - 10 of 100+').waitFor();
    await page.getByText('Page 1 of 10+').waitFor();
    await page.getByLabel('Go to page').fill('10');
    await info().getByText('91 - 100 of 190+').waitFor();
    await page.getByText('Page 10 of 19+').waitFor();
    await page.unroute('**/api/admin/patients?*');
  });

  it('shows "No bills found." while there are none, and the empty top doctor', async () => {
    await page.goto('/user/admin/bills');
    await page.getByText('No bills found.').waitFor();
    await page.goto('/user/admin/dashboard');
    await page.locator('.top-doctor-name', { hasText: 'No visits completed yet' }).waitFor();
    assert.equal(await page.getByTestId('top-doctor-dates').innerText(), '0');
    await page.locator('svg.bar-chart title', { hasText: 'Appointments per day' }).waitFor({ state: 'attached' });
    assert.match((await page.locator('svg.bar-chart desc').textContent()) ?? '', /^11 appointments/);
    assert.deepEqual(problems, []);
  });
});
