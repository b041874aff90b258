import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Page, Route } from 'playwright-core';
import { openSignedInPage, serverAndBrowserPerSuite, settled, type TestServer } from './harness.ts';
import { registerPatient, seedClinic, type Clinic } from './seed.ts';

/** Holds the answers to `pattern` until the returned function is called. */
async function holdAnswers(page: Page, pattern: string): Promise<() => Promise<void>> {
  const held: Route[] = [];
  await page.route(pattern, (route) => void held.push(route));
  return async () => {
    await Promise.all(held.map((route) => route.continue()));
    await page.unroute(pattern);
  };
}

describe('panels while their data loads, and when it fails', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
  });

  it("shows the dashboard's statistics as placeholders of the same size while they load, then the figures without a shift", async () => {
    let release = async () => {};
    const { page, problems } = await openSignedInPage(browser, server, clinic.admin.email, {
      beforeLoad: async (opened) => (release = await holdAnswers(opened, '**/api/admin/statistics')),
    });
    const card = page.locator('.hospitality');
    await card.getByRole('status').filter({ hasText: 'Loading statistics…' }).waitFor({ state: 'attached' });
    assert.equal(await card.locator('.skeleton').count(), 4);
    const loadingBox = await card.boundingBox();
    const chartBox = await page.locator('.chart-card').boundingBox();

    await release();
    await card.getByText('Total Doctor').waitFor();
    await settled(page);
    assert.equal(await card.locator('.skeleton').count(), 0);
    assert.equal(await card.locator('.stat').filter({ hasText: 'Total Doctor' }).locator('dd').textContent(), '1');
    assert.deepEqual(await card.boundingBox(), loadingBox, 'the card keeps its size');
    assert.deepEqual(await page.locator('.chart-card').boundingBox(), chartBox, 'what follows stays put');
    assert.deepEqual(problems, []);
  });

  it('says when the statistics could not be loaded, and Retry loads them', async () => {
    const { page, problems } = await openSignedInPage(browser, server, clinic.admin.email, {
      beforeLoad: (opened) =>
        opened.route('**/api/admin/statistics', (route) =>
          route.fulfill({ status: 500, json: { message: 'boom', code: 'internal' } }),
        ),
    });
    const card = page.locator('.hospitality');
    await card.getByRole('alert').filter({ hasText: 'Statistics could not be loaded.' }).waitFor();
    await page.unroute('**/api/admin/statistics');
    await card.getByRole('button', { name: 'Retry' }).click();
    await card.getByText('Total Doctor').waitFor();
    assert.equal(await card.getByRole('alert').count(), 0);
    assert.deepEqual(problems, []);
  });

  it("shows the patient's records loading, failing with Retry, and then empty", async () => {
    const patient = await registerPatient(server);
    const { page, problems } = await openSignedInPage(browser, server, patient.email);
    const release = await holdAnswers(page, '**/api/patient/records');
    await page.goto('/user/patient/records');
    await page.getByRole('status').filter({ hasText: 'Loading your records…' }).waitFor({ state: 'attached' });
    assert.equal(await page.locator('.skeleton-visit').count(), 2);
    await release();
    await page.getByText('No medical records found.').waitFor();

    await page.route('**/api/patient/records', (route) =>
      route.fulfill({ status: 503, json: { message: 'busy', code: 'database_busy' } }),
    );
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'Your records could not be loaded.' }).waitFor();
    assert.equal(await page.getByText('No medical records found.').count(), 0, 'a failure is not an empty list');
    await page.unroute('**/api/patient/records');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('No medical records found.').waitFor();
    assert.deepEqual(problems, []);
  });
});
