/**
 * Lab results through the UI (issue 48): a doctor orders a basic metabolic panel at a checked-in visit; the lab
 * collects the potassium (its label printed with a Code 128 barcode) and enters a critical value; the doctor is
 * alerted on their day, acknowledges, releases and reviews; the patient reads the values, the usual range in plain
 * words and the trend; the lab corrects the value, and the doctor and the patient both see what changed. The audit
 * trail verifies as `medora audit verify` checks it.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Page } from 'playwright-core';
import { present } from '../../testing/assert.ts';
import { sealAll } from '../../testing/audit-sealing.ts';
import { routes, withId } from '../paths.ts';
import {
  atClinicTime,
  openSignedInPage,
  phoneScreenshot,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  type TestServer,
} from './harness.ts';
import {
  bookSlot,
  createLabTechnician,
  openDoctorEveryDay,
  patientIdOf,
  registerPatient,
  seedClinic,
  type Account,
  type Clinic,
} from './seed.ts';

const PATIENT = 'Kim Kalium';
const PANEL = 'Basic metabolic panel';

interface WorkItem {
  id: number;
  code: string;
  name: string;
  unit: string | null;
  status: string;
  result: { observation_id: number; version: number } | null;
}

describe('lab orders and results in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let lab: Account;
  let patient: Account;
  let patientId: number;
  let appointmentId: number;
  let orderNumber = '';
  const problems: string[][] = [];

  const api = async (token: string, method: string, path: string, body?: unknown) => {
    const answer = await server.api(method, path, { token, body });
    assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const workItems = async (number: string): Promise<{ id: number; items: WorkItem[] }> =>
    present((await api(lab.token, 'GET', `/api/lab/worklist?order_number=${number}`)).orders[0]);
  /** The lab's whole path for the tests of an order it is not shown doing: collected, resulted normal. */
  const resultRest = async (number: string, skip: string) => {
    const order = await workItems(number);
    for (const item of order.items.filter((i) => i.name !== skip)) {
      if (item.status === 'waiting')
        await api(lab.token, 'POST', `/api/lab/items/${item.id}/collect`, { specimen_code: `API-${item.id}` });
      await api(lab.token, 'POST', `/api/lab/items/${item.id}/result`, normalResult(item));
    }
  };

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    lab = await createLabTechnician(server, clinic.admin, 'Lee Lab');
    patient = await registerPatient(server, PATIENT);
    patientId = await patientIdOf(server, clinic, patient);
    appointmentId = (await bookSlot(server, clinic, patient, '09:00')).id;
    await api(clinic.admin.token, 'POST', `/api/appointments/${appointmentId}/check-in`);
    // An earlier potassium, released: the patient's trend has a value before today's.
    await atClinicTime('07:00', async () => {
      const tests = await api(clinic.doctor.token, 'GET', '/api/lab/tests?q=Potassium');
      const potassium = present(tests.tests.find((t: { code: string }) => t.code === '2823-3'));
      const placed = await api(clinic.doctor.token, 'POST', '/api/lab/orders', {
        appointment_id: appointmentId,
        test_ids: [potassium.id],
      });
      await resultRest(placed.order_number, '');
      await api(lab.token, 'POST', `/api/lab/orders/${placed.id}/finalize`);
      await api(clinic.doctor.token, 'POST', `/api/lab/orders/${placed.id}/release`);
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

  it('a doctor orders a panel at the visit, stat, with a clinical note', async () => {
    const doctor = await signedIn(clinic.doctor);
    await doctor.getByRole('button', { name: `Order tests for ${PATIENT}, 9:00 AM` }).click();
    const dialog = doctor.getByRole('dialog', { name: `Order tests for ${PATIENT}` });
    await dialog.getByLabel('Find a test or panel').fill('metabolic');
    await dialog.getByRole('checkbox', { name: new RegExp(`^${PANEL}`) }).check();
    await dialog.getByLabel('Priority').selectOption({ label: 'STAT' });
    await dialog.getByLabel('Clinical note for the lab').fill('Weakness, on ACE inhibitor');
    assert.deepEqual(await seriousAxeViolations(doctor), []);
    await dialog.getByRole('button', { name: 'Place order' }).click();
    await alertText(doctor, new RegExp(`^Order (L\\d{8}-\\d{6}) placed for ${PATIENT}$`));
    orderNumber = present(
      /Order (\S+) placed/.exec(await doctor.getByRole('alert').innerText())?.[1],
      'the order number in the alert',
    );
    await doctor.context().close();
  });

  it('the lab collects the potassium, prints its barcode label, enters a critical value and finalizes', async () => {
    const page = await signedIn(lab);
    await page.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
    const card = page.getByRole('article', { name: `Order ${orderNumber}` });
    await card.getByText(PATIENT).waitFor();
    assert.equal(await card.getByText('Weakness').count(), 0, 'the lab is not shown the clinical note');
    await card.getByRole('button', { name: 'Collect: Potassium' }).click();
    const collect = page.getByRole('dialog', { name: 'Collect: Potassium' });
    const code = await collect.getByLabel('Specimen id').inputValue();
    assert.match(code, new RegExp(`^${orderNumber}-\\d+$`));
    await collect.getByRole('button', { name: 'Record collection' }).click();
    const label = page.getByRole('dialog', { name: 'Specimen label' });
    const barcode = label.getByRole('img', { name: `Barcode ${code}` });
    await barcode.waitFor();
    assert.ok((await barcode.locator('rect[fill="#000"]').count()) > 20, 'the label carries the bars');
    await label.getByText(PATIENT).waitFor();
    await phoneScreenshot(page, 'lab-label');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await label.getByRole('button', { name: 'Close' }).click();

    await card.getByRole('button', { name: 'Enter result: Potassium' }).click();
    const result = page.getByRole('dialog', { name: 'Result: Potassium' });
    assert.equal(await result.getByLabel('Unit (UCUM)').inputValue(), 'mmol/L');
    await result.getByLabel('Value').fill('7');
    await result.getByRole('button', { name: 'Save result' }).click();
    await alertText(page, 'Result of Potassium saved (HH)');
    await resultRest(orderNumber, 'Potassium');
    await page.reload();
    await card.getByRole('button', { name: 'Finalize report' }).click();
    await alertText(page, `Report of order ${orderNumber} is final`);
    await page.getByText('Nothing waits for the lab.').waitFor();
    await page.context().close();
  });

  it('the doctor is alerted on their day, acknowledges the critical value, releases and reviews', async () => {
    const doctor = await signedIn(clinic.doctor);
    const notice = doctor.getByRole('region', { name: 'Lab results' });
    await notice.getByText('1 critical result to acknowledge.').waitFor();
    await notice.getByRole('link', { name: 'Results to review' }).click();
    await doctor.getByRole('heading', { name: 'Results to review', level: 1 }).waitFor();
    const card = doctor.getByRole('article', { name: `${PATIENT} · Order ${orderNumber}` });
    await doctor.getByText('Critical', { exact: true }).first().waitFor();
    await card.getByText('Weakness, on ACE inhibitor', { exact: false }).waitFor();
    assert.deepEqual(await seriousAxeViolations(doctor), []);
    await card.getByRole('button', { name: 'Acknowledge critical result' }).click();
    await alertText(doctor, 'Critical result acknowledged');
    await card.getByRole('button', { name: 'Acknowledge critical result' }).waitFor({ state: 'detached' });
    await card.getByRole('button', { name: 'Release to patient' }).click();
    await alertText(doctor, 'Results released to the patient');
    await card.getByText('Released to the patient').waitFor();
    await card.getByLabel('Review comment (optional)').fill('Repeat potassium tomorrow');
    await card.getByRole('button', { name: 'Mark reviewed' }).click();
    await alertText(doctor, 'Results marked reviewed');
    // Reviewed, it leaves the list; the earlier potassium, normal and not yet reviewed, stays.
    await card.waitFor({ state: 'detached' });
    await doctor.locator('.lab-rank', { hasText: 'Normal' }).waitFor();
    await doctor.context().close();
  });

  it('the patient reads the values with their usual range in words, and the potassium trend', async () => {
    const page = await signedIn(patient);
    await menu(page, 'My Results');
    await page.getByRole('heading', { name: 'My Results', level: 1 }).waitFor();
    const potassium = page.locator('.my-result', { has: page.getByRole('heading', { name: 'Potassium' }) }).first();
    await potassium.getByText('7 mmol/L', { exact: true }).waitFor();
    await potassium.getByText(/^Usual range 3\.5 to 5\.1 mmol\/L — your value is far above the usual range$/).waitFor();
    const trend = page.getByRole('figure', { name: /^Potassium/ });
    await trend.getByRole('img').waitFor();
    assert.equal(await trend.locator('tbody tr').count(), 2, 'both potassium values are in the trend');
    assert.equal(await trend.locator('.trend-line').count(), 1, 'the two values are joined');
    await phoneScreenshot(page, 'my-results');
    assert.equal(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      true,
      'no sideways scroll',
    );
    assert.deepEqual(await seriousAxeViolations(page), []);
    await page.context().close();
  });

  it('a correction by the lab shows its history to the doctor and the patient', async () => {
    // Half an hour after the release: the patient saw the first value, so the correction is theirs to see.
    await atClinicTime('08:30', async () => {
      const page = await signedIn(lab);
      await page.getByLabel('Order number').fill(orderNumber);
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('heading', { name: `Order ${orderNumber}`, level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Correct: Potassium' }).click();
      const dialog = page.getByRole('dialog', { name: 'Correct: Potassium' });
      await dialog.getByLabel('Value').fill('5.0');
      await dialog.getByLabel('Reason for the correction').fill('Haemolysed sample, re-run');
      await dialog.getByRole('button', { name: 'Save correction' }).click();
      await alertText(page, 'Result of Potassium corrected');
      await page.context().close();
    });

    const doctor = await signedIn(clinic.doctor);
    await doctor.goto(withId(routes.doctor.patientResults, patientId));
    const card = doctor.getByRole('article', { name: `Order ${orderNumber}` });
    await card.getByText('Corrected: history').click();
    await card.getByText(/Haemolysed sample, re-run/).waitFor();
    await card.locator('.correction-history li', { hasText: '7 mmol/L' }).waitFor();
    await doctor.getByRole('figure', { name: /^Potassium/ }).waitFor();
    assert.deepEqual(await seriousAxeViolations(doctor), []);
    await card.getByRole('link', { name: 'Printable report' }).click();
    await doctor.getByRole('heading', { name: 'Lab report', level: 1 }).waitFor();
    await doctor.getByText('Laboratory report').waitFor();
    await doctor.getByText('May 17, 1990').waitFor();
    await doctor.getByText(/Haemolysed sample, re-run/).waitFor();
    await doctor.context().close();

    const page = await signedIn(patient);
    await page.goto(routes.patient.results);
    const potassium = page.locator('.my-result', { hasText: 'Corrected' });
    await potassium.getByText('5 mmol/L', { exact: true }).first().waitFor();
    await potassium.getByText('What changed:').waitFor();
    await potassium.locator('li', { hasText: '7 mmol/L' }).waitFor();
    await potassium.getByText(/Haemolysed sample, re-run/).waitFor();
    await page.context().close();
  });

  it('keeps the audit trail intact, as medora audit verify checks it', async () => {
    await sealAll(server.db);
    const check = await server.app.audit.verifyTrail();
    assert.equal(check.chain.intact, true);
    assert.equal(check.stalled, false);
    assert.deepEqual(problems.flat(), []);
  });
});

/** The basic metabolic panel's tests, each with a value inside its usual adult range, in its own unit. */
const NORMAL: Record<string, number> = {
  '2951-2': 140,
  '2823-3': 4.2,
  '2075-0': 102,
  '2028-9': 25,
  '3094-0': 14,
  '2160-0': 0.9,
  '2345-7': 90,
  '17861-6': 9.5,
};

function normalResult(item: WorkItem) {
  return {
    type: 'quantity',
    value: present(NORMAL[item.code], `a normal value of ${item.name}`),
    unit: item.unit ?? '1',
  };
}
