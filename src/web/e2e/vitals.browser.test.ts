/**
 * Observations on the ward through the UI: a nurse records a set for the patient in a bed from the bed board, and
 * its NEWS2 and next set due appear on the tile; a deteriorating set raises the alert on the tile and on the ward
 * doctor's day; the doctor opens the stay's flowsheet from the alert, its charts and its table.
 */
import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import { present } from '../../testing/assert.ts';
import type { Browser, Locator, Page } from 'playwright-core';
import { routes } from '../paths.ts';
import { chooseRowAction } from './row-actions.ts';
import {
  openSignedInPage,
  serverAndBrowserPerSuite,
  seriousAxeViolations,
  settled,
  type TestServer,
} from './harness.ts';
import {
  bookSlot,
  createNurse,
  openDoctorEveryDay,
  patientIdOf,
  registerPatient,
  seedClinic,
  seedStay,
  seedWard,
  type Account,
  type Clinic,
} from './seed.ts';

const PATIENT = 'Vera Vitals';

describe('vital signs in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let nurse: Account;
  let nursePage: Page;
  let flowsheet: Page | undefined;
  const problems: string[][] = [];

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    await openDoctorEveryDay(server, clinic);
    const { bedIds } = await seedWard(server, clinic);
    nurse = await createNurse(server, clinic);
    const patient = await registerPatient(server, PATIENT);
    await bookSlot(server, clinic, patient, '10:00');
    await seedStay(server, clinic, await patientIdOf(server, clinic, patient), bedIds[0] ?? 0);
  });

  const signedIn = async (account: Account): Promise<Page> => {
    const { page, problems: seen } = await openSignedInPage(browser, server, account.email);
    problems.push(seen);
    return page;
  };
  const tile = (page: Page): Locator => page.locator('.bed-tile', { hasText: 'Bed A1' });
  const record = async (values: Record<string, string>, oxygen: boolean, expected: string) => {
    await chooseRowAction(tile(nursePage), 'Record vitals: Ward A, bed A1');
    const dialog = nursePage.getByRole('dialog', { name: `Vital signs: ${PATIENT}` });
    for (const [label, value] of Object.entries(values)) await dialog.getByLabel(label, { exact: true }).fill(value);
    if (oxygen) await dialog.getByLabel('On supplemental oxygen').check();
    await dialog.getByRole('button', { name: 'Record' }).click();
    await nursePage.getByRole('alert').getByText(expected, { exact: true }).waitFor();
  };

  it('a nurse records a set from the bed board; its NEWS2 and next set due appear on the tile', async () => {
    nursePage = await signedIn(nurse);
    await nursePage.goto(routes.nurse.beds);
    await tile(nursePage).getByText(PATIENT).waitFor();
    await record(
      {
        'Respiratory rate (/min)': '16',
        'SpO2 (%)': '97',
        'Systolic BP (mm Hg)': '124',
        'Diastolic BP (mm Hg)': '78',
        'Pulse (/min)': '72',
        Temperature: '37.1',
      },
      false,
      `NEWS2 0 (low risk) for ${PATIENT}`,
    );
    await tile(nursePage).getByText('NEWS2 0').waitFor();
    assert.match((await tile(nursePage).getByText('NEWS2 0').getAttribute('title')) ?? '', /low risk · Next due /);
  });

  it('a deteriorating set raises the alert on the tile', async () => {
    await record(
      {
        'Respiratory rate (/min)': '26',
        'SpO2 (%)': '93',
        'Systolic BP (mm Hg)': '98',
        'Diastolic BP (mm Hg)': '60',
        'Pulse (/min)': '118',
        Temperature: '38.6',
      },
      true,
      `NEWS2 12 (high risk) for ${PATIENT}`,
    );
    await tile(nursePage).getByText('NEWS2 12').waitFor();
    await tile(nursePage).getByText('Alert').waitFor();
    assert.match((await tile(nursePage).getAttribute('class')) ?? '', /bed-alert/);
    await settled(nursePage);
    assert.deepEqual(await seriousAxeViolations(nursePage), []);
  });

  it("the alert stands on the ward doctor's day, and the doctor opens the flowsheet chart and its table", async () => {
    const doctor = await signedIn(clinic.doctor);
    await doctor.goto(routes.doctor.agenda);
    const alerts = doctor.getByRole('region', { name: 'NEWS2 alerts' });
    await alerts.getByText('NEWS2 12 · high').waitFor();
    await alerts.getByRole('link', { name: PATIENT }).click();
    await doctor.getByRole('heading', { name: 'Flowsheet', level: 1 }).waitFor();
    await doctor.getByRole('img', { name: 'NEWS2 over the stay' }).waitFor();
    await doctor.getByRole('img', { name: 'Pulse over the stay' }).waitFor();
    assert.equal(await doctor.locator('svg[aria-label="Pulse over the stay"] circle').count(), 2);
    await doctor.getByRole('button', { name: 'Table view' }).click();
    const rows = doctor.locator('tbody tr');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    assert.match(await rows.nth(1).innerText(), /12 \(high\)/);
    await settled(doctor);
    assert.deepEqual(await seriousAxeViolations(doctor), []);
    flowsheet = doctor;
  });

  it('the doctor sets the stay to SpO2 scale 2, charts a fluid intake and signs a nursing note on the flowsheet', async () => {
    const page = present(flowsheet);
    await page.getByRole('button', { name: 'SpO2 scale' }).click();
    const scale = page.getByRole('dialog', { name: 'SpO2 scale' });
    await scale.getByLabel('Scale', { exact: true }).selectOption('2');
    await scale.getByRole('button', { name: 'Set scale' }).click();
    await page.getByText('SpO2 scale 2', { exact: false }).first().waitFor();
    await page.getByRole('button', { name: 'Chart fluid' }).click();
    const fluid = page.getByRole('dialog', { name: 'Fluid intake or output' });
    await fluid.getByLabel('Volume (mL)', { exact: true }).fill('250');
    await fluid.getByRole('button', { name: 'Chart' }).click();
    await page.getByText(/Last 24 h: in 250 mL, out 0 mL/).waitFor();
    await page.getByRole('button', { name: 'Write a note' }).click();
    const note = page.getByRole('dialog', { name: 'Nursing note' });
    await note.getByLabel('Note', { exact: true }).fill('Febrile and tachycardic; doctor informed.');
    await note.getByRole('button', { name: 'Sign note' }).click();
    await page.getByText('Febrile and tachycardic; doctor informed.').waitFor();
    await settled(page);
    assert.deepEqual(await seriousAxeViolations(page), []);
    assert.deepEqual(problems.flat(), []);
  });
});
