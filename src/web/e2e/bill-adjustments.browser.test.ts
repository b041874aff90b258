/**
 * Adjusting a bill through the UI: reception issues a credit note on the patient's desk page, the receipt lists it,
 * an admin issues a supplementary bill from Bills, and the patient sees both on their Bills.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Locator, Page } from 'playwright-core';
import { openSignedInPage, serverAndBrowserPerSuite, seriousAxeViolations, type TestServer } from './harness.ts';
import { chooseRowAction } from './row-actions.ts';
import {
  createReceptionist,
  openDoctorEveryDay,
  patientIdOf,
  registerPatient,
  seedClinic,
  seedUnpaidBill,
  type Account,
  type Clinic,
} from './seed.ts';

describe('bill adjustments in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let reception: Account;
  let patient: Account;
  let billId = 0;
  let patientId = 0;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    reception = await createReceptionist(server, clinic.admin);
    patient = await registerPatient(server, 'Alma Adjusted');
    billId = (await seedUnpaidBill(server, clinic, patient, '09:00', '80.00')).id;
    patientId = await patientIdOf(server, clinic, patient);
  });

  const row = (page: Page, text: string | RegExp): Locator => page.locator('tbody tr', { hasText: text });
  const cell = (r: Locator, header: string) => r.locator(`td[data-label="${header}"]`);
  const supplement = () => `Supplement to B-${String(billId).padStart(6, '0')}: Extra ECG`;

  it('reception issues a credit note with a reason, and the balance and receipt show it', async () => {
    const { page: desk } = await openSignedInPage(browser, server, reception.email);
    await desk.goto(`${server.url}/user/reception/patients/${patientId}`);
    const bill = row(desk, `#${billId}`);
    await cell(bill, 'Balance').getByText('$80.00').waitFor();
    await chooseRowAction(bill, `Adjust bill #${billId}`);
    const dialog = desk.getByRole('dialog', { name: `Adjust bill #${billId}` });
    assert.deepEqual(await seriousAxeViolations(desk), []);
    assert.equal(
      await dialog.getByLabel('Amount').getAttribute('max'),
      '80.00',
      'a credit is offered up to what remains creditable',
    );
    await dialog.getByLabel('Amount').fill('20');
    await dialog.getByLabel('Reason').fill('Long wait');
    await dialog.getByRole('button', { name: 'Issue credit note' }).click();
    await desk.getByRole('alert').getByText('Credit note issued').waitFor();
    await cell(bill, 'Balance').getByText('$60.00').waitFor();
    await cell(bill, 'Balance').getByText('(credited $20.00)').waitFor();

    await chooseRowAction(bill, `Receipt of bill #${billId}`);
    const receipt = desk.getByRole('dialog', { name: /Receipt|Invoice/ });
    await receipt.getByText(/Credit note, .*: Long wait/).waitFor();
    await receipt.getByText('$60.00').first().waitFor();
    await desk.close();
  });

  it('an admin issues a supplementary bill from Bills, and the patient sees it and the credit on their Bills', async () => {
    const { page: admin } = await openSignedInPage(browser, server, clinic.admin.email);
    await admin.goto(`${server.url}/user/admin/bills`);
    const bill = row(admin, 'Alma Adjusted').filter({ hasText: `#${billId}` });
    await chooseRowAction(bill, `Adjust bill #${billId}`);
    const dialog = admin.getByRole('dialog', { name: `Adjust bill #${billId}` });
    await dialog.getByLabel('Type').selectOption('supplementary');
    await dialog.getByLabel('Amount').fill('15');
    await dialog.getByLabel('Reason').fill('Extra ECG');
    await dialog.getByRole('button', { name: 'Issue supplementary bill' }).click();
    await admin.getByRole('alert').getByText('Supplementary bill issued').waitFor();
    await admin.getByText(supplement()).first().waitFor();
    await admin.close();

    const { page: mine } = await openSignedInPage(browser, server, patient.email);
    await mine.goto(`${server.url}/user/patient/bills`);
    await mine.getByText(supplement()).first().waitFor();
    await cell(row(mine, `#${billId}`), 'Balance')
      .getByText('(credited $20.00)')
      .waitFor();
    await mine.close();
  });
});
