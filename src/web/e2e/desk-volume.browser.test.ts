/**
 * The desk's day with the volume of a real one: eighty visits over five doctors. At 1280×800 fifteen rows and more
 * show without scrolling; the page does not move as its parts arrive (CLS under 0.05 at 390, 1024 and 1280 px);
 * a count shows only its visits; a line marks the time it is now.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { cliActor } from '../../domain/shared/actor.ts';
import { clinicInstant } from '../../domain/shared/clock.ts';
import { TEST_TZ } from '../../testing/http.ts';
import { describe, it } from '../../testing/node-test.ts';
import { only } from '../../testing/assert.ts';
import {
  CLINIC_TODAY,
  atClinicTime,
  layoutShift,
  openSignedInPage,
  serverAndBrowserPerSuite,
  settled,
  watchLayoutShifts,
  uniqueEmail,
  PASSWORD,
  type TestServer,
} from './harness.ts';
import { createReceptionist, seedClinic, type Account, type Clinic } from './seed.ts';
import { routes } from '../paths.ts';

const DOCTORS = 5;
const SLOTS_A_DOCTOR = 16; // 09:00–17:00 in 30 minutes

describe("the desk's day with eighty visits", () => {
  let server: TestServer;
  let browser: Browser;
  let clinic: Clinic;
  let reception: Account;

  serverAndBrowserPerSuite(async (started, launched) => {
    server = started;
    browser = launched;
    clinic = await seedClinic(server);
    reception = await createReceptionist(server, clinic.admin);
    const actor = cliActor('desk-volume-test');
    const { id: specializationId } = only(
      await server.db.query<{ id: number }>('select id from specializations order by id limit 1'),
    );
    const doctorIds = [clinic.doctor.id];
    for (let n = 1; n < DOCTORS; n++) {
      const made = await server.api('POST', '/api/admin/doctors', {
        token: clinic.admin.token,
        body: {
          name: `Dr. Volume ${n}`,
          email: uniqueEmail('doctor'),
          password: PASSWORD,
          phone: '+1 555 0142',
          gender: 'male',
          specialization_id: specializationId,
          department_id: clinic.departmentId,
        },
      });
      doctorIds.push(made.body.id);
    }
    let patient = 0;
    const checkedIn: number[] = [];
    for (const doctorId of doctorIds) {
      await server.api('PUT', `/api/admin/doctors/${doctorId}/schedule`, {
        token: clinic.admin.token,
        body: { days: [1, 2, 3, 4, 5, 6, 7], start_time: '09:00', end_time: '17:00', slot_minutes: 30 },
      });
      const { available_appointments: slots } = await server.app.scheduling.availableSlots(
        doctorId,
        { date: CLINIC_TODAY },
        actor,
      );
      assert.equal(slots.length, SLOTS_A_DOCTOR);
      for (const slot of slots) {
        patient++;
        const walkIn = await server.app.staff.registerWalkIn(
          {
            name: `Vera Volume ${patient}`,
            phone: `+1 555 1${String(patient).padStart(3, '0')}`,
            birthdate: '1970-01-01',
            gender: 'female',
          },
          actor,
        );
        const booked = await server.app.scheduling.bookForPatient(
          { patient_id: walkIn.patient.id, doctor_id: doctorId, schedule_id: slot.schedule_id, date: CLINIC_TODAY },
          actor,
        );
        if (slot.start_time === '09:00') checkedIn.push(booked.id);
      }
    }
    await atClinicTime('09:05', async () => {
      for (const id of checkedIn) await server.app.scheduling.checkIn(id, actor);
    });
  });

  /** The desk's day opened afresh at `width`×`height`, its layout shifts watched from the first paint. */
  async function openDay(width: number, height: number): Promise<Page> {
    const { page } = await openSignedInPage(browser, server, reception.email);
    await page.setViewportSize({ width, height });
    await page.clock.setFixedTime(clinicInstant(CLINIC_TODAY, '12:10', TEST_TZ));
    await watchLayoutShifts(page);
    await page.goto(routes.reception.today);
    await page
      .getByRole('table', { name: "The day's appointments" })
      .locator('tbody tr:not(.skeleton-row)')
      .first()
      .waitFor();
    await settled(page);
    return page;
  }

  it('shows fifteen visits and more at 1280×800 without scrolling, a line at now, and a count as a filter', async (t) => {
    const page = await openDay(1280, 800);
    const rows = page.getByRole('table', { name: "The day's appointments" }).locator('tbody tr');
    assert.equal(await rows.count(), DOCTORS * SLOTS_A_DOCTOR, 'the whole day in one table');
    const visible = await rows.evaluateAll(
      (trs) => trs.filter((tr) => tr.getBoundingClientRect().bottom <= window.innerHeight).length,
    );
    assert.ok(visible >= 15, `${visible} rows visible at 1280×800`);
    t.diagnostic(`${visible} visit rows visible at 1280×800`);

    const now = page.locator('tr.now-row');
    assert.equal(await now.count(), 1);
    assert.match((await now.locator('td').first().textContent()) ?? '', /^Now 12:30/);

    await page
      .getByRole('group', { name: 'Show visits by status' })
      .getByRole('button', { name: /^Waiting 5$/ })
      .click();
    const waiting = page.getByRole('table', { name: "The day's appointments: Waiting" }).locator('tbody tr');
    await waiting.nth(DOCTORS - 1).waitFor();
    assert.equal(await waiting.count(), DOCTORS);
    assert.deepEqual([...new Set(await waiting.locator('td[data-label="Status"]').allTextContents())], ['Checked in']);
    await page.context().close();
  });

  for (const [width, height] of [
    [390, 844],
    [1024, 768],
    [1280, 800],
  ] as const) {
    it(`does not move as its parts arrive at ${width} px (CLS under 0.05)`, async (t) => {
      const page = await openDay(width, height);
      const shift = await layoutShift(page);
      assert.ok(shift.score < 0.05, `CLS ${shift.score.toFixed(3)} at ${width} px: ${shift.moved.join('; ')}`);
      t.diagnostic(`layout shift ${shift.score.toFixed(4)} at ${width}×${height}`);
      await page.context().close();
    });
  }
});
