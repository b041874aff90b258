/**
 * The bed board with a real ward: forty-five beds over five rooms, most of them taken, some held, leaving, being
 * cleaned or blocked, and patients waiting for a bed. At 1280×800 the whole ward shows without scrolling (the
 * document no taller than the viewport), and the board does not move as it arrives (CLS under 0.05).
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { cliActor } from '../../domain/shared/actor.ts';
import { describe, it } from '../../testing/node-test.ts';
import {
  layoutShift,
  openSignedInPage,
  serverAndBrowserPerSuite,
  settled,
  watchLayoutShifts,
  type TestServer,
} from './harness.ts';
import { createNurse, createReceptionist, seedClinic, seedWard, type Account, type Clinic } from './seed.ts';
import { routes } from '../paths.ts';

const ROOMS = 5;
const BEDS_A_ROOM = 9;
const IN_BED = 34;
const WAITING = 4;

describe('the bed board with a 45-bed ward', () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let reception: Account;
  let nurse: Account;
  /** Those waiting for a bed: the requests, and those whose bed is held (reserved) but who are not in it yet. */
  let waiting = WAITING;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    reception = await createReceptionist(server, clinic.admin);
    nurse = await createNurse(server, clinic);
    const bedIds: number[] = [];
    for (let room = 1; room <= ROOMS; room++) {
      const labels = Array.from({ length: BEDS_A_ROOM }, (_, n) => `${String.fromCharCode(64 + room)}${n + 1}`);
      bedIds.push(...(await seedWard(server, clinic, `Room ${room}`, labels)).bedIds);
    }
    const call = async (method: string, path: string, token: string, body: object) => {
      const answer = await server.api(method, path, { token, body });
      assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const actor = cliActor('ward-volume-test');
    for (let n = 0; n < IN_BED + WAITING; n++) {
      const walkIn = await server.app.staff.registerWalkIn(
        {
          name: `Wanda Ward ${n + 1}`,
          phone: `+1 555 2${String(n).padStart(3, '0')}`,
          birthdate: '1950-01-01',
          gender: n % 2 === 0 ? 'female' : 'male',
        },
        actor,
      );
      const patientId = walkIn.patient.id;
      await call('POST', `/api/doctor/patients/${patientId}/break-glass`, clinic.doctor.token, {
        reason: 'Admitted from the emergency department',
      });
      const admission = await call('POST', '/api/admissions', clinic.doctor.token, {
        patient_id: patientId,
        department_id: clinic.departmentId,
        expected_nights: 3 + (n % 5),
        reason: 'Observation',
      });
      if (n >= IN_BED) continue;
      const bedId = bedIds[n] ?? 0;
      if (n % 11 === 0) {
        await call('POST', `/api/admissions/${admission.id}/reserve`, clinic.admin.token, { bed_id: bedId });
        waiting++;
        continue;
      }
      await call('POST', `/api/admissions/${admission.id}/admit`, clinic.admin.token, { bed_id: bedId });
      if (n % 7 === 0)
        await call('POST', `/api/admissions/${admission.id}/discharge-order`, clinic.doctor.token, {
          diagnosis: 'Community-acquired pneumonia',
          treatment: 'Antibiotics',
        });
    }
    for (const bedId of bedIds.slice(-2))
      await call('POST', `/api/beds/${bedId}/block`, clinic.admin.token, {
        kind: 'maintenance',
        reason: 'Broken rail',
      });
  });

  async function openBoard(account: Account, path: string): Promise<Page> {
    const { page } = await openSignedInPage(browser, server, account.email);
    await page.setViewportSize({ width: 1280, height: 800 });
    await watchLayoutShifts(page);
    await page.goto(path);
    await page
      .locator('.bed-tile')
      .nth(ROOMS * BEDS_A_ROOM - 1)
      .waitFor();
    await settled(page);
    return page;
  }

  for (const [who, path] of [
    ['reception', routes.reception.beds],
    ['a doctor', routes.doctor.beds],
    ['a nurse', routes.nurse.beds],
  ] as const) {
    it(`fits the whole ward on one 1280×800 screen for ${who}, without moving as it arrives`, async (t) => {
      const account = who === 'reception' ? reception : who === 'a nurse' ? nurse : clinic.doctor;
      const page = await openBoard(account, path);
      assert.equal(await page.locator('.bed-tile').count(), ROOMS * BEDS_A_ROOM);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      assert.ok(height <= 800, `the board is ${height} px tall at 1280×800`);
      const shift = await layoutShift(page);
      assert.ok(shift.score < 0.05, `CLS ${shift.score.toFixed(3)}: ${shift.moved.join('; ')}`);
      t.diagnostic(`the board is ${height} px tall at 1280×800; layout shift ${shift.score.toFixed(4)}`);
      if (who !== 'a nurse') {
        const requests = page.getByRole('complementary', { name: 'Waiting for a bed' });
        assert.equal(await requests.getByRole('listitem').count(), waiting);
      }
      await page.context().close();
    });
  }

  it('filters the board by state with its counts', async () => {
    const page = await openBoard(reception, routes.reception.beds);
    await page.getByRole('button', { name: /^Blocked 2$/ }).click();
    await page.locator('.bed-tile').nth(2).waitFor({ state: 'detached' });
    assert.equal(await page.locator('.bed-tile.bed-blocked').count(), 2);
    assert.equal(await page.locator('.bed-tile').count(), 2);
    await page.context().close();
  });
});
