/**
 * The lab's upkeep in the browser (issue 48): an admin edits a test's ranges and critical limits by sex and age
 * band; the lab attaches a result from outside to its order by the order's number and rejects another with its
 * reason; a colleague of the ordering doctor's department acknowledges a critical value left 30 minutes.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Page } from 'playwright-core';
import { present } from '../../testing/assert.ts';
import { routes } from '../paths.ts';
import { openSignedInPage, serverAndBrowserPerSuite, seriousAxeViolations, type TestServer } from './harness.ts';
import {
  bookSlot,
  createColleague,
  createLabTechnician,
  openDoctorEveryDay,
  patientIdOf,
  registerPatient,
  seedClinic,
  seedLabOrder,
  seedStay,
  seedUnmatchedResults,
  seedWard,
  type Account,
  type Clinic,
} from './seed.ts';
import { chooseRowAction } from './row-actions.ts';

describe('the lab catalogue, unmatched results and escalated critical values in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let lab: Account;
  let colleague: Account;
  let orderNumber = '';
  let glucoseOrder = '';
  const problems: string[][] = [];

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    lab = await createLabTechnician(server, clinic.admin, 'Lee Lab');
    colleague = await createColleague(server, clinic, 'Dr. Colleague');
    const { bedIds } = await seedWard(server, clinic);
    await openDoctorEveryDay(server, clinic);
    const patient = await registerPatient(server, 'Kim Kalium');
    // A visit booked puts the patient in the doctor's care team.
    await bookSlot(server, clinic, patient, '09:00');
    const patientId = await patientIdOf(server, clinic, patient);
    const { admissionId } = await seedStay(server, clinic, patientId, bedIds[0] ?? 0);
    // A potassium of 7 mmol/L (critical), its alert raised 31 minutes ago: the department's now.
    const orderId = await seedLabOrder(server, clinic, lab, admissionId);
    await server.db.query(
      `update lab_critical_alerts set raised_at = raised_at - interval '31 minutes',
         escalates_at = escalates_at - interval '31 minutes'`,
    );
    const [order] = await server.db.query<{ order_number: string }>(
      'select order_number from lab_orders where id = $1',
      [orderId],
    );
    orderNumber = present(order).order_number;
    await seedUnmatchedResults(server);
    // A glucose collected and waiting for its result: the order an unmatched glucose belongs to.
    const call = async (token: string, method: string, path: string, body?: unknown) => {
      const answer = await server.api(method, path, { token, body });
      assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const tests = await call(clinic.doctor.token, 'GET', '/api/lab/tests?q=Glucose');
    const glucose = present((tests.tests as { id: number; code: string }[]).find((t) => t.code === '2345-7'));
    const placed = await call(clinic.doctor.token, 'POST', '/api/lab/orders', {
      admission_id: admissionId,
      test_ids: [glucose.id],
    });
    glucoseOrder = placed.order_number;
    const work = await call(lab.token, 'GET', `/api/lab/worklist?order_number=${glucoseOrder}`);
    const item = present((work.orders[0]?.items as { id: number }[] | undefined)?.[0]);
    await call(lab.token, 'POST', `/api/lab/items/${item.id}/collect`, { specimen_code: `UPKEEP-${item.id}` });
  });

  const signedIn = async (account: Account): Promise<Page> => {
    const { page, problems: seen } = await openSignedInPage(browser, server, account.email);
    problems.push(seen);
    return page;
  };
  const alertText = (page: Page, text: string | RegExp) => page.getByRole('alert').getByText(text).first().waitFor();

  it("an admin edits a test's ranges by sex and its critical limits, refused first for overlapping bands", async () => {
    const page = await signedIn(clinic.admin);
    await page.goto(routes.admin.labTests);
    await page.getByRole('searchbox').fill('Sodium');
    await page.getByRole('button', { name: 'Edit Sodium' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Sodium' });
    const ranges = dialog.getByRole('group', { name: 'Reference ranges' });
    await ranges.getByRole('button', { name: 'Add reference range' }).click();
    await ranges.getByRole('button', { name: 'Add reference range' }).click();
    const band = (n: number) => ranges.getByRole('group', { name: `Reference range ${n}` });
    await band(2).getByLabel('Low').fill('136');
    await band(2).getByLabel('High').fill('145');
    await band(3).getByLabel('Sex').selectOption('female');
    await band(3).getByLabel('Low').fill('135');
    await band(3).getByLabel('High').fill('144');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(/overlap in age for any/).waitFor();
    await band(2).getByRole('button', { name: 'Remove reference range 2' }).click();
    assert.deepEqual(await seriousAxeViolations(page), []);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await alertText(page, 'Sodium saved');
    const saved = await server.api('GET', '/api/lab/tests?q=Sodium', { token: clinic.admin.token });
    const sodium = present((saved.body.tests as { name: string; ranges: { sex: string }[] }[])[0]);
    assert.deepEqual(
      sodium.ranges.map((r) => r.sex),
      ['any', 'female'],
    );
    await page.context().close();
  });

  it('the lab attaches a result to the order it names by number and rejects one with its reason', async () => {
    const page = await signedIn(lab);
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Unmatched results' }).click();
    await page.getByRole('heading', { name: 'Unmatched results', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Attach 2345-7 = 100 mg/dL' }).click();
    const attach = page.getByRole('dialog', { name: 'Attach 2345-7 = 100 mg/dL' });
    await attach.getByLabel('Order number').fill('L-NONE');
    await attach.getByLabel('Order number').blur();
    await attach.getByText('No order has the number L-NONE.').waitFor();
    await attach.getByLabel('Order number').fill(glucoseOrder);
    await attach.getByLabel('Order number').blur();
    await attach.getByText(new RegExp(`Order ${glucoseOrder} for .*: Glucose, collected`)).waitFor();
    assert.deepEqual(await seriousAxeViolations(page), []);
    await attach.getByRole('button', { name: 'Attach' }).click();
    await alertText(page, `Result attached to order ${glucoseOrder}`);
    const work = await server.api('GET', `/api/lab/worklist?order_number=${glucoseOrder}`, { token: lab.token });
    assert.equal(work.body.orders[0].items[0].result.value, 100);

    await chooseRowAction(page.getByRole('row', { name: /X-UNKNOWN/ }), 'Reject 2823-3 = 4.1 mmol/L');
    const reject = page.getByRole('dialog', { name: 'Reject 2823-3 = 4.1 mmol/L' });
    await reject.getByLabel('Reason').fill('Not a patient of this clinic');
    await reject.getByRole('button', { name: 'Reject result' }).click();
    await alertText(page, 'Result 2823-3 = 4.1 mmol/L rejected');
    await page.getByRole('row', { name: /X-UNKNOWN/ }).waitFor({ state: 'detached' });
    await page.context().close();
  });

  it("a colleague of the ordering doctor's department acknowledges a critical value left 30 minutes", async () => {
    const page = await signedIn(colleague);
    await page.goto(routes.doctor.results);
    const section = page.getByRole('region', { name: "Your department's critical results" });
    await section.getByText(/Potassium 7 mmol\/L/).waitFor();
    assert.deepEqual(await seriousAxeViolations(page), []);
    await section.getByRole('button', { name: new RegExp(`order ${orderNumber}`) }).click();
    await alertText(page, /Critical result of .* acknowledged/);
    await section.waitFor({ state: 'detached' });
    await page.context().close();
    assert.deepEqual(problems.flat(), []);
  });
});
