import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { at as item, only } from '../testing/assert.ts';
import { medicinesClinic } from '../testing/medicines-fixtures.ts';
import type { clinicFixtures } from '../testing/records-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';
import { medicineRoutes } from './routes/medicines.ts';
import { assertRoutesAnswerByAccess } from '../testing/route-access.ts';

interface DoseRow {
  id: number;
  due_at: string | null;
  status: string;
  late: boolean;
}

for (const target of testDatabases('one')) {
  describe(`medicines over HTTP on ${target.name}`, () => {
    let c: Awaited<ReturnType<typeof medicinesClinic>>;
    let patient: Awaited<ReturnType<ReturnType<typeof clinicFixtures>['patient']>>;

    before(async () => {
      c = await medicinesClinic(target);
      patient = await c.fx.patient('Alma Allergic');
    });
    after(() => c.server.close());

    it('keeps the formulary: a starter list of about 50, an admin adds one, an unknown unit or route is a 422, a second of the same a 409', async () => {
      const listed = await c.ok('GET', '/api/formulary?per_page=200', c.doctor.token);
      assert.ok(listed.total >= 50, `${listed.total} medicines`);
      const body = {
        generic_name: 'Cetirizine',
        form: 'tablet',
        strength: '10 mg',
        routes: ['oral'],
        dose_unit: 'mg',
        price: '0.20',
      };
      const made = await c.ok('POST', '/api/admin/formulary', c.admin.token, body, 201);
      assert.deepEqual([made.label, made.price_cents], ['Cetirizine 10 mg tablet', 20]);
      for (const [field, bad] of [
        ['routes', { routes: ['chewed'] }],
        ['dose_unit', { dose_unit: 'mgg' }],
      ] as const) {
        const refused = await c.api('POST', '/api/admin/formulary', c.admin.token, {
          ...body,
          strength: '5 mg',
          ...bad,
        });
        assert.equal(refused.status, 422);
        assert.ok(refused.body.errors[field], JSON.stringify(refused.body));
      }
      const twice = await c.api('POST', '/api/admin/formulary', c.admin.token, body);
      assert.deepEqual([twice.status, twice.body.code], [409, 'medicine_exists']);
      const off = await c.ok('PUT', `/api/admin/formulary/${made.id}`, c.admin.token, { ...body, active: false });
      assert.equal(off.active, false);
    });

    it('tells "not asked" from "no known allergies", refuses that statement beside an allergy, and keeps allergies to the care team', async () => {
      const visit = await c.fx.appointment({ doctor: c.doctor, patientId: patient.patientId, date: '2026-05-04' });
      assert.ok(visit);
      const path = `/api/patients/${patient.patientId}/allergies`;
      assert.equal((await c.ok('GET', path, c.doctor.token)).summary, 'Allergies not recorded');
      await c.ok('POST', path, c.doctor.token, { no_known_allergies: true }, 201);
      assert.equal((await c.ok('GET', path, c.doctor.token)).statement, 'none_known');
      await c.ok(
        'POST',
        path,
        c.doctor.token,
        { substance: 'Penicillin', reaction: 'anaphylaxis', severity: 'severe' },
        201,
      );
      const now = await c.ok('GET', path, c.doctor.token);
      assert.equal(now.summary, 'Allergies: Penicillin (severe: anaphylaxis)');
      const none = await c.api('POST', path, c.doctor.token, { no_known_allergies: true });
      assert.deepEqual([none.status, none.body.code], [409, 'allergies_recorded']);
      const stranger = await c.fx.doctor('Dr. Stranger');
      assert.equal((await c.api('GET', path, stranger.token)).status, 404);
    });

    it('refuses prescribing into an allergy with a 409 naming it, keeps the override with its reason, and shows the prescription to the patient', async () => {
      const visit = await c.fx.appointment({ doctor: c.doctor, patientId: patient.patientId, date: '2026-05-04' });
      const body = {
        appointment_id: visit,
        medicine_id: c.medicine('Amoxicillin capsule'),
        dose: 0.5,
        dose_unit: 'g',
        route: 'oral',
        frequency: 'times_a_day',
        times_a_day: 3,
        duration_days: 7,
        instructions: 'After meals',
      };
      const refused = await c.api('POST', '/api/medication-orders', c.doctor.token, body);
      assert.deepEqual([refused.status, refused.body.code], [409, 'allergy_conflict']);
      assert.match(refused.body.message, /Penicillin \(severe: anaphylaxis\)/);
      const unit = await c.api('POST', '/api/medication-orders', c.doctor.token, { ...body, dose_unit: 'furlong' });
      assert.equal(unit.status, 422);
      assert.ok(unit.body.errors.dose_unit);
      const route = await c.api('POST', '/api/medication-orders', c.doctor.token, { ...body, route: 'iv' });
      assert.equal(route.status, 422);
      assert.ok(route.body.errors.route);
      const given = await c.ok(
        'POST',
        '/api/medication-orders',
        c.doctor.token,
        { ...body, allergy_override_reason: 'Tolerated amoxicillin in 2024; penicillin label doubtful' },
        201,
      );
      assert.deepEqual(given.allergy_override, {
        reason: 'Tolerated amoxicillin in 2024; penicillin label doubtful',
        allergies: ['Penicillin (severe: anaphylaxis)'],
      });
      assert.equal(given.dose, 500);
      assert.equal(given.words, 'Amoxicillin 500 mg capsule, 500 mg, oral, 3 times a day, for 7 days. After meals');
      const audit = await c.server.db.query<{ details: { allergy_override: { reason: string } } }>(
        `select details from audit_log where entity = 'medication_request' and entity_id = $1`,
        [String(given.id)],
      );
      assert.match(only(audit).details.allergy_override.reason, /Tolerated/);
      const mine = await c.ok('GET', '/api/patient/prescriptions', patient.token);
      assert.deepEqual(
        mine.orders.map((o: { id: number }) => o.id),
        [given.id],
      );
      assert.equal(only(mine.orders as { allergy_override: unknown }[]).allergy_override, null);
      const own = await c.ok('GET', `/api/medication-orders/${given.id}`, patient.token);
      assert.equal(own.order.allergy_override, null);
      assert.ok((await c.ok('GET', `/api/medication-orders/${given.id}`, c.doctor.token)).order.allergy_override);
      const printed = await c.ok('GET', `/api/medication-orders/${given.id}/printout`, patient.token);
      assert.equal(printed.order.allergy_override, null);
      assert.deepEqual([printed.date, printed.order.doctor.name], ['2026-05-04', 'Dr. Meds']);
      const active = await c.ok('GET', `/api/patients/${patient.patientId}/medicines`, c.doctor.token);
      assert.equal(active.total, 1);
      const other = await c.fx.patient('Otto Other');
      assert.equal((await c.api('GET', `/api/medication-orders/${given.id}`, other.token)).status, 404);
    });

    it('schedules an inpatient order, records doses given and held, shows a late dose on the MAR and the bed board, and cancels future doses on discontinuing', async () => {
      const inpatient = await c.fx.patient('Ines Inpatient');
      const admission = await c.admit(inpatient.patientId);
      const order = await c.ok(
        'POST',
        '/api/medication-orders',
        c.doctor.token,
        {
          admission_id: admission,
          medicine_id: c.medicine('Ceftriaxone injection'),
          dose: 1,
          dose_unit: 'g',
          route: 'iv',
          frequency: 'every_hours',
          every_hours: 8,
          duration_days: 2,
          starts_at: '2026-05-04T06:00:00Z',
          continue_on_discharge: false,
        },
        201,
      );
      const doses = (await c.ok('GET', `/api/medication-orders/${order.id}`, c.doctor.token)).doses as DoseRow[];
      assert.deepEqual(
        doses.map((d) => d.due_at),
        [
          '2026-05-04T06:00:00.000Z',
          '2026-05-04T14:00:00.000Z',
          '2026-05-04T22:00:00.000Z',
          '2026-05-05T06:00:00.000Z',
          '2026-05-05T14:00:00.000Z',
          '2026-05-05T22:00:00.000Z',
        ],
      );
      const [first, second, third] = [item(doses, 0), item(doses, 1), item(doses, 2)];
      const future = await c.api('POST', `/api/medication-doses/${first.id}/record`, c.doctor.token, {
        outcome: 'given',
        dose: 1000,
        given_at: '2026-05-04T06:30:00Z',
      });
      assert.equal(future.status, 422);
      assert.ok(future.body.errors.given_at);
      const given = await c.ok('POST', `/api/medication-doses/${first.id}/record`, c.doctor.token, {
        outcome: 'given',
        dose: 1,
        dose_unit: 'g',
      });
      assert.deepEqual([given.status, given.dose, given.dose_unit], ['given', 1000, 'mg']);
      const noReason = await c.api('POST', `/api/medication-doses/${second.id}/record`, c.doctor.token, {
        outcome: 'held',
      });
      assert.equal(noReason.status, 422);
      assert.ok(noReason.body.errors.reason);
      await c.ok('POST', `/api/medication-doses/${second.id}/record`, c.doctor.token, {
        outcome: 'held',
        reason: 'Nil by mouth before theatre',
      });

      await c.at('2026-05-04T23:30:00Z');
      const mar = await c.ok('GET', `/api/wards/${c.wardId}/mar?date=2026-05-05`, c.doctor.token);
      const row = only(
        (mar.patients as { admission_id: number; late_doses: number; orders: { doses: DoseRow[] }[] }[]).filter(
          (p) => p.admission_id === admission,
        ),
      );
      assert.equal(row.late_doses, 1);
      assert.ok(only(row.orders).doses.some((d) => d.id === third.id && d.late));
      const board = await c.ok('GET', `/api/bed-board?department_id=${c.wardId}`, c.doctor.token);
      const beds = board.wards.flatMap((w: { rooms: { beds: unknown[] }[] }) => w.rooms.flatMap((r) => r.beds));
      assert.ok(
        beds.some(
          (b: { occupant?: { admission_id: number; late_doses: number } | null }) => b.occupant?.late_doses === 1,
        ),
        JSON.stringify(beds),
      );

      const stopped = await c.ok('POST', `/api/medication-orders/${order.id}/discontinue`, c.doctor.token, {
        reason: 'Cultures negative',
      });
      assert.equal(stopped.cancelled_doses, 3);
      const after = await c.api('POST', `/api/medication-doses/${third.id}/record`, c.doctor.token, {
        outcome: 'given',
        dose: 1000,
      });
      assert.deepEqual([after.status, after.body.code], [409, 'order_discontinued']);
      await c.at('2026-05-04T06:00:00Z');
    });

    it('gives an as-needed medicine within its minimum interval and daily maximum, naming the rule broken', async () => {
      const inpatient = await c.fx.patient('Pam Prn');
      const admission = await c.admit(inpatient.patientId);
      const order = await c.ok(
        'POST',
        '/api/medication-orders',
        c.doctor.token,
        {
          admission_id: admission,
          medicine_id: c.medicine('Paracetamol tablet'),
          dose: 1,
          dose_unit: 'g',
          route: 'oral',
          frequency: 'as_needed',
          min_interval_hours: 4,
          max_per_day: 4,
          duration_days: 3,
        },
        201,
      );
      const path = `/api/medication-orders/${order.id}/doses`;
      await c.ok('POST', path, c.doctor.token, { dose: 1000, dose_unit: 'mg', given_at: '2026-05-04T03:00:00Z' }, 201);
      const soon = await c.api('POST', path, c.doctor.token, { dose: 1000, dose_unit: 'mg' });
      assert.deepEqual([soon.status, soon.body.code], [409, 'min_interval']);
    });

    it('stops as-needed doses past the daily maximum with a 409 naming the rule', async () => {
      const inpatient = await c.fx.patient('Max Daily');
      const admission = await c.admit(inpatient.patientId);
      const order = await c.ok(
        'POST',
        '/api/medication-orders',
        c.doctor.token,
        {
          admission_id: admission,
          medicine_id: c.medicine('Paracetamol tablet'),
          dose: 500,
          dose_unit: 'mg',
          route: 'oral',
          frequency: 'as_needed',
          min_interval_hours: 1,
          max_per_day: 2,
          duration_days: 3,
        },
        201,
      );
      const path = `/api/medication-orders/${order.id}/doses`;
      await c.ok('POST', path, c.nurse.token, { dose: 500, given_at: '2026-05-04T03:00:00Z' }, 201);
      await c.ok('POST', path, c.nurse.token, { dose: 500, given_at: '2026-05-04T04:30:00Z' }, 201);
      const third = await c.api('POST', path, c.nurse.token, { dose: 500 });
      assert.deepEqual([third.status, third.body.code], [409, 'daily_maximum']);
      assert.match(third.body.message, /2/);
    });

    it("lets the ward's nurse keep allergies and record doses of the patients in its beds, and no one else's; nurses never prescribe", async () => {
      const inpatient = await c.fx.patient('Wanda Ward');
      const admission = await c.admit(inpatient.patientId);
      const path = `/api/patients/${inpatient.patientId}/allergies`;
      const latex = await c.ok('POST', path, c.nurse.token, { substance: 'Latex', reaction: 'rash' }, 201);
      assert.equal(latex.recorded_by, 'Nora Ward');
      assert.equal((await c.ok('GET', path, c.nurse.token)).summary, 'Allergies: Latex (rash)');
      const wrong = await c.ok('PUT', `/api/allergies/${latex.id}/status`, c.nurse.token, {
        status: 'entered-in-error',
      });
      assert.equal(wrong.status, 'entered-in-error');
      assert.equal((await c.ok('GET', path, c.doctor.token)).statement, 'not_asked');
      const changes = await c.server.db.query<{ details: { from: string; to: string } }>(
        `select details from audit_log where entity = 'allergy' and action = 'update' and entity_id = $1`,
        [String(latex.id)],
      );
      assert.deepEqual(only(changes).details, { from: 'active', to: 'entered-in-error' });
      await c.ok('POST', path, c.nurse.token, { no_known_allergies: true }, 201);
      const again = await c.api('PUT', `/api/allergies/${latex.id}/status`, c.nurse.token, { status: 'active' });
      assert.equal(again.status, 200);
      const statement = await c.ok('GET', path, c.nurse.token);
      assert.equal(statement.statement, 'allergies');
      assert.equal(
        statement.allergies.filter((a: { kind: string; status: string }) => a.status === 'active').length,
        1,
      );

      const order = {
        admission_id: admission,
        medicine_id: c.medicine('Omeprazole capsule'),
        dose: 20,
        dose_unit: 'mg',
        route: 'oral',
        frequency: 'at_times',
        at_times: ['08:00', '20:00'],
        duration_days: 1,
        starts_at: '2026-05-04T00:00:00Z',
      };
      assert.equal((await c.api('POST', '/api/medication-orders', c.nurse.token, order)).status, 403);
      const made = await c.ok('POST', '/api/medication-orders', c.doctor.token, order, 201);
      const doses = (await c.ok('GET', `/api/medication-orders/${made.id}`, c.nurse.token)).doses as DoseRow[];
      const [first, second] = [item(doses, 0), item(doses, 1)];
      const elsewhere = c.nurseElsewhere.token;
      for (const [method, url, body] of [
        ['GET', path, undefined],
        ['POST', path, { substance: 'Dust' }],
        ['PUT', `/api/allergies/${latex.id}/status`, { status: 'resolved' }],
        ['GET', `/api/medication-orders/${made.id}`, undefined],
        ['POST', `/api/medication-doses/${first.id}/record`, { outcome: 'given', dose: 20 }],
        ['GET', `/api/wards/${c.wardId}/mar`, undefined],
      ] as const)
        assert.equal((await c.api(method, url, elsewhere, body)).status, 404, `${method} ${url}`);
      const given = await c.ok('POST', `/api/medication-doses/${first.id}/record`, c.nurse.token, {
        outcome: 'given',
        dose: 20,
        given_at: '2026-05-04T05:50:00Z',
      });
      assert.equal(given.status, 'given');
      const held = await c.ok('POST', `/api/medication-doses/${second.id}/record`, c.nurse.token, {
        outcome: 'held',
        reason: 'Vomiting',
      });
      assert.deepEqual([held.status, held.reason], ['held', 'Vomiting']);
      assert.equal(
        (await c.api('POST', `/api/medication-orders/${made.id}/discontinue`, c.nurse.token, { reason: 'x' })).status,
        403,
      );
      const mar = await c.ok('GET', `/api/wards/${c.wardId}/mar`, c.nurse.token);
      assert.ok(mar.patients.some((p: { admission_id: number }) => p.admission_id === admission));
      const outpatient = await c.fx.patient('Otto Outpatient');
      await c.fx.appointment({ doctor: c.doctor, patientId: outpatient.patientId, date: '2026-05-04' });
      assert.equal((await c.api('GET', `/api/patients/${outpatient.patientId}/allergies`, c.nurse.token)).status, 404);
    });

    it('lists on the discharge summary the medicines marked to continue, and not those stopped or left on the ward', async () => {
      const inpatient = await c.fx.patient('Doris Discharge');
      const admission = await c.admit(inpatient.patientId);
      const order = (medicine: string, continued: boolean) =>
        c.ok(
          'POST',
          '/api/medication-orders',
          c.doctor.token,
          {
            admission_id: admission,
            medicine_id: c.medicine(medicine),
            dose: 20,
            dose_unit: 'mg',
            route: 'oral',
            frequency: 'times_a_day',
            times_a_day: 1,
            duration_days: 5,
            continue_on_discharge: continued,
          },
          201,
        );
      const kept = await order('Omeprazole capsule', true);
      await order('Atorvastatin tablet', false);
      const stopped = await order('Atorvastatin tablet', true);
      await c.ok('POST', `/api/medication-orders/${stopped.id}/discontinue`, c.doctor.token, { reason: 'Myalgia' });
      await c.ok('POST', `/api/admissions/${admission}/discharge-order`, c.doctor.token, {
        diagnosis: 'Gastritis',
        treatment: 'Proton pump inhibitor',
      });
      const summary = await c.ok('GET', `/api/admissions/${admission}/discharge-summary`, inpatient.token);
      assert.deepEqual(summary.medicines_to_continue, [
        { order_id: kept.id, medicine: 'Omeprazole 20 mg capsule', words: kept.words },
      ]);
    });

    it('answers every medicines route to each identity as its access says', async () => {
      const identities: Record<string, string | undefined> = {
        none: undefined,
        patient: patient.token,
        doctor: c.doctor.token,
        nurse: c.nurse.token,
        nurse_elsewhere: c.nurseElsewhere.token,
        reception: c.desk.token,
        admin: c.admin.token,
      };
      const routes = medicineRoutes(c.server.app);
      assert.equal(
        await assertRoutesAnswerByAccess(c.server, routes, identities, (who) =>
          who === 'nurse_elsewhere' ? 'nurse' : who,
        ),
        routes.length * 7,
      );
    });
  });
}

