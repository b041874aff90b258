/**
 * Every list as its users meet it on a phone: one that is loading or failed says so instead of looking empty, and
 * the pager stays in place when the first rows arrive. What the lists and tables show once loaded, at 1280, 1024 and
 * 390 px (the first row in view, the spec's columns, each row's Details, no layout shift), is checked in the
 * every-screen sweep (axe-every-screen.ts, table-checks.ts) as it visits each screen.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Page } from 'playwright-core';
import { at } from '../../testing/assert.ts';
import {
  layoutShift,
  moveInApp,
  openSignedInPage,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  watchLayoutShifts,
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
import { listScreens, rowsShown, type Screen } from './table-checks.ts';

const PHONE = { width: 390, height: 844 };

/** The screen's list request waits until the returned release is called. */
async function holdList(page: Page, screen: Screen): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const pattern = `**${screen.api}?*`;
  let continued = Promise.resolve();
  await page.route(pattern, (route) => (continued = released.then(() => route.continue())));
  return async () => {
    release();
    // Unrouting before the held request went on would hand it over twice.
    await continued;
    await page.unroute(pattern);
  };
}

async function failList(page: Page, screen: Screen): Promise<() => Promise<void>> {
  const pattern = `**${screen.api}?*`;
  await page.route(pattern, (route) => route.fulfill({ status: 500, json: { message: 'boom', code: 'internal' } }));
  return () => page.unroute(pattern);
}

describe('lists at desktop and phone widths in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let patient: Account;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    // A room, a bill and appointments ahead: every list below has a row once it loads.
    const room = await server.api('POST', '/api/admin/rooms', {
      token: clinic.admin.token,
      body: { name: 'Room 101', department_id: clinic.departmentId },
    });
    assert.equal(room.status, 201);
    patient = await registerPatient(server);
    await seedUnpaidBill(server, clinic, patient, '15:00', '80.00');
    await bookSlot(server, clinic, patient, '10:00', daysAhead(1));
  });

  const signedIn = async (account: Account) => (await openSignedInPage(browser, server, account.email)).page;
  const accounts = () => ({ admin: clinic.admin, doctor: clinic.doctor, patient });

  for (const role of ['admin', 'doctor', 'patient'] as const) {
    it(`says the ${role}'s lists are loading while they load, and offers Retry when they fail`, async () => {
      const page = await signedIn(accounts()[role]);
      await page.setViewportSize(PHONE);
      // Each list is opened from the account page, as from a link, so that it loads anew.
      const openFromElsewhere = async (screen: Screen) => {
        await moveInApp(page, `/user/${role}/account`);
        await page.locator('.shell-main h1', { hasText: 'Sign-in & Security' }).waitFor();
        await moveInApp(page, screen.path);
      };
      for (const screen of listScreens[role] ?? []) {
        const release = await holdList(page, screen);
        await openFromElsewhere(screen);
        await page.getByRole('status').getByText(`Loading ${screen.what.toLowerCase()}…`).waitFor();
        assert.equal(await page.locator('.page-info').count(), 0, `${screen.path} counts no rows while loading`);
        assert.equal(await page.getByText(/No .* found\./).count(), 0, `${screen.path} is not empty while loading`);
        assert.deepEqual(await seriousAxeViolations(page), [], `${screen.path} while loading`);
        await release();
        await rowsShown(page, screen);

        const restore = await failList(page, screen);
        await openFromElsewhere(screen);
        const failure = page.getByRole('alert').filter({ hasText: `${screen.what} could not be loaded.` });
        await failure.waitFor();
        assert.equal(await page.getByText(/No .* found\./).count(), 0, `${screen.path} is not empty when it failed`);
        assert.deepEqual(await seriousAxeViolations(page), [], `${screen.path} when it failed`);
        await restore();
        await failure.getByRole('button', { name: 'Retry' }).click();
        await rowsShown(page, screen);
      }
      await page.context().close();
    });
  }

  it('keeps the pager in place when the first rows arrive on a phone', async () => {
    const page = await signedIn(patient);
    await page.setViewportSize(PHONE);
    await watchLayoutShifts(page);
    await page.goto('/user/patient/bills');
    await rowsShown(page, at(listScreens.patient ?? [], 1, 'patient list'));
    await settled(page);
    const { score, moved } = await layoutShift(page);
    assert.ok(score < 0.1, `cumulative layout shift ${score}: ${moved.join('; ')}`);
    await page.context().close();
  });
});
