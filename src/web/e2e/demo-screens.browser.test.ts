import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { describe, it } from '../../testing/node-test.ts';
import { DEMO_PASSWORD, seedDemo } from '../../demo/seed.ts';
import { openSignedInPage, serverAndBrowserPerSuite, settled, type TestServer } from './harness.ts';

const DESKTOP = { width: 1280, height: 800 };

/** Screens read with the demo clinic's own data, on the harness's fixed clock. */
describe('the demo clinic on screen', () => {
  let server: TestServer;
  let browser: Browser;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    await seedDemo(server.app, server.db);
  });

  const signedIn = async (email: string) => {
    return openSignedInPage(browser, server, email, { password: DEMO_PASSWORD, viewport: DESKTOP });
  };

  const doctorId = async (email: string) =>
    (
      await server.db.query<{ id: number }>(
        'select d.id from doctors d join users u on u.id = d.user_id where u.email = $1',
        [email],
      )
    )[0]?.id;

  it("fits a doctor's working hours, leave and breaks in 1,600 px at 1280 wide, labels and preview kept", async () => {
    const { page, problems } = await signedIn('admin@medora.test');
    // The physiotherapist works two ranges a day around a lunch break; the neurologist has leave ahead; all see the
    // clinic's closure.
    for (const email of ['sam.okafor@medora.test', 'stephen.park@medora.test', 'doctor@medora.test']) {
      await page.goto(`/user/admin/doctors/edit/${await doctorId(email)}`);
      const hours = page.getByRole('form', { name: 'Working hours' });
      await hours.getByLabel('Monday 1 start').waitFor();
      await page
        .getByRole('table', { name: 'Slots preview' })
        .getByRole('row', { name: /^Monday/ })
        .waitFor();
      await page.getByRole('form', { name: 'Add time off' }).waitFor();
      await page.getByText(/^Clinic closed: /).waitFor();
      await settled(page);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (const label of ['From', 'To', 'Slot (min)', 'Room'])
        assert.ok((await hours.locator('label').filter({ hasText: label }).count()) > 0, `${email}: ${label} shows`);
      assert.ok(height <= 1600, `${email}: the doctor's page is ${height} px tall`);
    }
    assert.deepEqual(problems, []);
  });

  it('shows the doctor an amended record as the fields it changed, across the main column', async () => {
    const { page, problems } = await signedIn('doctor@medora.test');
    const [paula] = await server.db.query<{ id: number }>(
      'select p.id from patients p join users u on u.id = p.user_id where u.email = $1',
      ['patient@medora.test'],
    );
    await page.goto(`/user/doctor/my-patients/${paula?.id}`);
    const record = page.locator('.record-amended');
    await record.waitFor();
    await record.getByText(/History \(2 versions\)/).click();
    const amendment = record.locator('.record-history li').first();
    await amendment.getByText('Version 2', { exact: true }).waitFor();
    const changed = await amendment.locator('.record-changes dt').allInnerTexts();
    assert.deepEqual(changed, ['Diagnosis changed', 'Prescriptions changed'], 'only the changed fields');
    assert.match(await amendment.locator('ins').nth(1).innerText(), /amlodipine 5 mg daily/);
    assert.doesNotMatch(await amendment.locator('del').nth(1).innerText(), /amlodipine/);
    assert.equal(await amendment.locator('.record-changes dt', { hasText: 'Lab tests' }).count(), 0);
    const widths = await page.evaluate(() => ({
      record: document.querySelector('.record-amended')?.getBoundingClientRect().width ?? 0,
      main: document.querySelector('.shell-main')?.getBoundingClientRect().width ?? 1,
    }));
    assert.ok(widths.record >= 0.8 * widths.main, `the record is ${widths.record} px of ${widths.main} px`);
    assert.deepEqual(problems, []);
  });
});
