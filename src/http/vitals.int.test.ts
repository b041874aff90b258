import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { only, present } from '../testing/assert.ts';
import { PASSWORD, signIn, signUpAdmin, startTestServer, uniqueEmail, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { movableClock } from '../testing/scheduling-fakes.ts';
import { testDatabases } from '../testing/test-db.ts';
import { vitalsRoutes } from './routes/vitals.ts';
import { assertRoutesAnswerByAccess } from '../testing/route-access.ts';

/** A calm set: NEWS2 0. */
const calm = {
  systolic: 124,
  diastolic: 78,
  heart_rate: 72,
  respiratory_rate: 16,
  temperature: 98.6,
  temperature_unit: '[degF]',
  spo2: 97,
  consciousness: 'A',
};
/** A deteriorating set: 3 + 2 + 2 + 2 + 2 + 0 + 1 = 12. */
const septic = {
  systolic: 98,
  diastolic: 60,
  heart_rate: 118,
  respiratory_rate: 26,
  temperature: 38.6,
  spo2: 93,
  on_oxygen: true,
  consciousness: 'A',
};

for (const target of testDatabases('one')) {
  describe(`vital signs over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let clock: ReturnType<typeof movableClock>;
    let fx: ReturnType<typeof clinicFixtures>;
    let admin: { token: string };
    let doctor: Awaited<ReturnType<typeof fx.doctor>>;
    let nurse: Awaited<ReturnType<typeof fx.nurse>>;
    let otherNurse: Awaited<ReturnType<typeof fx.nurse>>;
    let patient: Awaited<ReturnType<typeof fx.patient>>;
    let admissionId: number;
    let bedId: number;

    const api = (
      method: string,
      path: string,
      token: string | undefined,
      body?: unknown,
      headers?: Record<string, string>,
    ) => server.api(method, path, { token, body, headers });
    const ok = async (
      method: string,
      path: string,
      token: string,
      body?: unknown,
      status = 200,
      headers?: Record<string, string>,
    ) => {
      const res = await api(method, path, token, body, headers);
      assert.equal(res.status, status, `${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    before(async () => {
      clock = movableClock('2026-05-04T08:00:00Z');
      server = await startTestServer(target, { clock });
      fx = clinicFixtures(server);
      admin = await signUpAdmin(server);
      const ward = await fx.ward('Vitals Ward', 2);
      const other = await fx.ward('Other Ward', 1);
      doctor = await fx.doctor('Dr. Vital');
      await server.db.query('update doctors set department_id = $1 where id = $2', [
        ward.departmentId,
        doctor.doctorId,
      ]);
      nurse = await fx.nurse(ward.departmentId, 'Vera Vital');
      otherNurse = await fx.nurse(other.departmentId, 'Olga Other');
      patient = await fx.patient('Paula Pulse');
      bedId = present(ward.bedIds[0]);
      admissionId = await fx.admit({
        patientId: patient.patientId,
        doctorId: doctor.doctorId,
        departmentId: ward.departmentId,
        bedId,
        at: '2026-05-03T10:00:00Z',
      });
    });
    after(() => server.close());

    it('scores a nurse’s set by NEWS2, stores °F as °C and shows it in the clinic’s unit, and stores a resubmitted key once', async () => {
      const key = { 'Idempotency-Key': 'set-1' };
      const body = { admission_id: admissionId, ...calm };
      const first = await ok('POST', '/api/vitals/sets', nurse.token, body, 201, key);
      assert.deepEqual(
        [first.values.temperature, first.temperature_unit, first.news2.total, first.news2.risk, first.news2.frequency],
        [37, 'Cel', 0, 'low', '12-hourly'],
      );
      assert.equal(first.next_due_at, '2026-05-04T20:00:00.000Z');
      const again = await ok('POST', '/api/vitals/sets', nurse.token, body, 200, key);
      assert.equal(again.id, first.id);
      const stored = await server.db.query<{ code: string; value_quantity: string; value_unit: string }>(
        `select code, value_quantity::text, value_unit from observations where vital_set_id = $1 and code = '8310-5'`,
        [first.id],
      );
      assert.deepEqual(only(stored), { code: '8310-5', value_quantity: '37', value_unit: 'Cel' });
      const { n } = only(
        await server.db.query<{ n: number }>('select count(*)::int as n from vital_sign_sets where admission_id = $1', [
          admissionId,
        ]),
      );
      assert.equal(n, 1);
    });

    it('refuses impossible values naming the field, and a set without a stay or visit', async () => {
      for (const [field, value] of [
        ['heart_rate', 301],
        ['temperature', 46],
        ['spo2', 101],
      ] as const) {
        const res = await api('POST', '/api/vitals/sets', nurse.token, { admission_id: admissionId, [field]: value });
        assert.deepEqual([res.status, Object.keys(res.body.errors)], [422, [field]]);
      }
      const neither = await api('POST', '/api/vitals/sets', nurse.token, calm);
      assert.deepEqual([neither.status, Object.keys(neither.body.errors)], [422, ['admission_id']]);
    });

    it('lets only the ward’s nurses and the care team reach the patient', async () => {
      const body = { admission_id: admissionId, heart_rate: 80 };
      assert.equal((await api('POST', '/api/vitals/sets', otherNurse.token, body)).status, 404);
      assert.equal((await api('GET', `/api/admissions/${admissionId}/flowsheet`, otherNurse.token)).status, 404);
      const stranger = await fx.doctor('Dr. Stranger');
      assert.equal((await api('POST', '/api/vitals/sets', stranger.token, body)).status, 404);
      assert.equal((await api('POST', '/api/vitals/sets', patient.token, body)).status, 403);
      const visit = await fx.appointment({ doctor, patientId: patient.patientId, date: '2026-05-04' });
      await ok('POST', '/api/vitals/sets', doctor.token, { appointment_id: visit, weight: 70, height: 175 }, 201);
      assert.equal(
        (await api('POST', '/api/vitals/sets', nurse.token, { appointment_id: visit, heart_rate: 70 })).status,
        404,
      );
    });

    it('alerts the ward doctor’s day and e-mails the patient’s doctor on a high score, and keeps a correction’s history', async () => {
      clock.set('2026-05-04T10:00:00Z');
      const set = await ok('POST', '/api/vitals/sets', nurse.token, { admission_id: admissionId, ...septic }, 201);
      assert.deepEqual(
        [set.news2.total, set.news2.risk, set.news2.frequency, set.news2.alert],
        [12, 'high', 'continuous', true],
      );
      const { alerts } = await ok('GET', '/api/doctor/news2-alerts', doctor.token);
      assert.deepEqual(
        alerts.map((a: { set_id: number; total: number; bed: { id: number } }) => [a.set_id, a.total, a.bed.id]),
        [[set.id, 12, bedId]],
      );
      const tile = async (token: string) => {
        const board = await ok('GET', '/api/bed-board', token);
        const beds = board.wards.flatMap((w: { rooms: { beds: object[] }[] }) => w.rooms.flatMap((r) => r.beds));
        return present(beds.find((b: { id?: number }) => b.id === bedId)) as Record<string, unknown>;
      };
      clock.set('2026-05-04T10:20:00Z');
      assert.deepEqual((await tile(nurse.token)).news2, {
        total: 12,
        risk: 'high',
        taken_at: '2026-05-04T10:00:00.000Z',
        next_due_at: '2026-05-04T10:15:00.000Z',
        overdue: true,
        alert: true,
      });
      const deskEmail = uniqueEmail('desk');
      await ok(
        'POST',
        '/api/admin/receptionists',
        admin.token,
        { name: 'Dee Desk', email: deskEmail, password: PASSWORD },
        201,
      );
      assert.equal('news2' in (await tile((await signIn(server, deskEmail)).token)), false);
      const mail = await server.db.query<{ subject: string }>(`select subject from outbox where kind = 'news2_alert'`);
      assert.deepEqual(
        mail.map((m) => m.subject),
        ['NEWS2 12 (high risk): Paula Pulse'],
      );

      const stale = await api('POST', `/api/vitals/sets/${set.id}/correct`, nurse.token, {
        version: 2,
        reason: 'x',
        heart_rate: 80,
      });
      assert.deepEqual([stale.status, stale.body.code], [409, 'stale_version']);
      const fixed = await ok('POST', `/api/vitals/sets/${set.id}/correct`, nurse.token, {
        version: 1,
        reason: 'Pulse misread from the monitor',
        heart_rate: 80,
        respiratory_rate: 18,
        on_oxygen: false,
        spo2: 97,
        systolic: 124,
        diastolic: 78,
        temperature: 37.2,
      });
      assert.deepEqual([fixed.version, fixed.values.heart_rate, fixed.news2.total], [2, 80, 0]);
      const versions = await server.db.query<{ version: number; value_quantity: string; reason: string | null }>(
        `select v.version, v.value_quantity::text, v.reason from observation_versions v join observations o on o.id = v.observation_id
         where o.vital_set_id = $1 and o.code = '8867-4' order by v.version`,
        [set.id],
      );
      assert.deepEqual(
        versions.map((v) => [v.version, v.value_quantity, v.reason]),
        [
          [1, '118', null],
          [2, '80', 'Pulse misread from the monitor'],
        ],
      );
      assert.deepEqual((await ok('GET', '/api/doctor/news2-alerts', doctor.token)).alerts, []);
    });

    it('scores SpO2 on scale 2 once a doctor sets it for the stay', async () => {
      assert.equal(
        (await api('PUT', `/api/admissions/${admissionId}/spo2-scale`, nurse.token, { scale: 2 })).status,
        403,
      );
      await ok('PUT', `/api/admissions/${admissionId}/spo2-scale`, doctor.token, { scale: 2 });
      const set = await ok(
        'POST',
        '/api/vitals/sets',
        nurse.token,
        { admission_id: admissionId, ...calm, spo2: 89 },
        201,
      );
      assert.deepEqual([set.news2.scale, set.news2.parameters.spo2], [2, 0]);
      await ok('PUT', `/api/admissions/${admissionId}/spo2-scale`, doctor.token, { scale: 1 });
    });

    it('draws the flowsheet with gaps where a set lacks a vital', async () => {
      clock.set('2026-05-04T12:00:00Z');
      await ok('POST', '/api/vitals/sets', nurse.token, { admission_id: admissionId, heart_rate: 90 }, 201);
      const sheet = await ok('GET', `/api/admissions/${admissionId}/flowsheet`, nurse.token);
      const pulse = sheet.series.heart_rate as { value: number | null }[];
      const temperature = sheet.series.temperature as { value: number | null }[];
      assert.equal(pulse.at(-1)?.value, 90);
      assert.equal(temperature.at(-1)?.value, null);
      assert.equal(sheet.sets.length, pulse.length);
      assert.equal(
        (await ok('GET', `/api/admissions/${admissionId}/flowsheet`, admin.token)).sets.length,
        pulse.length,
      );
    });

    it('totals fluid balance per shift and per day, and corrects a nursing note only by a new note', async () => {
      const fluid = (body: object, key?: string) =>
        ok(
          'POST',
          `/api/admissions/${admissionId}/fluids`,
          nurse.token,
          body,
          201,
          key ? { 'Idempotency-Key': key } : undefined,
        );
      await fluid({ kind: 'intake', route: 'oral', volume_ml: 250, effective_at: '2026-05-04T08:30:00Z' }, 'f1');
      await fluid({ kind: 'intake', route: 'oral', volume_ml: 250, effective_at: '2026-05-04T08:30:00Z' }, 'f1');
      await fluid({ kind: 'output', route: 'urine', volume_ml: 400, effective_at: '2026-05-04T11:00:00Z' });
      const wrongRoute = await api('POST', `/api/admissions/${admissionId}/fluids`, nurse.token, {
        kind: 'intake',
        route: 'urine',
        volume_ml: 10,
      });
      assert.deepEqual([wrongRoute.status, Object.keys(wrongRoute.body.errors)], [422, ['route']]);
      const balance = await ok('GET', `/api/admissions/${admissionId}/fluid-balance`, doctor.token);
      assert.deepEqual([balance.events.length, balance.balance_ml, balance.shift_hours], [2, -150, 8]);
      assert.deepEqual(
        balance.days.map((d: { intake_ml: number; output_ml: number }) => [d.intake_ml, d.output_ml]),
        [[250, 400]],
      );

      const note = await ok(
        'POST',
        `/api/admissions/${admissionId}/nursing-notes`,
        nurse.token,
        { body: 'Slept well.' },
        201,
      );
      assert.deepEqual([note.written_by.name, note.written_by.role], ['Vera Vital', 'nurse']);
      const fix = await ok(
        'POST',
        `/api/admissions/${admissionId}/nursing-notes`,
        nurse.token,
        { body: 'Correction: woke at 03:00 in pain.', corrects: note.id },
        201,
      );
      const twice = await api('POST', `/api/admissions/${admissionId}/nursing-notes`, nurse.token, {
        body: 'Again',
        corrects: note.id,
      });
      assert.deepEqual([twice.status, twice.body.code], [409, 'already_corrected']);
      const { notes } = await ok('GET', `/api/admissions/${admissionId}/nursing-notes`, admin.token);
      assert.deepEqual(
        notes.map((n: { id: number; corrected_by: number | null }) => [n.id, n.corrected_by]),
        [
          [note.id, fix.id],
          [fix.id, null],
        ],
      );
    });

    it('answers every vitals route to each identity as its access says', async () => {
      const identities: Record<string, string | undefined> = {
        none: undefined,
        patient: patient.token,
        doctor: doctor.token,
        admin: admin.token,
        nurse: nurse.token,
      };
      const routes = vitalsRoutes(server.app);
      assert.equal(await assertRoutesAnswerByAccess(server, routes, identities), routes.length * 5);
    });
  });
}