for (const target of testDatabases('both')) {
  describe(`a dose given exactly once on ${target.name}`, () => {
    let c: Awaited<ReturnType<typeof medicinesClinic>>;
    before(async () => {
      c = await medicinesClinic(target);
    });
    after(() => c.server.close());

    it('lands one of 50 simultaneous "given" on one dose and answers the other 49 with 409', async () => {
      const inpatient = await c.fx.patient('Rae Race');
      const admission = await c.admit(inpatient.patientId);
      const order = await c.ok(
        'POST',
        '/api/medication-orders',
        c.doctor.token,
        {
          admission_id: admission,
          medicine_id: c.medicine('Omeprazole capsule'),
          dose: 20,
          dose_unit: 'mg',
          route: 'oral',
          frequency: 'at_times',
          at_times: ['08:00'],
          duration_days: 1,
        },
        201,
      );
      const dose = item(
        (await c.ok('GET', `/api/medication-orders/${order.id}`, c.doctor.token)).doses as DoseRow[],
        0,
      );
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          c.api('POST', `/api/medication-doses/${dose.id}/record`, c.doctor.token, { outcome: 'given', dose: 20 }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 409).length, 49);
      assert.ok(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'dose_already_recorded'));
      const rows = await c.server.db.query(`select 1 from medication_doses where id = $1 and status = 'given'`, [
        dose.id,
      ]);
      assert.equal(rows.length, 1);
    });
  });
}

