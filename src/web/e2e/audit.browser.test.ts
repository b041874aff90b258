import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from '../../testing/node-test.ts';
import type { Page } from 'playwright-core';
import { addDays, clinicDateTime } from '../../domain/shared/clock.ts';
import { TEST_TZ } from '../../testing/test-app.ts';
import { CLINIC_TODAY, openSignedInPage, serverAndBrowserPerSuite, settled, type TestServer } from './harness.ts';
import { registerPatient, seedClinic, type Clinic } from './seed.ts';

describe('the audit trail in the browser', () => {
  let server: TestServer;
  let clinic: Clinic;
  let page: Page;
  let problems: string[];
  let prober: { userId: number; patientId: number };
  // Audit rows carry the database's own time, not the harness's clinic clock.
  const today = clinicDateTime(new Date(), TEST_TZ).date;

  serverAndBrowserPerSuite(async (started, browser) => {
    server = started;
    clinic = await seedClinic(server);
    const patient = await registerPatient(server, 'Paula Prober');
    for (const billId of [900001, 900002])
      await server.api('GET', `/api/billings/${billId}/receipt`, { token: patient.token });
    const me = (await server.api('GET', '/api/patient/profile', { token: patient.token })).body;
    prober = { userId: me.user.id, patientId: me.patient.id };
    ({ page, problems } = await openSignedInPage(browser, server, clinic.admin.email));
  });

  it('lets an admin filter the trail and download what the filters show as CSV', async () => {
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await page.getByRole('heading', { name: 'Audit trail', level: 1 }).waitFor();
    const headers = (await page.locator('thead th').allTextContents()).map((h) => h.trim());
    assert.deepEqual(headers, ['When', 'User', 'Action', 'Subject', 'Patient', 'Details', 'Actions']);

    const filters = page.getByRole('form', { name: 'Filter the audit trail' });
    await filters.getByLabel('From').fill(today);
    await filters.getByLabel('To').fill(addDays(today, -1));
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await filters.getByText('To must not be before from').waitFor();

    await filters.getByLabel('To').fill(today);
    await filters.getByLabel('User ID').fill(String(prober.userId));
    await filters.getByLabel('Action').fill('refused');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.locator('.page-info').getByText('1 - 2 of 2').waitFor();
    await settled(page);
    assert.equal(await filters.locator('.field-error').count(), 0);
    const rows = await page.locator('tbody tr').allTextContents();
    assert.equal(rows.length, 2);
    for (const [i, billId] of ['900002', '900001'].entries()) {
      assert.match(
        rows[i] ?? '',
        new RegExp(`Paula Prober \\(#${prober.userId}, patient\\)refusedbilling #${billId}.*receipt`),
      );
    }

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      filters.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    // Named after the clinic's day, which the harness's clock sets.
    assert.equal(download.suggestedFilename(), `medora-audit-${CLINIC_TODAY}.csv`);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    assert.equal(
      lines[0],
      'id,at,actor_id,actor_name,actor_role,action,entity,entity_id,patient_id,request_id,details',
    );
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(',').slice(2, 8)),
      [
        [String(prober.userId), 'Paula Prober', 'patient', 'refused', 'billing', '900002'],
        [String(prober.userId), 'Paula Prober', 'patient', 'refused', 'billing', '900001'],
      ],
    );

    const exported = await server.api(
      'GET',
      `/api/admin/audit?action=export&user_id=${(await server.api('GET', '/api/user', { token: clinic.admin.token })).body.id}`,
      {
        token: clinic.admin.token,
      },
    );
    assert.deepEqual(exported.body.entries[0].details, {
      user_id: prober.userId,
      action: 'refused',
      from: today,
      to: today,
      rows: 2,
    });
    assert.deepEqual(problems, []);
  });
});
