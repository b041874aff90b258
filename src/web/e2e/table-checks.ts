/**
 * What the every-screen sweep (axe-every-screen.ts) checks of a screen's lists and tables besides axe and
 * layout shift, in the same visit at each width:
 * - a list's first row (its actions, or its cells) in view without scrolling sideways, nor inside its table;
 * - every table with the spec's columns shown at 1280 px, no control cut at 1024 px, the hidden columns named, and
 *   every field of the first row in its Details; a report's table (the takings, the census) shows every column and
 *   figure at 1024 px too, with no pager or Details.
 */
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { Role } from '../../domain/shared/actor.ts';
import { routes } from '../paths.ts';
import { POLL_MS, settled, shownInPage } from './harness.ts';

// A screen's first rows: a second or two on a loaded machine; the bound is ten times that, not a measure of speed.
const ROWS_WITHIN_MS = 30_000;

/**
 * What is wrong with the lists and tables of the screen the page shows, one line each: the screen `pattern` (a route
 * table key) of `role`, at `width`. The tables that stand in a dialog or behind a switch are opened, so the page may
 * be left showing them.
 */
export async function tableProblems(page: Page, role: Role, pattern: string, width: number): Promise<string[]> {
  const problems: string[] = [];
  const list = listScreens[role]?.find((screen) => screen.path === pattern);
  if (list) {
    await rowsShown(page, list);
    problems.push(...(await sidewaysProblems(page, list, width)));
  }
  for (const table of TABLES[role]?.filter((table) => table.path === pattern) ?? []) {
    await table.open?.(page);
    await firstRowInPage(page, table.label);
    const region = page.getByRole('region', { name: table.label, exact: true });
    await region
      .locator('tbody tr:not(.skeleton-row):not(:has(.table-empty))')
      .first()
      .waitFor({ timeout: ROWS_WITHIN_MS });
    await settled(page);
    problems.push(...(await checkTable(page, region, table, width)));
  }
  // A table that stands in a dialog leaves it open: the next screen is reached without it.
  const dialog = page.getByRole('dialog');
  if ((await dialog.count()) > 0) {
    await page.keyboard.press('Escape');
    await dialog.first().waitFor({ state: 'detached' });
  }
  return problems;
}

export interface Screen {
  path: string;
  /** The list endpoint the screen loads its rows from. */
  api: string;
  /** What the loading and failure messages call the list. */
  what: string;
  /** A card grid rather than a table. */
  cards?: boolean;
}

/** The lists of each role: what the sweep checks for sideways scrolling, and the loading and failing lists test. */
export const listScreens: Partial<Record<Role, Screen[]>> = {
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

/**
 * Resolves within POLL_MS of the table captioned `label` showing a first row, or after ROWS_WITHIN_MS: a wait
 * before Playwright's for the same row, which polls only every half second after the first quarter (harness.ts's
 * `shownInPage`). Playwright's wait that follows decides.
 */
const firstRowInPage = (page: Page, label: string) =>
  page
    .waitForFunction(
      (name) =>
        [...document.querySelectorAll('section[aria-label], section[aria-labelledby]')].some((section) => {
          const by = section.getAttribute('aria-labelledby');
          const named = by
            ? by
                .split(/\s+/)
                .map((id) => document.getElementById(id)?.textContent ?? '')
                .join(' ')
            : (section.getAttribute('aria-label') ?? '');
          if (named.replace(/\s+/g, ' ').trim() !== name) return false;
          const row = section.querySelector('tbody tr:not(.skeleton-row):not(:has(.table-empty))');
          const box = row?.getBoundingClientRect();
          return !!box && box.width > 0 && box.height > 0;
        }),
      label,
      { polling: POLL_MS, timeout: ROWS_WITHIN_MS },
    )
    .catch(() => {});

/** Waits for the screen's first row (or card), or fails naming the screen. */
export const rowsShown = async (page: Page, screen: Screen) => {
  const rows = screen.cards
    ? '.card-grid > li:not(.skeleton-card)'
    : 'tbody tr:not(.skeleton-row):not(:has(.table-empty))';
  await shownInPage(page, rows).catch(() => {});
  return page
    .locator(rows)
    .first()
    .waitFor({ timeout: ROWS_WITHIN_MS })
    .catch((error: Error) => assert.fail(`${screen.path} shows no rows: ${error.message}`));
};

/** The first row's buttons and links, or for a read-only table its cells. */
function firstRowControls(page: Page, screen: Screen): Locator {
  if (screen.cards) return page.locator('.card-grid > li').first().locator('a, button');
  const row = page.locator('tbody tr').first();
  return row.locator('a, button');
}

/** The page does not scroll sideways at `width`, and the first row's controls (or cells) lie inside it and their table. */
async function sidewaysProblems(page: Page, screen: Screen, width: number): Promise<string[]> {
  const where = `${screen.path} at ${width} px`;
  const problems: string[] = [];
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  if (scrollWidth > clientWidth) problems.push(`${where} scrolls sideways: ${scrollWidth} > ${clientWidth}`);

  const controls = firstRowControls(page, screen);
  const targets = (await controls.count()) > 0 ? controls : page.locator('tbody tr').first().locator('td');
  const count = await targets.count();
  if (count === 0) problems.push(`${where} has no first row`);
  for (let index = 0; index < count; index++) {
    const target = targets.nth(index);
    if (!(await target.isVisible())) continue;
    const box = await target.boundingBox();
    const name = (await target.innerText()).trim();
    if (!box) problems.push(`${where}: control ${index} has no box`);
    else if (box.x < 0 || box.x + box.width > width)
      problems.push(`${where}: "${name}" lies at ${box.x}–${box.x + box.width}`);
    // Inside the table's own scroll box too, so no hidden scrolling either.
    const clippedBy = await target.evaluate((element) => {
      const scroller = element.closest('.table-scroll');
      if (!scroller) return null;
      const [outer, inner] = [scroller.getBoundingClientRect(), element.getBoundingClientRect()];
      return inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5
        ? null
        : `${inner.left}–${inner.right} outside ${outer.left}–${outer.right}`;
    });
    if (clippedBy) problems.push(`${where}: "${name}" is scrolled out of its table (${clippedBy})`);
  }
  return problems;
}

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
const TABLES: Partial<Record<Role, Table[]>> = {
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
      path: routes.reception.patient,
      label: "The patient's appointments",
      required: ['Date', 'Time', 'Doctor', 'Room', 'Status', 'Actions'],
    },
    {
      path: routes.reception.patient,
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
