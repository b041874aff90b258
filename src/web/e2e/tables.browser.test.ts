/**
 * Every list as its users meet it, at a desktop's 1280×800 and a phone's 390×844: the first row's actions in
 * view without scrolling sideways, and a list that is loading or failed saying so instead of looking empty.
 * Every table of every role at 1280, 1024 and 390 px: the spec's columns shown at 1280, no control cut off at
 * 1024, the hidden columns named, every field of the first row in its Details, and no layout shift. A report's
 * table (the takings, the census) shows every column and figure at 1024 px too, with no pager or Details.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Locator, Page } from 'playwright-core';
import { at } from '../../testing/assert.ts';
import {
  moveInApp,
  openSignedInPage,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  type TestServer,
} from './harness.ts';
import {
  bookSlot,
  createLabTechnician,
  createReceptionist,
  daysAhead,
  openDoctorEveryDay,
  patientIdOf,
  registerPatient,
  seedClinic,
  seedHl7Traffic,
  seedStay,
  seedUnmatchedResults,
  seedUnpaidBill,
  seedWard,
  type Account,
  type Clinic,
} from './seed.ts';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
/** A small laptop, with the sidebar beside the page: checked for fit alone. */
const NARROW_DESKTOP = { width: 1024, height: 768 };
// A screen's first rows: a second or two on a loaded machine; the bound is ten times that, not a measure of speed.
const ROWS_WITHIN_MS = 30_000;

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
    { path: '/user/admin/lab-tests', api: '/api/lab/tests', what: 'Lab tests' },
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
  assert.ok(
    scrollWidth <= clientWidth,
    `${screen.path} at ${width} px scrolls sideways: ${scrollWidth} > ${clientWidth}`,
  );

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
    assert.ok(
      box.x >= 0 && box.x + box.width <= width,
      `${screen.path} at ${width} px: "${name}" lies at ${box.x}–${box.x + box.width}`,
    );
    // Inside the table's own scroll box too, so no hidden scrolling either.
    const clippedBy = await target.evaluate((element) => {
      const scroller = element.closest('.table-scroll');
      if (!scroller) return null;
      const [outer, inner] = [scroller.getBoundingClientRect(), element.getBoundingClientRect()];
      return inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5
        ? null
        : `${inner.left}–${inner.right} outside ${outer.left}–${outer.right}`;
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
  (screen.cards
    ? page.locator('.card-grid > li:not(.skeleton-card)')
    : page.locator('tbody tr:not(.skeleton-row):not(:has(.table-empty))')
  )
    .first()
    .waitFor({ timeout: ROWS_WITHIN_MS })
    .catch((error: Error) => assert.fail(`${screen.path} shows no rows: ${error.message}`));

describe('lists at desktop and phone widths in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let patient: Account;
  let receptionist: Account;
  let lab: Account;
  let patientId: number;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    const admin = { token: clinic.admin.token };
    const department = (await server.api('GET', '/api/admin/departments', admin)).body.departments[0];
    const room = await server.api('POST', '/api/admin/rooms', {
      ...admin,
      body: { name: 'Room 101 — east wing, second floor', department_id: department.id },
    });
    assert.equal(room.status, 201);
    patient = await registerPatient(server, 'Maximiliana Wolkenstein-Oberhausen');
    const bill = await seedUnpaidBill(server, clinic, patient, '15:00', '80.00');
    for (const [index, time] of ['10:00', '10:30'].entries())
      await bookSlot(server, clinic, patient, time, daysAhead(index + 1));
    await bookSlot(server, clinic, patient, '11:00');
    receptionist = await createReceptionist(server, clinic.admin);
    lab = await createLabTechnician(server, clinic.admin);
    await seedUnmatchedResults(server);
    // Part of the bill taken in cash today, for the desk's takings; the rest stays to pay.
    const cash = await server.api('POST', `/api/billings/${bill.id}/payments`, {
      token: receptionist.token,
      body: { method: 'cash', amount: '20.00' },
    });
    assert.equal(cash.status, 200);
    const joined = await server.api('POST', '/api/patient/waitlist', {
      token: patient.token,
      body: { doctor_id: clinic.doctor.id, from_date: daysAhead(3), to_date: daysAhead(4) },
    });
    assert.equal(joined.status, 201);
    patientId = await patientIdOf(server, clinic, patient);
    const ward = await seedWard(server, clinic);
    await seedStay(server, clinic, patientId, at(ward.bedIds, 0, 'bed'));
    // A second patient waits for a bed, so the desk's first group of admissions has a row.
    // She had a visit with the doctor, which puts the doctor in her care team, who may then order her stay.
    const wanda = await registerPatient(server, 'Wanda Waiting');
    await bookSlot(server, clinic, wanda, '16:30', daysAhead(5));
    const waiting = await patientIdOf(server, clinic, wanda);
    const request = {
      patient_id: waiting,
      department_id: clinic.departmentId,
      expected_nights: 1,
      reason: 'Observation',
    };
    assert.equal(
      (await server.api('POST', '/api/admissions', { token: clinic.doctor.token, body: request })).status,
      201,
    );
    await seedHl7Traffic(server, clinic);
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
      await page.setViewportSize(WIDTHS[1]);
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
    await page.setViewportSize(WIDTHS[1]);
    await page.goto('/user/patient/bills');
    await rowsShown(page, at(screens.patient, 1, 'patient screen'));
    await settled(page);
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((entries) => {
            for (const entry of entries.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
            })[]) {
              if (!entry.hadRecentInput) total += entry.value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(total), 200);
        }),
    );
    assert.ok(shift < 0.1, `cumulative layout shift ${shift}`);
    await page.context().close();
  });

  for (const role of ['admin', 'doctor', 'patient', 'reception', 'lab'] as const) {
    it(`keeps the ${role}'s tables whole: the spec's columns at 1280 px, no control cut at 1024 px, every field in a row's details, no layout shift`, async () => {
      const account = { ...accounts(), reception: receptionist, lab }[role];
      const page = await signedIn(account);
      await page.addInitScript(() => {
        type Shift = PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
          sources: { node: Node | null; previousRect: DOMRect; currentRect: DOMRect }[];
        };
        const counted = window as unknown as { medoraShift: number; medoraShifted: string[] };
        counted.medoraShift = 0;
        counted.medoraShifted = [];
        new PerformanceObserver((entries) => {
          for (const entry of entries.getEntries() as Shift[]) {
            if (entry.hadRecentInput) continue;
            counted.medoraShift += entry.value;
            for (const { node, previousRect: was, currentRect: is } of entry.sources) {
              const name = node instanceof Element ? `${node.tagName.toLowerCase()}.${node.className}` : node?.nodeName;
              counted.medoraShifted.push(
                `${entry.value.toFixed(3)} ${name} ${Math.round(was.y)}→${Math.round(is.y)} (${Math.round(was.height)}→${Math.round(is.height)} high)`,
              );
            }
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const problems: string[] = [];
      for (const table of TABLES[role]) {
        const path = table.path.replace(':patient', String(patientId));
        for (const viewport of [WIDTHS[0], NARROW_DESKTOP, WIDTHS[1]]) {
          await page.setViewportSize(viewport);
          await page.goto(path);
          await table.open?.(page);
          const region = page.getByRole('region', { name: table.label, exact: true });
          await region
            .locator('tbody tr:not(.skeleton-row):not(:has(.table-empty))')
            .first()
            .waitFor({ timeout: ROWS_WITHIN_MS });
          await settled(page);
          problems.push(...(await checkTable(page, region, table, viewport.width)));
        }
      }
      await page.context().close();
      for (const problem of problems) console.log(`problem: ${problem}`);
      assert.deepEqual(problems, []);
    });
  }
});

interface Table {
  path: string;
  /** The table's caption. */
  label: string;
  /** How the user opens the table from the page, when it stands in a dialog. */
  open?: (page: Page) => Promise<void>;
  /** The columns spec.md lists (or, where it names none, the row's fields it lists), visible at 1280 px. */
  required: string[];
  /**
   * A report's table (components/report-table.tsx): every column and every figure in view at every desktop width,
   * none hidden or cut, and no pager or row Details to reach them.
   */
  report?: true;
}

const PATIENT_COLUMNS = ['ID', 'Name', 'Email', 'Phone', 'Gender', 'Birth Date', 'Actions'];

/** Every table of each role, with the columns it must show on a desktop. */
const TABLES: Record<'admin' | 'doctor' | 'patient' | 'reception' | 'lab', Table[]> = {
  admin: [
    { path: '/user/admin/dashboard', label: 'Patients', required: PATIENT_COLUMNS },
    { path: '/user/admin/patients', label: 'Patients', required: PATIENT_COLUMNS },
    {
      path: '/user/admin/appointments',
      label: 'Appointments',
      required: [
        'Appointment ID',
        'Patient Name',
        'Patient Email',
        'Doctor Name',
        'Doctor Email',
        'Department',
        'Date',
        'Actions',
      ],
    },
    {
      path: '/user/admin/bills',
      label: 'Bills',
      required: ['Patient', 'Service', 'Date', 'Amount', 'Status', 'Actions'],
    },
    {
      path: '/user/admin/doctors',
      label: 'Doctors',
      required: ['ID', 'Name', 'Email', 'Specialization', 'Department', 'Phone', 'Actions'],
    },
    { path: '/user/admin/departments', label: 'Departments', required: ['ID', 'Name', 'Description', 'Actions'] },
    { path: '/user/admin/specializations', label: 'Specializations', required: ['ID', 'Name', 'Actions'] },
    { path: '/user/admin/diseases', label: 'Diseases', required: ['ID', 'Name', 'Description', 'Actions'] },
    { path: '/user/admin/rooms', label: 'Rooms', required: ['ID', 'Name', 'Department', 'Actions'] },
    {
      path: '/user/admin/lab-tests',
      label: 'Lab tests',
      required: ['Code', 'Name', 'Kind', 'Price', 'Actions'],
    },
    {
      path: '/user/admin/receptionists',
      label: 'Receptionists',
      required: ['ID', 'Name', 'Email', 'Status', 'Actions'],
    },
    {
      path: '/user/admin/messages',
      label: 'Messages',
      required: ['Recipient', 'Subject', 'Status', 'Last error', 'Created', 'Actions'],
    },
    {
      path: '/user/admin/audit',
      label: 'Audit trail',
      required: ['When', 'User', 'Action', 'Subject', 'Patient', 'Details'],
    },
    {
      path: '/user/admin/interfaces',
      label: 'Receivers',
      required: ['Name', 'Queued', 'Dead letters', 'Status', 'Actions'],
    },
    {
      path: '/user/admin/interfaces',
      open: (page) => page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Messages sent' }).click(),
      label: 'Messages sent',
      required: ['Message', 'Event', 'Receiver', 'Status', 'Acknowledgement', 'Actions'],
    },
    {
      path: '/user/admin/interfaces',
      open: (page) =>
        page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Messages received' }).click(),
      label: 'Messages received',
      required: ['Message', 'Type', 'Status', 'Acknowledgement', 'Actions'],
    },
    {
      path: '/user/admin/interfaces',
      open: (page) =>
        page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Unmatched results' }).click(),
      label: 'Unmatched results',
      required: ['Received', 'Order number given', 'Code', 'Result', 'Actions'],
    },
    {
      path: '/user/admin/takings',
      label: 'Takings per method',
      required: ['Method', 'Payments', 'Amount'],
      report: true,
    },
    {
      path: '/user/admin/admissions',
      label: 'Admissions: needs action',
      required: ['Patient', 'Ward', 'Bed', 'Status', 'Since', 'Actions'],
    },
    {
      path: '/user/admin/census',
      label: 'Census per day and ward',
      required: ['Date', 'Ward', 'Beds', 'In bed at midnight', 'Admissions', 'Discharges', 'Transfers', 'Occupancy'],
      report: true,
    },
    {
      path: '/user/admin/census',
      label: 'Census totals per ward',
      required: [
        'Ward',
        'Patient nights',
        'Bed nights',
        'Admissions',
        'Discharges',
        'Transfers',
        'Occupancy',
        'Average stay (nights)',
      ],
      report: true,
    },
    {
      path: '/user/admin/rooms',
      open: async (page) => {
        await page.getByRole('button', { name: 'More actions for Ward A' }).click();
        await page.getByRole('menuitem', { name: 'Beds of Ward A' }).click();
      },
      label: 'Beds of Ward A',
      required: ['Bed', 'State', 'Actions'],
    },
  ],
  doctor: [
    {
      path: '/user/doctor/appointments',
      label: 'Your appointments',
      required: ['Date', 'Start Time', 'End Time', 'Patient Name', 'Department', 'Room', 'Status'],
    },
    {
      path: '/user/doctor/manage-records',
      label: 'Appointments',
      required: ['Date', 'Time', 'Patient Name', 'Status', 'Actions'],
    },
    {
      path: '/user/doctor/admissions',
      label: 'Admissions: in a bed now',
      required: ['Patient', 'Ward', 'Bed', 'Status', 'Since', 'Actions'],
    },
  ],
  patient: [
    {
      path: '/user/patient',
      label: 'Your upcoming appointments',
      required: ['Date', 'Start Time', 'End Time', 'Doctor', 'Department', 'Room', 'Actions'],
    },
    {
      path: '/user/patient',
      open: (page) => page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Past' }).click(),
      label: 'Your past appointments',
      required: ['Date', 'Start Time', 'End Time', 'Doctor', 'Department', 'Room', 'Actions'],
    },
    {
      path: '/user/patient/bills',
      label: 'Your bills',
      required: ['Service', 'Date', 'Amount', 'Balance', 'Status', 'Actions'],
    },
    { path: '/user/patient/waitlist', label: 'Your waitlist', required: ['Doctor', 'Days', 'Status', 'Actions'] },
  ],
  reception: [
    {
      path: '/user/reception/today',
      label: "The day's appointments",
      required: ['Time', 'Patient', 'Doctor', 'Room', 'Status', 'Actions'],
    },
    { path: '/user/reception/patients', label: 'Patients', required: PATIENT_COLUMNS },
    {
      path: '/user/reception/patients/:patient',
      label: "The patient's appointments",
      required: ['Date', 'Time', 'Doctor', 'Room', 'Status', 'Actions'],
    },
    {
      path: '/user/reception/patients/:patient',
      label: "The patient's bills",
      required: ['Service', 'Date', 'Amount', 'Balance', 'Status', 'Actions'],
    },
    {
      path: '/user/reception/admissions',
      label: 'Admissions: needs action',
      required: ['Patient', 'Ward', 'Bed', 'Status', 'Since', 'Actions'],
    },
    {
      path: '/user/reception/takings',
      label: 'Takings per method',
      required: ['Method', 'Payments', 'Amount'],
      report: true,
    },
    {
      path: '/user/reception/takings',
      label: 'Payments taken',
      required: ['Time', 'Patient', 'Bill', 'Method', 'Amount', 'Taken by'],
      report: true,
    },
  ],
  lab: [
    {
      path: '/user/lab/unmatched',
      label: 'Unmatched results',
      required: ['Received', 'Order number given', 'Code', 'Result', 'Actions'],
    },
  ],
};

const MAX_LAYOUT_SHIFT = 0.05;

/** What is wrong with one table at one width, one line each; the columns it shows and hides are logged. */
async function checkTable(page: Page, region: Locator, table: Table, width: number): Promise<string[]> {
  const where = `${table.path} "${table.label}" at ${width} px`;
  const problems: string[] = [];
  const headers = await region.locator('thead th').evaluateAll((cells) =>
    cells.map((cell) => ({
      name: (cell.textContent ?? '').trim(),
      shown: getComputedStyle(cell).display !== 'none',
    })),
  );
  // On a phone the headers are read out only, and every column shows in the row's card.
  const phone = width < 600;
  const hidden = phone ? [] : headers.filter((h) => !h.shown).map((h) => h.name);
  console.log(
    `columns ${where}: ${headers.length - hidden.length}/${headers.length} shown${hidden.length ? `; hidden: ${hidden.join(', ')}` : ''}`,
  );

  if (width >= 1280 || (table.report && !phone)) {
    const missing = table.required.filter((name) => !headers.some((h) => h.name === name && h.shown));
    if (missing.length) problems.push(`${where} hides the spec's ${missing.join(', ')}`);
  }
  if (hidden.length) {
    const cueText = page.locator('.data-table', { has: region }).locator('.hidden-columns');
    const cue = (await cueText.count()) > 0 ? ((await cueText.textContent()) ?? '') : '';
    if (!cue.includes(`${hidden.length} more column`) || hidden.some((name) => !cue.includes(name)))
      problems.push(`${where} does not say which columns are hidden: "${cue}"`);
  }

  const cut = await region.evaluate((scroller, viewportWidth) => {
    const outer = scroller.getBoundingClientRect();
    const right = Math.min(outer.right, viewportWidth);
    return [...scroller.querySelectorAll<HTMLElement>('tbody tr:first-child :is(a, button, input, select)')]
      .filter((control) => control.getClientRects().length > 0)
      .map((control) => ({
        name: (control.textContent ?? '').trim() || control.getAttribute('aria-label'),
        box: control.getBoundingClientRect(),
      }))
      .filter(({ box }) => box.right > right + 0.5 || box.left < outer.left - 0.5)
      .map(
        ({ name, box }) =>
          `"${name}" at ${Math.round(box.left)}–${Math.round(box.right)} (table ends at ${Math.round(right)})`,
      );
  }, width);
  if (cut.length) problems.push(`${where} cuts ${cut.join('; ')}`);

  if (table.report) problems.push(...(await checkReport(page, region, where, phone)));
  else problems.push(...(await checkDetails(page, region, where)));

  const { shift, shifted } = await page.evaluate(() => {
    const counted = window as unknown as { medoraShift: number; medoraShifted: string[] };
    return { shift: counted.medoraShift, shifted: counted.medoraShifted };
  });
  if (!(shift < MAX_LAYOUT_SHIFT))
    problems.push(`${where} shifts its layout by ${shift.toFixed(3)}: ${shifted.join('; ')}`);
  return problems;
}

/** A report's table shows every figure of every row itself: nothing scrolled out of view or cut, no pager, no Details. */
async function checkReport(page: Page, region: Locator, where: string, phone: boolean): Promise<string[]> {
  const problems: string[] = [];
  const cut = await region.evaluate((scroller) => {
    const box = scroller.getBoundingClientRect();
    return [...scroller.querySelectorAll<HTMLElement>('td, th')]
      .filter((cell) => cell.getClientRects().length > 0)
      .filter((cell) => {
        const at = cell.getBoundingClientRect();
        return at.right > box.right + 0.5 || cell.scrollWidth > cell.clientWidth + 1;
      })
      .map((cell) => `${cell.dataset.label ?? 'header'} "${(cell.textContent ?? '').trim()}"`);
  });
  if (!phone && cut.length) problems.push(`${where} cuts or scrolls away ${cut.slice(0, 5).join(', ')}`);
  const table = page.locator('.data-table', { has: region });
  if ((await table.locator('.data-table-pager').count()) > 0) problems.push(`${where} has a pager`);
  if ((await region.getByRole('button', { name: /^(Details|More actions)/ }).count()) > 0)
    problems.push(`${where} has row Details`);
  return problems;
}

/** The first row's details name every column and hold what its cell holds. */
async function checkDetails(page: Page, region: Locator, where: string): Promise<string[]> {
  const row = region.locator('tbody tr').first();
  const cells = await row
    .locator('td')
    .evaluateAll((tds) =>
      tds.map((td) => ({ name: td.dataset.label ?? '', text: (td.textContent ?? '').replace(/\s+/g, ' ').trim() })),
    );
  const more = row.getByRole('button', { name: /^More actions/ });
  if ((await more.count()) > 0) {
    await more.click();
    await page.getByRole('menuitem', { name: /^Details/ }).click();
  } else {
    const details = row.getByRole('button', { name: /^Details/ });
    if ((await details.count()) === 0) return [`${where} has no Details for its first row`];
    await details.click();
  }
  const dialog = page.getByRole('dialog', { name: /^Details of/ });
  await dialog.waitFor();
  const shown = await dialog.locator('dt').evaluateAll((terms) =>
    terms.map((dt) => ({
      name: (dt.textContent ?? '').trim(),
      text: (dt.nextElementSibling?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    })),
  );
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  return cells
    .filter((cell) => cell.name !== 'Actions')
    .filter((cell) => !shown.some((field) => field.name === cell.name && field.text === cell.text))
    .map((cell) => `${where}: the details lack ${cell.name} "${cell.text}"`);
}
