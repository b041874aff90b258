/**
 * The ward through the UI: a doctor requests a patient's admission from the patient's overview; reception gives
 * them a bed on the bed board (which the doctor's open board shows without a reload); the doctor orders the
 * discharge and writes its summary; two days later reception confirms the patient left and readies the bed; the
 * patient reads the summary on their records and finds the stay's bill. Then an admin's beds and census.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Browser, Locator, Page } from 'playwright-core';
import { routes, withId } from '../paths.ts';
import {
  atClinicTime,
  openSignedInPage,
  phoneScreenshot,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  shownDate,
  type TestServer,
} from './harness.ts';
import { labFixtures } from '../../testing/lab-fixtures.ts';
import { chooseRowAction } from './row-actions.ts';
import {
  bookSlot,
  createReceptionist,
  daysAhead,
  openDoctorEveryDay,
  patientIdOf,
  registerPatient,
  seedClinic,
  seedWard,
  type Account,
  type Clinic,
} from './seed.ts';

const PATIENT = 'Ines Inpatient';
const BED = 'Ward A, bed A1';
const DIAGNOSIS = 'Paroxysmal atrial fibrillation';
// bed-board-page.tsx's POLL_MS.
const BOARD_POLL_MS = 15_000;

describe('the ward in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let reception: Account;
  let patient: Account;
  let patientId: number;
  let doctor: Page;
  let doctorBoard: Page;
  const problems: string[][] = [];

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    await seedWard(server, clinic);
    reception = await createReceptionist(server, clinic.admin);
    patient = await registerPatient(server, PATIENT);
    // A visit makes them the doctor's patient, whose overview the doctor may open.
    await bookSlot(server, clinic, patient, '10:00');
    patientId = await patientIdOf(server, clinic, patient);
  });

  const signedIn = async (account: Account): Promise<Page> => {
    const { page, problems: seen } = await openSignedInPage(browser, server, account.email);
    problems.push(seen);
    return page;
  };
  const alertText = (page: Page, text: string) => page.getByRole('alert').getByText(text, { exact: true }).waitFor();
  const row = (page: Page, text: string): Locator => page.locator('tbody tr', { hasText: text });
  const tile = (page: Page, label: string): Locator => page.locator('.bed-tile', { hasText: `Bed ${label}` });
  /**
   * What the doctor's open board shows after its next poll. The board polls every 15 s (bed-board-page.tsx's
   * POLL_MS); its page's clock is moved on by that much, so the poll comes at once rather than in 15 s of a loaded
   * machine's time, and the wait is the locator's 30 s, ten times what an answer and its drawing take.
   */
  const afterNextPoll = async (board: Page, shown: Locator) => {
    await board.clock.fastForward(BOARD_POLL_MS);
    await shown.waitFor();
  };
  const menu = (page: Page, label: string) =>
    page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: label }).click();

  it('a doctor requests the admission from the patient overview, with ward, expected nights and reason', async () => {
    doctor = await signedIn(clinic.doctor);
    await doctor.goto(withId(routes.doctor.patient, patientId));
    await doctor.getByRole('heading', { name: PATIENT, level: 2 }).waitFor();
    await doctor.getByRole('button', { name: 'Request admission' }).click();
    const dialog = doctor.getByRole('dialog', { name: `Request admission: ${PATIENT}` });
    await dialog.locator('option', { hasText: 'Cardiology' }).waitFor({ state: 'attached' });
    await dialog.getByLabel('Ward').selectOption({ label: 'Cardiology' });
    await dialog.getByLabel('Expected nights').fill('3');
    await dialog.getByLabel('Reason').fill('Observation after syncope');
    assert.deepEqual(await seriousAxeViolations(doctor), []);
    await dialog.getByRole('button', { name: 'Request admission' }).click();
    await alertText(doctor, `Admission requested: the desk will assign ${PATIENT} a bed`);
    await dialog.waitFor({ state: 'detached' });
  });

  it('reception assigns the waiting patient a vacant bed on the bed board, and the doctor’s open board follows', async () => {
    doctorBoard = await signedIn(clinic.doctor);
    await doctorBoard.clock.install();
    await menu(doctorBoard, 'Bed board');
    await tile(doctorBoard, 'A1').getByText('Vacant', { exact: true }).waitFor();
    assert.equal(
      await doctorBoard.getByRole('button', { name: `Assign: ${BED}` }).count(),
      0,
      'doctors only read the board',
    );

    const desk = await signedIn(reception);
    await menu(desk, 'Bed board');
    await desk.getByRole('heading', { name: 'Bed board', level: 1 }).waitFor();
    await desk.getByRole('button', { name: `Assign: ${BED}` }).click();
    const dialog = desk.getByRole('dialog', { name: `Assign ${BED}` });
    await dialog.locator('option', { hasText: PATIENT }).waitFor({ state: 'attached' });
    await dialog.getByLabel('Waiting patient').selectOption({ label: `${PATIENT} · Cardiology` });
    await dialog.getByRole('button', { name: 'Admit to this bed' }).click();
    await alertText(desk, `${PATIENT} is admitted to ${BED}`);
    const a1 = tile(desk, 'A1');
    await a1.getByText('Occupied', { exact: true }).waitFor();
    await a1.getByText(PATIENT).waitFor();
    await desk.getByRole('button', { name: /^Occupied 1$/ }).waitFor();
    await phoneScreenshot(desk, 'bed-board');
    assert.equal(
      await desk.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      true,
      'no sideways scroll',
    );

    // The doctor's board polls: the bed fills in without a reload.
    await afterNextPoll(doctorBoard, tile(doctorBoard, 'A1').getByText(PATIENT));

    // A critical result of the patient in bed marks the tile for the doctor until acknowledged; the desk sees none.
    const admission = await server.db.query<{ id: number }>(
      `select id from admissions where patient_id = $1 and status = 'admitted'`,
      [patientId],
    );
    await labFixtures(server, clinic.admin).order({
      doctor: clinic.doctor,
      admissionId: admission[0]?.id,
      results: { '2823-3': { type: 'quantity', value: 6.9, unit: 'mmol/L' } },
    });
    await afterNextPoll(doctorBoard, tile(doctorBoard, 'A1').getByText('Critical result', { exact: true }));
    await desk.reload();
    await tile(desk, 'A1').getByText(PATIENT).waitFor();
    assert.equal(await tile(desk, 'A1').getByText('Critical result', { exact: true }).count(), 0);
    await desk.context().close();
  });

  it('the doctor orders the discharge with its summary, and opens the printable summary', async () => {
    await menu(doctor, 'Ward patients');
    await doctor.getByRole('heading', { name: 'Ward patients', level: 1 }).waitFor();
    await row(doctor, PATIENT)
      .getByRole('button', { name: `Order discharge: ${PATIENT}` })
      .click();
    const dialog = doctor.getByRole('dialog', { name: `Order discharge: ${PATIENT}` });
    await dialog.getByLabel('Diagnosis').fill(DIAGNOSIS);
    await dialog.getByLabel('Treatment').fill('Rate control, monitoring');
    await dialog.getByLabel('Medication').fill('Bisoprolol 2.5 mg daily');
    await dialog.getByLabel('Instructions').fill('No strenuous exercise for two weeks');
    await dialog.getByLabel('Follow-up').fill('Cardiology clinic in 4 weeks');
    await dialog.getByRole('button', { name: 'Order discharge' }).click();
    await alertText(doctor, `Discharge of ${PATIENT} ordered: the desk confirms when they leave`);
    await row(doctor, PATIENT).getByText('Discharge ordered').waitFor();

    await row(doctor, PATIENT)
      .getByRole('link', { name: `Discharge summary: ${PATIENT}` })
      .click();
    await doctor.getByRole('heading', { name: 'Discharge summary', level: 1 }).waitFor();
    await doctor.getByText(DIAGNOSIS).waitFor();
    await doctor.getByRole('button', { name: 'Print' }).waitFor();
    await afterNextPoll(doctorBoard, tile(doctorBoard, 'A1').getByText('Discharge ordered', { exact: true }));
    await doctorBoard.context().close();
  });

  it('two days later reception confirms the patient left, and readies the bed once cleaned', () =>
    atClinicTime(
      '10:00',
      async () => {
        const desk = await signedIn(reception);
        await menu(desk, 'Admissions');
        // The desk's admissions open on what it has to act on: the discharge ordered and not yet confirmed.
        assert.equal(await desk.getByRole('combobox', { name: 'Show', exact: true }).inputValue(), 'action');
        await desk.getByRole('option', { name: 'Needs action (1)' }).waitFor({ state: 'attached' });
        await row(desk, PATIENT)
          .getByRole('button', { name: `Confirm discharge: ${PATIENT}` })
          .click();
        await desk
          .getByRole('dialog', { name: 'Please confirm' })
          .getByRole('button', { name: 'Confirm discharge' })
          .click();
        await alertText(desk, `${PATIENT} is discharged; the stay is billed`);
        assert.equal(await desk.getByText(DIAGNOSIS).count(), 0, 'reception reads no clinical text');

        await menu(desk, 'Bed board');
        await tile(desk, 'A1').getByText('Being cleaned', { exact: true }).waitFor();
        await desk.getByRole('button', { name: `Mark ready: ${BED}` }).click();
        await alertText(desk, `${BED} is ready`);
        await tile(desk, 'A1').getByText('Vacant', { exact: true }).waitFor();
        await desk.context().close();
      },
      daysAhead(2),
    ));

  it('the patient reads the stay and its discharge summary on their records, and finds its bill', async () => {
    const page = await signedIn(patient);
    await page.goto(routes.patient.records);
    const stays = page.getByRole('region', { name: 'Hospital stays' });
    await stays.getByText(DIAGNOSIS).waitFor();
    await stays.getByText('Bisoprolol 2.5 mg daily').waitFor();
    await stays.getByText(/Ward A, bed A1:/).waitFor();
    await stays.getByText('$300.00').waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);

    await stays.getByRole('link', { name: 'Print discharge summary' }).click();
    await page.getByRole('heading', { name: 'Discharge summary', level: 1 }).waitFor();
    await page.getByText('Cardiology clinic in 4 weeks').waitFor();

    await menu(page, 'Bills');
    const bill = row(page, 'Hospital stay: 2 nights');
    await bill.locator('td[data-label="Amount"]').getByText('$300.00').waitFor();
  });

  it('an admin sets the room’s class and rate, adds, renames and retires a bed, and reads the census', async () => {
    const page = await signedIn(clinic.admin);
    await page.getByRole('region', { name: 'Ward occupancy today' }).getByText('Cardiology').waitFor();
    await page.goto(routes.admin.rooms);
    await chooseRowAction(page.locator('tbody tr', { hasText: 'Ward A' }), 'Beds of Ward A');
    const dialog = page.getByRole('dialog', { name: 'Beds of Ward A' });
    const rate = dialog.getByLabel('Nightly rate (USD)');
    await dialog.getByLabel('Bed class').and(page.locator('[value="Standard"]')).waitFor();
    await rate.fill('175.50');
    await dialog.getByRole('button', { name: 'Save class and rate' }).click();
    await alertText(page, 'Ward A: Standard beds saved');

    await dialog.getByLabel('New bed label').fill('A3');
    await dialog.getByRole('button', { name: 'Add bed' }).click();
    await alertText(page, 'Bed A3 added');
    await dialog.getByRole('button', { name: 'Rename bed A3' }).click();
    await dialog.getByLabel('New label for bed A3').fill('A9');
    await dialog.getByRole('button', { name: 'Save label' }).click();
    await alertText(page, 'Bed A3 is now bed A9');
    await chooseRowAction(dialog.locator('tbody tr', { hasText: 'A9' }), 'Retire bed A9');
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Retire' }).click();
    await alertText(page, 'Bed A9 is retired');
    await dialog.locator('tbody tr', { hasText: 'A9' }).waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');

    await page.goto(`${routes.admin.census}?from=2030-06-01&to=2030-06-05`);
    const days = page.getByRole('region', { name: 'Census per day and ward' });
    await days
      .locator('tr', { hasText: shownDate('2030-06-03') })
      .locator('td[data-label="In bed at midnight"]')
      .getByText('1', { exact: true })
      .waitFor();
    const totals = page.getByRole('region', { name: 'Census totals per ward' });
    await totals.locator('td[data-label="Patient nights"]').getByText('2', { exact: true }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    assert.equal((await download).suggestedFilename(), 'medora-census-2030-06-01-to-2030-06-05.csv');
    assert.deepEqual(problems.flat(), []);
  });
});
