/**
 * Every list as its users meet it, at a desktop's 1280×800 and a phone's 390×844: the first row's actions in
 * view without scrolling sideways, and a list that is loading or failed saying so instead of looking empty.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Locator, Page } from 'playwright-core';
import { moveInApp, openSignedInPage, serverAndBrowserPerSuite, seriousAxeViolations, settled, type TestServer } from './harness.ts';
import { bookSlot, daysAhead, openDoctorEveryDay, registerPatient, seedClinic, seedUnpaidBill, type Account, type Clinic } from './seed.ts';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
/** A small laptop, with the sidebar beside the page: checked for fit alone. */
const NARROW_DESKTOP = { width: 1024, height: 768 };

interface Screen {
  path: string;
  /** The list endpoint the screen loads its rows from. */
  api: string;
  /** What the loading and failure messages call the list. */
  what: string;
  /** A card grid rather than a table. */
  cards?: boolean;
}

const screens: Record<'admin' | 'doctor' | 'patient', Screen[]> = {
  admin: [
    { path: '/user/admin/appointments', api: '/api/admin/appointments', what: 'Appointments' },
    { path: '/user/admin/bills', api: '/api/admin/billings', what: 'Bills' },
    { path: '/user/admin/doctors', api: '/api/admin/doctors', what: 'Doctors' },
    { path: '/user/admin/patients', api: '/api/admin/patients', what: 'Patients' },
    { path: '/user/admin/departments', api: '/api/admin/departments', what: 'Departments' },
    { path: '/user/admin/specializations', api: '/api/admin/specializations', what: 'Specializations' },
    { path: '/user/admin/diseases', api: '/api/admin/diseases', what: 'Diseases' },
    { path: '/user/admin/rooms', api: '/api/admin/rooms', what: 'Rooms' },
    { path: '/user/admin/messages', api: '/api/admin/messages', what: 'Messages' },
  ],
  doctor: [
    { path: '/user/doctor/appointments', api: '/api/doctor/appointments', what: 'Your appointments' },
    { path: '/user/doctor/manage-records', api: '/api/doctor/appointments', what: 'Appointments' },
    { path: '/user/doctor/my-patients', api: '/api/doctor/patients', what: 'Patients', cards: true },
  ],
  patient: [
    { path: '/user/patient', api: '/api/patient/appointments', what: 'Your upcoming appointments' },
    { path: '/user/patient/bills', api: '/api/patient/billings', what: 'Your bills' },
    { path: '/user/patient/doctors', api: '/api/patient/doctors', what: 'Doctors', cards: true },
  ],
};

/** The first row's buttons and links, or for a read-only table its cells. */
function firstRowControls(page: Page, screen: Screen): Locator {
  if (screen.cards) return page.locator('.card-grid > li').first().locator('a, button');
  const row = page.locator('tbody tr').first();
  return row.locator('a, button');
}

async function assertFitsSideways(page: Page, screen: Screen, width: number): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  assert.ok(scrollWidth <= clientWidth, `${screen.path} at ${width} px scrolls sideways: ${scrollWidth} > ${clientWidth}`);

  const controls = firstRowControls(page, screen);
  const targets = (await controls.count()) > 0 ? controls : page.locator('tbody tr').first().locator('td');
  const count = await targets.count();
  assert.ok(count > 0, `${screen.path} at ${width} px has a first row`);
  for (let index = 0; index < count; index++) {
    const target = targets.nth(index);
    if (!(await target.isVisible())) continue;
    const box = await target.boundingBox();
    assert.ok(box, `${screen.path}: control ${index} has a box`);
    const name = (await target.innerText()).trim();
    assert.ok(box.x >= 0 && box.x + box.width <= width, `${screen.path} at ${width} px: "${name}" lies at ${box.x}–${box.x + box.width}`);
    // Inside the table's own scroll box too, so no hidden scrolling either.
    const clippedBy = await target.evaluate((element) => {
      const scroller = element.closest('.table-scroll');
      if (!scroller) return null;
      const [outer, inner] = [scroller.getBoundingClientRect(), element.getBoundingClientRect()];
      return inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5 ? null : `${inner.left}–${inner.right} outside ${outer.left}–${outer.right}`;
    });
    assert.equal(clippedBy, null, `${screen.path} at ${width} px: "${name}" is scrolled out of its table`);
  }
}

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

const rowsShown = (page: Page, screen: Screen) =>
  (screen.cards ? page.locator('.card-grid > li:not(.skeleton-card)') : page.locator('tbody tr:not(.skeleton-row):not(:has(.table-empty))'))
    .first()
    .waitFor({ timeout: 5000 })
    .catch((error: Error) => assert.fail(`${screen.path} shows no rows: ${error.message}`));

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
    const admin = { token: clinic.admin.token };
    const department = (await server.api('GET', '/api/admin/departments', admin)).body.departments[0];
    const room = await server.api('POST', '/api/admin/rooms', { ...admin, body: { name: 'Room 101 — east wing, second floor', department_id: department.id } });
    assert.equal(room.status, 201);
    patient = await registerPatient(server, 'Maximiliana Wolkenstein-Oberhausen');
    await seedUnpaidBill(server, clinic, patient, '15:00', '80.00');
    for (const [index, time] of ['10:00', '10:30'].entries()) await bookSlot(server, clinic, patient, time, daysAhead(index + 1));
  });

  const signedIn = async (account: Account) => (await openSignedInPage(browser, server, account.email)).page;
  const accounts = () => ({ admin: clinic.admin, doctor: clinic.doctor, patient });

  for (const role of ['admin', 'doctor', 'patient'] as const) {
    // axe checks each of these screens at both widths in axe-every-screen.browser.test.ts.
    it(`shows the ${role}'s first row actions without sideways scrolling at 1280, 1024 and 390 px`, async () => {
      const page = await signedIn(accounts()[role]);
      for (const screen of screens[role]) {
        await moveInApp(page, screen.path);
        for (const viewport of [...WIDTHS, NARROW_DESKTOP]) {
          await page.setViewportSize(viewport);
          await rowsShown(page, screen);
          await settled(page);
          await assertFitsSideways(page, screen, viewport.width);
        }
      }
      await page.context().close();
    });

    it(`says the ${role}'s lists are loading while they load, and offers Retry when they fail`, async () => {
      const page = await signedIn(accounts()[role]);
      await page.setViewportSize(WIDTHS[1]!);
      // Each list is opened from the account page, as from a link, so that it loads anew.
      const openFromElsewhere = async (screen: Screen) => {
        await moveInApp(page, `/user/${role}/account`);
        await page.locator('.shell-main h1', { hasText: 'Sign-in & Security' }).waitFor();
        await moveInApp(page, screen.path);
      };
      for (const screen of screens[role]) {
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
    await page.setViewportSize(WIDTHS[1]!);
    await page.goto('/user/patient/bills');
    await rowsShown(page, screens.patient[1]!);
    await settled(page);
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((entries) => {
            for (const entry of entries.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
              if (!entry.hadRecentInput) total += entry.value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(total), 200);
        }),
    );
    assert.ok(shift < 0.1, `cumulative layout shift ${shift}`);
    await page.context().close();
  });
});
