/**
 * Medicines through the UI: the doctor prescribes at a visit into a recorded allergy (the warning shown, overridden
 * with a reason) and prints the prescription; on the ward the doctor orders a medicine whose doses appear on the
 * medication round; a nurse gives one and holds one with a reason; later a dose left due shows late; the discharge
 * summary lists the medicine to continue.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Page } from 'playwright-core';
import { routes, withId } from '../paths.ts';
import {
  atClinicTime,
  openSignedInPage,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  type TestServer,
} from './harness.ts';
import {
  bookSlot,
  createNurse,
  openDoctorEveryDay,
  patientIdOf,
  registerPatient,
  seedClinic,
  seedWard,
  type Account,
  type Clinic,
} from './seed.ts';

const PATIENT = 'Alma Allergic';
const OMEPRAZOLE = 'Omeprazole 20 mg capsule';

describe('medicines in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let nurse: Account;
  let patientId: number;
  let bedId: number;
  let admissionId: number;
  const problems: string[][] = [];

  const api = async (method: string, path: string, token: string, body?: unknown) => {
    const answer = await server.api(method, path, { token, body });
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    bedId = (await seedWard(server, clinic)).bedIds[0] ?? 0;
    nurse = await createNurse(server, clinic);
    const patient = await registerPatient(server, PATIENT);
    const visit = await bookSlot(server, clinic, patient, '10:00');
    patientId = await patientIdOf(server, clinic, patient);
    await atClinicTime('10:00', () => api('POST', `/api/appointments/${visit.id}/check-in`, clinic.admin.token));
    await api('POST', `/api/patients/${patientId}/allergies`, clinic.doctor.token, {
      substance: 'Penicillin',
      reaction: 'anaphylaxis',
      severity: 'severe',
    });
  });

  const signedIn = async (account: Account): Promise<Page> => {
    const { page, problems: seen } = await openSignedInPage(browser, server, account.email);
    problems.push(seen);
    return page;
  };
  const alertText = (page: Page, text: string | RegExp) => page.getByRole('alert').getByText(text).first().waitFor();
  const menu = (page: Page, label: string) =>
    page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: label }).click();

  it('a doctor prescribes into an allergy: the warning is shown, overridden with a reason, and the prescription printed', async () => {
    const doctor = await signedIn(clinic.doctor);
    await doctor.goto(routes.doctor.agenda);
    await doctor.getByRole('button', { name: new RegExp(`^Prescribe for ${PATIENT}`) }).click();
    const dialog = doctor.getByRole('dialog', { name: `Prescribe: ${PATIENT}` });
    await dialog.getByText('Allergies: Penicillin (severe: anaphylaxis)').waitFor();
    await dialog.locator('option', { hasText: 'Amoxicillin 500 mg capsule' }).waitFor({ state: 'attached' });
    await dialog.getByLabel('Medicine', { exact: true }).selectOption({ label: 'Amoxicillin 500 mg capsule' });
    await dialog.getByLabel('Dose', { exact: true }).fill('500');
    await dialog.getByLabel('Duration (days)').fill('7');
    await dialog.getByRole('button', { name: 'Prescribe', exact: true }).click();
    await dialog.getByText('Allergy warning.').waitFor();
    await dialog
      .getByText(/Penicillin \(severe: anaphylaxis\)/)
      .first()
      .waitFor();
    assert.deepEqual(await seriousAxeViolations(doctor), []);
    await dialog.getByLabel('Reason to prescribe anyway').fill('Tolerated amoxicillin last year');
    await dialog.getByRole('button', { name: 'Override and prescribe' }).click();

    await doctor.getByRole('heading', { name: 'Prescription', level: 1 }).waitFor();
    const script = doctor.locator('.prescription');
    await script.getByText(/^Amoxicillin 500 mg capsule, 500 mg, oral, 3 times a day, for 7 days/).waitFor();
    await script.locator('.signature-line', { hasText: 'Dr. Grace Hopper' }).getByText('Prescribing doctor').waitFor();
    assert.equal(await script.getByText('Tolerated amoxicillin').count(), 0, 'the override is not on the script');
    await doctor.emulateMedia({ media: 'print' });
    assert.equal(await doctor.locator('.sidebar').isVisible(), false, 'the page around the script is not printed');
    assert.equal(await script.isVisible(), true);
    assert.equal(await doctor.getByRole('button', { name: 'Print' }).isVisible(), false);
    await doctor.emulateMedia({ media: 'screen' });
  });

  it('on the ward the doctor orders a medicine, its doses appear, and a nurse gives one and holds one with a reason', async () => {
    const admission = await api('POST', '/api/admissions', clinic.doctor.token, {
      patient_id: patientId,
      department_id: clinic.departmentId,
      expected_nights: 2,
      reason: 'Gastritis',
    });
    admissionId = admission.id;
    await api('POST', `/api/admissions/${admissionId}/admit`, clinic.admin.token, { bed_id: bedId });

    const doctor = await signedIn(clinic.doctor);
    await menu(doctor, 'Medication round');
    await doctor.getByRole('heading', { name: new RegExp(PATIENT), level: 2 }).waitFor();
    await doctor.getByRole('button', { name: 'Order medicine' }).click();
    const dialog = doctor.getByRole('dialog', { name: `Order a medicine: ${PATIENT}` });
    await dialog.locator('option', { hasText: OMEPRAZOLE }).waitFor({ state: 'attached' });
    await dialog.getByLabel('Medicine', { exact: true }).selectOption({ label: OMEPRAZOLE });
    await dialog.getByLabel('Dose', { exact: true }).fill('20');
    await dialog.getByLabel('Frequency').selectOption({ label: 'At given times' });
    await dialog.getByLabel('At times').fill('08:00, 12:00, 16:00, 20:00');
    await dialog.getByLabel('Duration (days)').fill('1');
    await dialog.getByLabel('Continue after discharge').check();
    await dialog.getByRole('button', { name: 'Order medicine' }).click();
    await alertText(doctor, /^Ordered: Omeprazole/);
    await doctor
      .getByRole('button', { name: new RegExp(`^Give: ${OMEPRAZOLE}`) })
      .first()
      .waitFor();

    const ward = await signedIn(nurse);
    await menu(ward, 'Medication round');
    await ward.getByText('Allergies: Penicillin (severe: anaphylaxis)').waitFor();
    await ward
      .getByRole('button', { name: new RegExp(`^Give: ${OMEPRAZOLE}`) })
      .first()
      .click();
    const give = ward.getByRole('dialog', { name: `Give: ${OMEPRAZOLE}` });
    await give.getByRole('button', { name: 'Record given' }).click();
    await alertText(ward, `${OMEPRAZOLE}: dose recorded given`);
    await ward
      .getByRole('button', { name: new RegExp(`^Hold: ${OMEPRAZOLE}`) })
      .first()
      .click();
    const hold = ward.getByRole('dialog', { name: `Hold: ${OMEPRAZOLE}` });
    await hold.getByLabel('Reason').fill('Nil by mouth before endoscopy');
    await hold.getByRole('button', { name: 'Record held' }).click();
    await alertText(ward, `${OMEPRAZOLE}: dose recorded held`);
    await ward.getByText('Nil by mouth before endoscopy').waitFor();
    assert.equal(await ward.locator('.mar-dose .badge-given').count(), 1);
    assert.equal(await ward.locator('.mar-dose .badge-held').count(), 1);
    assert.deepEqual(await seriousAxeViolations(ward), []);
  });

  it('later a dose left due shows late on the medication round', async () => {
    const ward = await signedIn(nurse);
    await atClinicTime('17:30', async () => {
      await menu(ward, 'Medication round');
      await ward.locator('.mar-dose-late').getByText('Late', { exact: true }).waitFor();
      await ward.getByText('1 late dose').waitFor();
    });
  });

  it('the discharge summary lists the medicine to continue', async () => {
    await api('POST', `/api/admissions/${admissionId}/discharge-order`, clinic.doctor.token, {
      diagnosis: 'Gastritis',
      treatment: 'Proton pump inhibitor',
    });
    const doctor = await signedIn(clinic.doctor);
    await doctor.goto(withId(routes.doctor.dischargeSummary, admissionId));
    const section = doctor.getByRole('region', { name: 'Medicines to continue' });
    await section.getByText(/^Omeprazole 20 mg capsule, 20 mg, oral, at 08:00, 12:00, 16:00, 20:00/).waitFor();
    assert.deepEqual(problems.flat(), []);
  });
});