for (const target of testDatabases('one')) {
  describe(`medicines billed on ${target.name} with BILL_MEDICINES on`, () => {
    let c: Awaited<ReturnType<typeof medicinesClinic>>;
    before(async () => {
      c = await medicinesClinic(target, true);
    });
    after(() => c.server.close());

    it('adds a bill line at the formulary price for each dose given, and none for a dose held', async () => {
      const inpatient = await c.fx.patient('Bill Doses');
      const admission = await c.admit(inpatient.patientId);
      const order = await c.ok(
        'POST',
        '/api/medication-orders',
        c.doctor.token,
        {
          admission_id: admission,
          medicine_id: c.medicine('Omeprazole capsule'),
          dose: 20,
          dose_unit: 'mg',
          route: 'oral',
          frequency: 'at_times',
          at_times: ['08:00', '20:00'],
          duration_days: 1,
          starts_at: '2026-05-04T00:00:00Z',
        },
        201,
      );
      const doses = (await c.ok('GET', `/api/medication-orders/${order.id}`, c.doctor.token)).doses as DoseRow[];
      await c.ok('POST', `/api/medication-doses/${item(doses, 0).id}/record`, c.nurse.token, {
        outcome: 'given',
        dose: 20,
      });
      await c.ok('POST', `/api/medication-doses/${item(doses, 1).id}/record`, c.nurse.token, {
        outcome: 'held',
        reason: 'Asleep',
      });
      const bills = await c.server.db.query<{ amount_cents: number; service_details: string }>(
        `select amount_cents, service_details from billings where patient_id = $1 and service_details like 'Medicine:%'`,
        [inpatient.patientId],
      );
      const bill = only(bills);
      assert.equal(Number(bill.amount_cents), 15);
      assert.match(bill.service_details, /Omeprazole 20 mg capsule/);
      const billed = await c.server.db.query('select 1 from medication_doses where id = $1 and bill_id is not null', [
        item(doses, 0).id,
      ]);
      assert.equal(billed.length, 1);
    });
  });
}
