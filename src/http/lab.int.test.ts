import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { at, only, present } from '../testing/assert.ts';
import { PASSWORD, signIn, signUpAdmin, startTestServer, uniqueEmail, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { movableClock } from '../testing/scheduling-fakes.ts';
import { testDatabases } from '../testing/test-db.ts';
import { labRoutes } from './routes/lab.ts';
import { assertRoutesAnswerByAccess } from '../testing/route-access.ts';

/** Keys of an answer at any depth. */
const keysOf = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
};

interface Item {
  id: number;
  code: string;
  status: string;
  result: { observation_id: number; version: number; value: number | null } | null;
}

for (const target of testDatabases('one')) {
  describe(`lab orders and results over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let clock: ReturnType<typeof movableClock>;
    let fx: ReturnType<typeof clinicFixtures>;
    let admin: { token: string };
    let desk: { token: string };
    let labA: { token: string };
    let labB: { token: string };
    let doctor: Awaited<ReturnType<typeof fx.doctor>>;
    let patient: Awaited<ReturnType<typeof fx.patient>>;
    const tests: Record<string, number> = {};

    const api = (method: string, path: string, token: string | undefined, body?: unknown) =>
      server.api(method, path, { token, body });
    const ok = async (method: string, path: string, token: string, body?: unknown, status = 200) => {
      const res = await api(method, path, token, body);
      assert.equal(res.status, status, `${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const staff = async (path: string, name: string) => {
      const email = uniqueEmail(name.toLowerCase().replace(/\W/g, ''));
      await ok('POST', path, admin.token, { name, email, password: PASSWORD }, 201);
      return signIn(server, email);
    };
    const visit = (p = patient) => fx.appointment({ doctor, patientId: p.patientId, date: '2026-05-04' });
    const order = async (codes: string[], appointmentId?: number, token = doctor.token) =>
      ok(
        'POST',
        '/api/lab/orders',
        token,
        {
          appointment_id: appointmentId ?? (await visit()),
          test_ids: codes.map((c) => present(tests[c], c)),
          priority: 'urgent',
          note: 'Suspected diabetic ketoacidosis',
        },
        201,
      );
    const work = async (orderNumber: string) =>
      only(
        (await ok('GET', `/api/lab/worklist?order_number=${orderNumber}`, labA.token)).orders as { items: Item[] }[],
      );
    const itemOf = async (orderNumber: string, code: string) =>
      present(
        (await work(orderNumber)).items.find((i) => i.code === code),
        code,
      );

    before(async () => {
      clock = movableClock('2026-05-04T08:00:00Z');
      server = await startTestServer(target, { clock });
      fx = clinicFixtures(server);
      admin = await signUpAdmin(server);
      desk = await staff('/api/admin/receptionists', 'Rita Reception');
      labA = await staff('/api/admin/lab-technicians', 'Lee Lab');
      labB = await staff('/api/admin/lab-technicians', 'Lou Lab');
      doctor = await fx.doctor('Dr. Order');
      patient = await fx.patient('Lena Lab');
      await server.db.query(`update patients set gender = 'female', birthdate = '1980-05-01' where id = $1`, [
        patient.patientId,
      ]);
      for (const row of await server.db.query<{ id: number; code: string }>('select id, code from lab_tests'))
        tests[row.code] = row.id;
    });
    after(() => server.close());

    it('keeps lab technicians as receptionists are kept: listed, and deactivated out of the lab', async () => {
      const listed = await ok('GET', '/api/admin/lab-technicians?q=lee', admin.token);
      assert.deepEqual(
        listed.lab_technicians.map((s: { name: string; role: string }) => [s.name, s.role]),
        [['Lee Lab', 'lab']],
      );
      const gone = await staff('/api/admin/lab-technicians', 'Gus Gone');
      const goneId = only(
        (await ok('GET', '/api/admin/lab-technicians?q=gus', admin.token)).lab_technicians as { id: number }[],
      ).id;
      assert.deepEqual(await ok('DELETE', `/api/admin/lab-technicians/${goneId}`, admin.token), {
        id: goneId,
        active: false,
      });
      assert.equal((await api('GET', '/api/lab/worklist', gone.token)).status, 401);
      const receptionist = only(
        (await ok('GET', '/api/admin/receptionists?q=rita', admin.token)).receptionists as { id: number }[],
      );
      assert.equal((await api('DELETE', `/api/admin/lab-technicians/${receptionist.id}`, admin.token)).status, 404);
    });

    it('takes an order from visit to released results: reception sees its cost only, the lab no note or bill, a critical value acknowledged once of 20, a correction before release never shown in its old form', async () => {
      const placed = await order(['2823-3', '2345-7', 'IMG-XR-CHEST']);
      assert.match(placed.order_number, /^L20260504-\d{6}$/);
      assert.equal(placed.bill_ids.length, 3);

      const costs = await ok('GET', `/api/desk/lab-orders?patient_id=${patient.patientId}`, desk.token);
      const cost = only(costs.orders as { order_number: string; total: string }[]);
      assert.deepEqual([cost.order_number, cost.total], [placed.order_number, '54.00']);

      const waiting = await ok('GET', '/api/lab/worklist', labA.token);
      assert.ok(waiting.orders.some((o: { id: number }) => o.id === placed.id));
      const seenByLab = keysOf(waiting.orders).join(' ');
      assert.doesNotMatch(seenByLab, /note|diagnos|bill|price|total|cost/);

      const k = await itemOf(placed.order_number, '2823-3');
      const g = await itemOf(placed.order_number, '2345-7');
      const xray = await itemOf(placed.order_number, 'IMG-XR-CHEST');
      const early = await api('POST', `/api/lab/items/${k.id}/result`, labA.token, {
        type: 'quantity',
        value: 4,
        unit: 'mmol/L',
      });
      assert.deepEqual([early.status, early.body.code], [409, 'not_collected']);
      await ok('POST', `/api/lab/items/${k.id}/collect`, labA.token, { specimen_code: `S-${k.id}-1` });
      const twice = await api('POST', `/api/lab/items/${k.id}/collect`, labB.token, { specimen_code: `S-${k.id}-2` });
      assert.deepEqual([twice.status, twice.body.code], [409, 'already_collected']);
      await ok('POST', `/api/lab/items/${g.id}/collect`, labA.token, { specimen_code: `S-${g.id}-1` });
      const rejected = await ok('POST', `/api/lab/items/${g.id}/reject`, labA.token, { reason: 'haemolysed' });
      assert.equal(present(rejected.items.find((i: Item) => i.id === g.id)).status, 'rejected');
      await ok('POST', `/api/lab/items/${g.id}/collect`, labA.token, { specimen_code: `S-${g.id}-2` });

      const bad = async (body: unknown) => {
        const res = await api('POST', `/api/lab/items/${k.id}/result`, labA.token, body);
        assert.equal(res.status, 422, JSON.stringify(res.body));
        return res.body.errors;
      };
      assert.deepEqual(await bad({ type: 'quantity', value: 4, unit: 'furlongs' }), {
        unit: ['furlongs is not a UCUM unit'],
      });
      assert.deepEqual(await bad({ type: 'quantity', value: 4, unit: 'kg' }), {
        unit: ['kg cannot be converted to mmol/L, the unit of Potassium'],
      });
      assert.match(at((await bad({ type: 'quantity', value: 40, unit: 'mmol/L' })).value, 0), /outside what Potassium/);
      assert.deepEqual(await bad({ type: 'quantity' }), {
        value: ['is required for a quantity result'],
        unit: ['is required for a quantity result'],
      });

      const critical = await ok(
        'POST',
        `/api/lab/items/${k.id}/result`,
        labA.token,
        { type: 'quantity', value: 7, unit: 'mmol/L' },
        201,
      );
      assert.equal(critical.interpretation, 'HH');
      const glucose = await ok(
        'POST',
        `/api/lab/items/${g.id}/result`,
        labA.token,
        { type: 'quantity', value: 1.1, unit: 'g/L' },
        201,
      );
      assert.equal(glucose.interpretation, 'H');
      await ok(
        'POST',
        `/api/lab/items/${xray.id}/result`,
        labB.token,
        { type: 'text', text: 'No consolidation.' },
        201,
      );

      // Two lab users sign off at once: the database lets one through.
      const signOffs = await Promise.all(
        [labA, labB].map((who) => api('POST', `/api/lab/orders/${placed.id}/finalize`, who.token)),
      );
      assert.deepEqual(signOffs.map((r) => r.status).sort(), [200, 409]);

      const toReview = await ok('GET', '/api/doctor/results-to-review', doctor.token);
      const entry = present(toReview.results.find((r: { order: { id: number } }) => r.order.id === placed.id));
      assert.equal(entry.rank, 'critical');
      assert.equal(entry.order.note, 'Suspected diabetic ketoacidosis');
      const alert = only(entry.order.report.critical_alerts as { id: number; acknowledged_at: string | null }[]);
      assert.equal(alert.acknowledged_at, null);

      // Twenty acknowledgements at once are one.
      const acks = await Promise.all(
        Array.from({ length: 20 }, () => api('POST', `/api/lab/alerts/${alert.id}/acknowledge`, doctor.token)),
      );
      assert.deepEqual(
        acks.map((r) => r.status),
        Array(20).fill(200),
      );
      assert.equal(acks.filter((r) => r.body.acknowledged).length, 1);

      assert.deepEqual((await ok('GET', '/api/patient/lab-results', patient.token)).results, []);

      // The lab corrects the potassium before release; a stale correction is refused.
      const corrected = await ok('POST', `/api/lab/results/${critical.observation_id}/correct`, labA.token, {
        type: 'quantity',
        value: 5.4,
        unit: 'mmol/L',
        version: 1,
        reason: 'Recalibrated analyser',
      });
      assert.deepEqual([corrected.version, corrected.interpretation], [2, 'H']);
      const stale = await api('POST', `/api/lab/results/${critical.observation_id}/correct`, labB.token, {
        type: 'quantity',
        value: 5,
        unit: 'mmol/L',
        version: 1,
        reason: 'Again',
      });
      assert.deepEqual([stale.status, stale.body.code], [409, 'result_changed']);

      const reviewed = await ok('POST', `/api/lab/orders/${placed.id}/review`, doctor.token, {
        comment: 'Repeat in a week',
      });
      assert.equal(reviewed.report.status, 'corrected');
      assert.deepEqual(
        reviewed.report.reviews.map((r: { comment: string }) => r.comment),
        ['Repeat in a week'],
      );
      const potassium = present(reviewed.items.find((i: { code: string }) => i.code === '2823-3')).result;
      assert.deepEqual(
        potassium.versions.map((v: { version: number; value: number; reason: string | null; recorded_by: string }) => [
          v.version,
          v.value,
          v.reason,
          v.recorded_by,
        ]),
        [
          [1, 7, null, 'Lee Lab'],
          [2, 5.4, 'Recalibrated analyser', 'Lee Lab'],
        ],
      );
      assert.equal(
        (await ok('GET', '/api/doctor/results-to-review', doctor.token)).results.some(
          (r: { order: { id: number } }) => r.order.id === placed.id,
        ),
        false,
      );

      const released = await ok('POST', `/api/lab/orders/${placed.id}/release`, doctor.token);
      assert.equal(released.report.visible_to_patient, true);
      const mine = await ok('GET', '/api/patient/lab-results', patient.token);
      assert.deepEqual(
        mine.results.map((r: { name: string; value: number | null; corrected: boolean }) => [
          r.name,
          r.value,
          r.corrected,
        ]),
        [
          ['Potassium', 5.4, true],
          ['Glucose', 110, false],
          ['X-ray, chest (2 views)', null, false],
        ],
      );
      assert.equal(mine.results[1].range, 'Usual range 70 to 99 mg/dL');
      assert.doesNotMatch(JSON.stringify(mine), /"value":7\b|versions/);

      const history = await ok('GET', `/api/doctor/patients/${patient.patientId}/lab-results`, doctor.token);
      assert.ok(history.orders.some((o: { id: number }) => o.id === placed.id));
      assert.equal((await ok('GET', `/api/lab/orders/${placed.id}`, doctor.token)).order_number, placed.order_number);

      const deskAfter = await ok('GET', `/api/desk/lab-orders?patient_id=${patient.patientId}`, desk.token);
      assert.doesNotMatch(keysOf(deskAfter.orders).join(' '), /result|value|interpretation|unit|range|note/);
    });

    it('cancels an order before collection, voiding its bills, and refuses a result for it (409)', async () => {
      const placed = await order(['2823-3']);
      const item = await itemOf(placed.order_number, '2823-3');
      const cancelled = await ok('POST', `/api/lab/orders/${placed.id}/cancel`, doctor.token);
      assert.equal(cancelled.status, 'cancelled');
      const res = await api('POST', `/api/lab/items/${item.id}/result`, labA.token, {
        type: 'quantity',
        value: 4,
        unit: 'mmol/L',
      });
      assert.deepEqual([res.status, res.body.code], [409, 'order_cancelled']);
      const costs = await ok('GET', `/api/desk/lab-orders?patient_id=${patient.patientId}`, desk.token);
      const row = present(costs.orders.find((o: { id: number }) => o.id === placed.id));
      assert.deepEqual([row.cancelled, row.total, row.tests[0].voided], [true, '0.00', true]);
    });

    it("answers a doctor outside the patient's care team 404, as for what does not exist", async () => {
      const placed = await order(['2345-7']);
      const stranger = await fx.doctor('Dr. Stranger');
      for (const [method, path] of [
        ['GET', `/api/lab/orders/${placed.id}`],
        ['GET', `/api/doctor/patients/${patient.patientId}/lab-results`],
        ['POST', `/api/lab/orders/${placed.id}/cancel`],
        ['POST', `/api/lab/orders/${placed.id}/release`],
      ] as const)
        assert.equal((await api(method, path, stranger.token)).status, 404, `${method} ${path}`);
      const theirs = await api('POST', '/api/lab/orders', stranger.token, {
        appointment_id: await visit(),
        test_ids: [tests['2345-7']],
      });
      assert.equal(theirs.status, 404);
    });

    it('attaches an unmatched result to an order by its number, or rejects it', async () => {
      const placed = await order(['2345-7']);
      const g = await itemOf(placed.order_number, '2345-7');
      await ok('POST', `/api/lab/items/${g.id}/collect`, labA.token, { specimen_code: `S-${g.id}-u` });
      const rows = await server.db.query<{ id: number }>(
        `insert into lab_unmatched_results (source, message_id, order_number, code_system, code, value_type,
           value_quantity, value_unit, effective_at, received_at)
         values ('analyser', 'm1', 'L0000', 'loinc', '2345-7', 'quantity', 5.0, 'mmol/L', $1, $1),
                ('analyser', 'm2', 'L0000', 'loinc', '2345-7', 'quantity', 100, 'mg/dL', $1, $1)
         returning id`,
        ['2026-05-04T09:00:00Z'],
      );
      const [wrongUnit, good] = rows.map((r) => r.id);
      const listed = await ok('GET', '/api/lab/unmatched', labA.token);
      assert.deepEqual(
        listed.results.map((r: { id: number }) => r.id),
        [wrongUnit, good],
      );
      const unknown = await api('POST', `/api/lab/unmatched/${good}/attach`, labA.token, { order_number: 'L1' });
      assert.deepEqual(Object.keys(unknown.body.errors), ['order_number']);
      const attached = await ok(
        'POST',
        `/api/lab/unmatched/${good}/attach`,
        labA.token,
        { order_number: placed.order_number },
        201,
      );
      assert.equal(attached.interpretation, 'H');
      assert.equal((await itemOf(placed.order_number, '2345-7')).result?.value, 100);
      assert.equal(
        (await api('POST', `/api/lab/unmatched/${wrongUnit}/reject`, labA.token, { note: 'Unknown' })).status,
        204,
      );
      assert.deepEqual((await ok('GET', '/api/lab/unmatched', labA.token)).results, []);
    });

    it('keeps the catalogue: doctors read it, admins add a test (its unit checked) and change one', async () => {
      const listed = await ok('GET', '/api/lab/tests?q=potassium', doctor.token);
      assert.ok(listed.tests.some((t: { code: string; unit: string }) => t.code === '2823-3' && t.unit === 'mmol/L'));
      const base = {
        code_system: 'local',
        code: 'LOC-LACT',
        name: 'Lactate',
        category: 'laboratory',
        specimen_type: 'plasma',
        result_type: 'quantity',
        price: '12.50',
        turnaround_minutes: 60,
      };
      const refused = await api('POST', '/api/admin/lab/tests', admin.token, {
        ...base,
        unit: 'furlongs',
        range_low: 2,
        range_high: 1,
      });
      assert.deepEqual(refused.body.errors, {
        unit: ['furlongs is not a UCUM unit'],
        range_high: ['must be above its low end'],
      });
      const made = await ok(
        'POST',
        '/api/admin/lab/tests',
        admin.token,
        { ...base, unit: 'mmol/L', range_low: 0.5, range_high: 2.2, critical_high: 4 },
        201,
      );
      assert.deepEqual([made.price, made.ranges[0].high, made.critical_limits[0].high], ['12.50', 2.2, 4]);
      assert.equal((await api('POST', '/api/admin/lab/tests', admin.token, { ...base, unit: 'mmol/L' })).status, 409);
      const changed = await ok('PUT', `/api/admin/lab/tests/${made.id}`, admin.token, {
        name: 'Lactate (venous)',
        price: '14',
        turnaround_minutes: 45,
        active: false,
      });
      assert.deepEqual([changed.name, changed.price, changed.active], ['Lactate (venous)', '14.00', false]);
    });

    it("edits a test's ranges and critical limits as a new version: results already read keep their reading", async () => {
      const made = await ok(
        'POST',
        '/api/admin/lab/tests',
        admin.token,
        {
          code_system: 'local',
          code: 'LOC-AMM',
          name: 'Ammonia',
          category: 'laboratory',
          specimen_type: 'plasma',
          result_type: 'quantity',
          unit: 'umol/L',
          range_low: 10,
          range_high: 40,
          price: '9',
          turnaround_minutes: 60,
        },
        201,
      );
      tests['LOC-AMM'] = made.id;
      const resulted = async () => {
        const placed = await order(['LOC-AMM']);
        const item = await itemOf(placed.order_number, 'LOC-AMM');
        await ok('POST', `/api/lab/items/${item.id}/collect`, labA.token, { specimen_code: `S-${item.id}-amm` });
        const r = await ok(
          'POST',
          `/api/lab/items/${item.id}/result`,
          labA.token,
          { type: 'quantity', value: 45, unit: 'umol/L' },
          201,
        );
        return { placed, interpretation: r.interpretation };
      };
      const first = await resulted();
      assert.equal(first.interpretation, 'H');

      const keep = { name: 'Ammonia', price: '9', turnaround_minutes: 60, active: true };
      const refused = await api('PUT', `/api/admin/lab/tests/${made.id}`, admin.token, {
        ...keep,
        physical_low: 5,
        physical_high: 1,
        ranges: [
          { sex: 'any', age_from_days: 0, age_to_days: 6575, low: 20, high: 60 },
          { sex: 'any', age_from_days: 6000, low: 10, high: 50 },
        ],
        critical_limits: [{ sex: 'male', low: 9, high: 3 }, { sex: 'female' }],
      });
      assert.equal(refused.status, 422);
      assert.deepEqual(refused.body.errors, {
        physical_high: ['must be above its low end'],
        ranges: ['ranges[0] and ranges[1] overlap in age for any'],
        'critical_limits[0].high': ['must be above its low end'],
        'critical_limits[1].low': ['give a low end, a high end or both'],
      });
      const notAList = await api('PUT', `/api/admin/lab/tests/${made.id}`, admin.token, { ...keep, ranges: 'wide' });
      assert.deepEqual(notAList.body.errors, { ranges: ['must be a list'] });

      const edited = await ok('PUT', `/api/admin/lab/tests/${made.id}`, admin.token, {
        ...keep,
        row_version: made.row_version,
        physical_low: 0,
        physical_high: 2000,
        ranges: [
          { sex: 'male', age_from_days: 6575, low: 15, high: 50 },
          { sex: 'female', age_from_days: 6575, low: 10, high: 47 },
        ],
        critical_limits: [{ sex: 'any', high: 200 }],
      });
      assert.equal(edited.row_version, made.row_version + 1);
      assert.deepEqual([edited.physical_low, edited.physical_high], [0, 2000]);
      assert.deepEqual(
        edited.ranges.map((b: { sex: string; low: number; high: number }) => [b.sex, b.low, b.high]),
        [
          ['male', 15, 50],
          ['female', 10, 47],
        ],
      );
      assert.deepEqual(edited.critical_limits, [
        { sex: 'any', age_from_days: 0, age_to_days: null, low: null, high: 200 },
      ]);
      const stale = await api('PUT', `/api/admin/lab/tests/${made.id}`, admin.token, {
        ...keep,
        row_version: made.row_version,
      });
      assert.deepEqual([stale.status, stale.body.code], [409, 'test_changed']);

      // The value read high under 10–40 stays high against that range; the same value now reads normal.
      const old = present((await ok('GET', `/api/lab/orders/${first.placed.id}`, doctor.token)).items[0].result);
      assert.deepEqual([old.interpretation, old.range], ['H', { low: 10, high: 40 }]);
      assert.equal((await resulted()).interpretation, 'N');

      const [audit] = await server.db.query<{ details: { row_version: number; limits_before: unknown } }>(
        `select details from audit_log where entity = 'lab_test' and entity_id = $1 and action = 'update'
         order by id desc limit 1`,
        [made.id],
      );
      assert.equal(present(audit).details.row_version, made.row_version + 1);
      assert.deepEqual(present(audit).details.limits_before, {
        physical: { low: null, high: null },
        ranges: [{ sex: 'any', age_from_days: 0, age_to_days: null, low: 10, high: 40 }],
        critical_limits: [],
      });

      const text = only(
        (await ok('GET', '/api/lab/tests?q=IMG-XR-CHEST', admin.token)).tests as { id: number; name: string }[],
      );
      const onText = await api('PUT', `/api/admin/lab/tests/${text.id}`, admin.token, {
        name: text.name,
        price: '30',
        turnaround_minutes: 60,
        active: true,
        ranges: [{ sex: 'any', low: 1 }],
      });
      assert.deepEqual(onText.body.errors, { ranges: ['only a test answered by a quantity has limits'] });
    });

    it('answers every lab route to each identity as its access says', async () => {
      const identities: Record<string, string | undefined> = {
        none: undefined,
        patient: patient.token,
        doctor: doctor.token,
        reception: desk.token,
        lab: labA.token,
        admin: admin.token,
      };
      const routes = labRoutes(server.app);
      assert.equal(await assertRoutesAnswerByAccess(server, routes, identities), routes.length * 6);
    });
  });
}
