import { after, before, describe, it as itOnEveryEngine } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { only } from '../testing/assert.ts';
import { CENSUS_MONTH } from '../testing/census-month.ts';
import { PASSWORD, signIn, signUpAdmin, startTestServer, uniqueEmail, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { movableClock } from '../testing/scheduling-fakes.ts';
import { onOneDatabase, testDatabases } from '../testing/test-db.ts';
import { inpatientRoutes } from './routes/inpatient.ts';
import { recordRoutes } from './routes/records.ts';
import { careRoutes } from './routes/care.ts';
import { labRoutes } from './routes/lab.ts';
import { assertRoutesAnswerByAccess } from '../testing/route-access.ts';

/** Any key of an answer that carries clinical content: reception must never receive one. */
const CLINICAL_KEY = /reason|diagnos|treatment|medication|instructions|follow_up|summary/i;
const clinicalKeys = (value: unknown, path = ''): string[] => {
  if (Array.isArray(value)) return value.flatMap((item, i) => clinicalKeys(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(CLINICAL_KEY.test(key) ? [`${path}.${key}`] : []),
    ...clinicalKeys(inner, `${path}.${key}`),
  ]);
};

for (const target of testDatabases('both')) {
  describe(`inpatient care over HTTP on ${target.name}`, () => {
    // `it` registers a test on the database testDatabases('one') gives alone: above the database, the engines do not
    // differ. The races (50 admissions to one bed, two desks admitting one patient, two weekly billing runs at once),
    // settled by the database's locks and constraints, run on both (itOnEveryEngine).
    const it = onOneDatabase(target, itOnEveryEngine);
    let server: TestServer;
    let clock: ReturnType<typeof movableClock>;
    let fx: ReturnType<typeof clinicFixtures>;
    let admin: { token: string };
    let desk: { token: string };
    let doctor: Awaited<ReturnType<typeof fx.doctor>>;
    let wardCount = 0;

    before(async () => {
      clock = movableClock('2026-05-04T08:00:00Z');
      server = await startTestServer(target, { clock });
      fx = clinicFixtures(server);
      admin = await signUpAdmin(server);
      const email = uniqueEmail('reception');
      const made = await server.api('POST', '/api/admin/receptionists', {
        token: admin.token,
        body: { name: 'Rita Reception', email, password: PASSWORD },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      desk = await signIn(server, email);
      doctor = await fx.doctor('Dr. Ward');
    });
    after(() => server.close());

    /** Moves the clock; the test's sessions stay signed in across the months it travels. */
    const at = async (iso: string) => {
      clock.set(iso);
      await server.db.query(`update sessions set expires_at = '2100-01-01T00:00:00Z' where revoked_at is null`);
    };
    const api = (method: string, path: string, token: string, body?: unknown) =>
      server.api(method, path, { token, body });
    const ok = async (method: string, path: string, token: string, body?: unknown, status = 200) => {
      const res = await api(method, path, token, body);
      assert.equal(res.status, status, `${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    /** A ward with one room of `beds` beds at `rate` a night. */
    async function ward(beds: number, rate = '150.00') {
      const name = `Ward ${++wardCount}`;
      const department = await ok('POST', '/api/admin/departments', admin.token, { name }, 201);
      const room = await ok(
        'POST',
        '/api/admin/rooms',
        admin.token,
        { name: `${name} room`, department_id: department.id },
        201,
      );
      await ok('PUT', `/api/admin/rooms/${room.id}/bed-class`, admin.token, {
        bed_class: 'Standard',
        nightly_rate: rate,
      });
      const made = [];
      for (let i = 1; i <= beds; i++)
        made.push(
          (await ok('POST', `/api/admin/rooms/${room.id}/beds`, admin.token, { label: `B${i}` }, 201)).id as number,
        );
      return { departmentId: department.id as number, roomId: room.id as number, beds: made };
    }
    /** The ward doctor's request for a patient they saw in a visit: the visit puts them in the care team. */
    const request = async (patientId: number, departmentId: number) => {
      await fx.appointment({ doctor, patientId, date: '2026-05-04', status: 'completed' });
      return (
        await ok(
          'POST',
          '/api/admissions',
          doctor.token,
          {
            patient_id: patientId,
            department_id: departmentId,
            expected_nights: 3,
            reason: 'Pneumonia, IV antibiotics',
          },
          201,
        )
      ).id as number;
    };

    it('takes a patient from request to discharge, keeping every bed in the history, billing the nights per bed, and never telling reception the clinical part', async () => {
      const w = await ward(3);
      const [bed1, bed2, bed3] = w.beds as [number, number, number];
      const patient = await fx.patient('Ines Inpatient');
      const seenByDesk: unknown[] = [];
      const asDesk = async (method: string, path: string, body?: unknown, status = 200) => {
        const answer = await ok(method, path, desk.token, body, status);
        seenByDesk.push(answer);
        return answer;
      };

      await at('2026-03-01T10:00:00Z');
      const id = await request(patient.patientId, w.departmentId);
      const waiting = await asDesk('GET', `/api/admissions?department_id=${w.departmentId}`);
      assert.deepEqual(
        waiting.admissions.map((a: { id: number }) => a.id),
        [id],
      );
      assert.equal((await ok('GET', `/api/admissions/${id}`, doctor.token)).reason, 'Pneumonia, IV antibiotics');
      const admitted = await asDesk('POST', `/api/admissions/${id}/admit`, { bed_id: bed1 });
      assert.deepEqual([admitted.status, admitted.bed.id], ['admitted', bed1]);

      const other = await fx.patient('Otto Other');
      const otherId = await request(other.patientId, w.departmentId);
      await asDesk('POST', `/api/admissions/${otherId}/admit`, { bed_id: bed3 });
      const into = await api('POST', `/api/admissions/${id}/transfer`, desk.token, { bed_id: bed3 });
      assert.deepEqual([into.status, into.body.code], [409, 'bed_taken']);
      const retire = await api('POST', `/api/admin/beds/${bed3}/retire`, admin.token);
      assert.deepEqual([retire.status, retire.body.code], [409, 'bed_occupied']);
      const dropRoom = await api('DELETE', `/api/admin/rooms/${w.roomId}`, admin.token);
      assert.deepEqual([dropRoom.status, dropRoom.body.code], [409, 'in_use']);

      await at('2026-03-02T10:00:00Z');
      const moved = await asDesk('POST', `/api/admissions/${id}/transfer`, { bed_id: bed2 });
      assert.deepEqual(
        moved.locations.map((l: { bed_id: number; to: string | null }) => [l.bed_id, l.to]),
        [
          [bed1, '2026-03-02T10:00:00.000Z'],
          [bed2, null],
        ],
      );

      await at('2026-03-04T08:00:00Z');
      const early = await api('POST', `/api/admissions/${id}/discharge`, desk.token);
      assert.deepEqual([early.status, early.body.code], [409, 'discharge_not_ordered']);
      const ordered = await ok('POST', `/api/admissions/${id}/discharge-order`, doctor.token, {
        diagnosis: 'Community-acquired pneumonia',
        treatment: 'IV ceftriaxone 3 days',
        medication: 'Amoxicillin 1 g three times a day for 5 days',
        instructions: 'Rest',
        follow_up: 'GP in one week',
      });
      assert.equal(ordered.discharge_summary.diagnosis, 'Community-acquired pneumonia');
      const board = await asDesk('GET', `/api/bed-board?department_id=${w.departmentId}`);
      assert.deepEqual(
        board.wards[0].rooms[0].beds.map((b: { state: string }) => b.state),
        ['cleaning', 'discharge_ordered', 'occupied'],
      );
      assert.deepEqual(
        [board.counts.occupied, board.counts.discharge_ordered, board.beds, board.occupancy_percent],
        [1, 1, 3, 66.7],
      );

      await at('2026-03-04T09:00:00Z');
      const [first, second] = await Promise.all([
        api('POST', `/api/admissions/${id}/discharge`, desk.token),
        api('POST', `/api/admissions/${id}/discharge`, admin.token),
      ]);
      assert.deepEqual([first.status, second.status].sort(), [200, 409]);
      assert.equal((first.status === 409 ? first : second).body.code, 'already_discharged');
      seenByDesk.push(first.body);
      const after = await api('POST', `/api/admissions/${id}/transfer`, desk.token, { bed_id: bed1 });
      assert.deepEqual([after.status, after.body.code], [409, 'already_discharged']);

      const shown = await asDesk('GET', `/api/admissions/${id}`);
      assert.equal(shown.status, 'discharged');
      assert.deepEqual(shown.charges.length, 1);
      const [charge] = shown.charges;
      assert.deepEqual(
        charge.lines.map((l: { bed_id: number; nights: number; amount_cents: number }) => [
          l.bed_id,
          l.nights,
          l.amount_cents,
        ]),
        [
          [bed1, 1, 15000],
          [bed2, 2, 30000],
        ],
      );
      assert.deepEqual(
        [charge.kind, charge.amount, charge.first_night, charge.last_night],
        ['final', '450.00', '2026-03-01', '2026-03-03'],
      );
      assert.equal(
        only(
          await server.db.query<{ n: number }>(`select count(*)::int as n from stay_charges where admission_id = $1`, [
            id,
          ]),
        ).n,
        1,
      );

      const bills = await ok('GET', '/api/patient/billings', patient.token);
      assert.deepEqual(
        bills.billings.map((b: { id: number; amount_cents: number; payment_status: string }) => [
          b.id,
          b.amount_cents,
          b.payment_status,
        ]),
        [[charge.billing_id, 45000, 'unpaid']],
      );
      assert.equal(
        (await ok('POST', `/api/billings/${charge.billing_id}/payments`, desk.token, { method: 'card' })).billing
          .payment_status,
        'paid',
      );
      const mine = await ok('GET', '/api/patient/admissions', patient.token);
      assert.equal(mine.admissions[0].discharge_summary.follow_up, 'GP in one week');
      assert.equal(
        (await ok('GET', `/api/admissions/${id}/discharge-summary`, patient.token)).treatment,
        'IV ceftriaxone 3 days',
      );
      assert.equal((await api('GET', `/api/admissions/${id}/discharge-summary`, other.token)).status, 404);
      const boardAfter = await asDesk('GET', `/api/bed-board?department_id=${w.departmentId}`);
      assert.equal(boardAfter.wards[0].rooms[0].beds[1].state, 'cleaning');
      await asDesk('POST', `/api/beds/${bed2}/ready`);

      assert.deepEqual(clinicalKeys(seenByDesk), []);
      assert.ok(!JSON.stringify(seenByDesk).includes('Pneumonia'));
      const audited = await server.db.query<{ action: string }>(
        `select action from audit_log where entity = 'admission' and entity_id = $1 and action <> 'read' order by id`,
        [String(id)],
      );
      assert.deepEqual(
        audited.map((a) => a.action),
        ['request', 'admit', 'transfer', 'order_discharge', 'discharge', 'read_summary', 'refused'],
      );
    });

    itOnEveryEngine('admits exactly one of 50 simultaneous admissions to one bed', async () => {
      await at('2026-05-04T08:00:00Z');
      const w = await ward(1);
      const [bed] = w.beds;
      const ids = (
        await server.db.query<{ id: number }>(
          `with u as (insert into users (name, email, password_hash, role)
                      select 'Race ' || g, 'race.' || g || '.' || $1 || '@example.test', 'x', 'patient' from generate_series(1, 50) g returning id),
                p as (insert into patients (user_id) select id from u returning id)
           insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, requested_at)
           select p.id, $2, $3, 2, 'Race', now() from p returning id`,
          [uniqueEmail('race'), w.departmentId, doctor.doctorId],
        )
      ).map((row) => row.id);
      const answers = await Promise.all(
        ids.map((id) => api('POST', `/api/admissions/${id}/admit`, desk.token, { bed_id: bed })),
      );
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
      assert.deepEqual(
        new Set(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body.code}`)),
        new Set(['409 bed_taken']),
      );
      assert.equal(
        only(await server.db.query<{ n: number }>(`select count(*)::int as n from bed_stays where bed_id = $1`, [bed]))
          .n,
        1,
      );
    });

    itOnEveryEngine('lets only one of two desks admit the same patient into two beds at once', async () => {
      const w = await ward(2);
      const patient = await fx.patient('Dora Double');
      const id = await request(patient.patientId, w.departmentId);
      const answers = await Promise.all([
        api('POST', `/api/admissions/${id}/admit`, desk.token, { bed_id: w.beds[0] }),
        api('POST', `/api/admissions/${id}/admit`, admin.token, { bed_id: w.beds[1] }),
      ]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
      assert.equal(answers.find((a) => a.status === 409)?.body.code, 'already_admitted');
      assert.equal(
        only(
          await server.db.query<{ n: number }>(`select count(*)::int as n from bed_stays where admission_id = $1`, [
            id,
          ]),
        ).n,
        1,
      );
      const again = await api('POST', '/api/admissions', doctor.token, {
        patient_id: patient.patientId,
        department_id: w.departmentId,
        expected_nights: 1,
        reason: 'x',
      });
      assert.deepEqual([again.status, again.body.code], [409, 'already_admitted']);
    });

    it('undoes a mistaken admission within the window only, and cancels a waiting request', async () => {
      await at('2026-05-04T08:00:00Z');
      const w = await ward(1);
      const [bed] = w.beds;
      const [a, b] = [await fx.patient('Una Undo'), await fx.patient('Carl Cancel')];
      const id = await request(a.patientId, w.departmentId);
      await ok('POST', `/api/admissions/${id}/admit`, desk.token, { bed_id: bed });
      await at('2026-05-04T08:10:00Z');
      const undone = await ok('POST', `/api/admissions/${id}/undo`, desk.token);
      assert.deepEqual([undone.status, undone.bed, undone.locations], ['requested', null, []]);
      await ok('POST', `/api/admissions/${id}/admit`, desk.token, { bed_id: bed });
      await at('2026-05-04T08:40:00Z');
      const late = await api('POST', `/api/admissions/${id}/undo`, desk.token);
      assert.deepEqual([late.status, late.body.code], [409, 'undo_window_passed']);
      const waiting = await request(b.patientId, w.departmentId);
      assert.equal((await ok('POST', `/api/admissions/${waiting}/cancel`, doctor.token)).status, 'cancelled');
      assert.equal(
        (await api('POST', `/api/admissions/${waiting}/admit`, desk.token, { bed_id: bed })).body.code,
        'admission_cancelled',
      );
      const actions = await server.db.query<{ action: string }>(
        `select action from audit_log where entity = 'admission' and entity_id = any($1::text[]) and action <> 'read' order by id`,
        [[String(id), String(waiting)]],
      );
      assert.deepEqual(
        actions.map((row) => row.action),
        ['request', 'admit', 'undo', 'admit', 'request', 'cancel'],
      );
    });

    itOnEveryEngine(
      'bills each whole week of a long stay once, however often the weekly run goes, and the rest at discharge',
      async () => {
        const w = await ward(1, '100.00');
        const patient = await fx.patient('Lena Long');
        await at('2026-06-01T10:00:00Z');
        const id = await request(patient.patientId, w.departmentId);
        await ok('POST', `/api/admissions/${id}/admit`, desk.token, { bed_id: w.beds[0] });
        await at('2026-06-16T10:00:00Z');
        // Two runs at once (other tests' stays are billed too), then a third with nothing left to bill.
        await Promise.all([
          ok('POST', '/api/admin/interim-bills', admin.token),
          ok('POST', '/api/admin/interim-bills', admin.token),
        ]);
        assert.equal((await ok('POST', '/api/admin/interim-bills', admin.token)).bills, 0);
        assert.equal(
          only(
            await server.db.query<{ n: number }>(
              `select count(*)::int as n from stay_charges where admission_id = $1`,
              [id],
            ),
          ).n,
          2,
        );
        await ok('POST', `/api/admissions/${id}/discharge-order`, doctor.token, { diagnosis: 'd', treatment: 't' });
        await ok('POST', `/api/admissions/${id}/discharge`, desk.token);
        const charges = (await ok('GET', `/api/admissions/${id}`, desk.token)).charges;
        assert.deepEqual(
          charges.map((c: { kind: string; first_night: string; last_night: string; amount_cents: number }) => [
            c.kind,
            c.first_night,
            c.last_night,
            c.amount_cents,
          ]),
          [
            ['interim', '2026-06-01', '2026-06-07', 70000],
            ['interim', '2026-06-08', '2026-06-14', 70000],
            ['final', '2026-06-15', '2026-06-15', 10000],
          ],
        );
      },
    );

    it("counts the census of a constructed month as by hand, at midnight in the clinic's zone and across the change to summer time", async () => {
      const w = await ward(2);
      const [bed1, bed2] = w.beds as [number, number];
      await server.db.query(`update beds set created_at = $2 where id = any($1::int[])`, [
        w.beds,
        CENSUS_MONTH.bedsCreatedAt,
      ]);
      const stay = async (name: string, bed: number, admitAt: string) => {
        const patient = await fx.patient(name);
        await at(admitAt);
        const id = await request(patient.patientId, w.departmentId);
        await ok('POST', `/api/admissions/${id}/admit`, desk.token, { bed_id: bed });
        return id;
      };
      const discharge = async (id: number, when: string) => {
        await at(when);
        await ok('POST', `/api/admissions/${id}/discharge-order`, doctor.token, { diagnosis: 'd', treatment: 't' });
        await ok('POST', `/api/admissions/${id}/discharge`, desk.token);
        await ok(
          'POST',
          `/api/beds/${(await ok('GET', `/api/admissions/${id}`, desk.token)).bed.id}/ready`,
          desk.token,
        );
      };
      for (const { name, admittedAt, transferredAt, dischargedAt } of CENSUS_MONTH.stays) {
        const id = await stay(name, bed1, admittedAt);
        if (transferredAt !== undefined) {
          await at(transferredAt);
          await ok('POST', `/api/admissions/${id}/transfer`, desk.token, { bed_id: bed2 });
          await ok('POST', `/api/beds/${bed1}/ready`, desk.token);
        }
        if (dischargedAt !== undefined) await discharge(id, dischargedAt);
      }
      await at(CENSUS_MONTH.now);

      const census = await ok(
        'GET',
        `/api/admin/census?from=2026-03-01&to=2026-03-31&department_id=${w.departmentId}`,
        admin.token,
      );
      const inBed = Object.fromEntries(
        census.days
          .filter((d: { in_bed_at_midnight: number }) => d.in_bed_at_midnight > 0)
          .map((d: { date: string; in_bed_at_midnight: number }) => [d.date, d.in_bed_at_midnight]),
      );
      assert.deepEqual(inBed, CENSUS_MONTH.byHand.inBedAtMidnight);
      assert.deepEqual(census.wards, [
        { department_id: w.departmentId, department: `Ward ${wardCount}`, ...CENSUS_MONTH.byHand.ward },
      ]);
      const res = await fetch(
        `${server.url}/api/admin/census.csv?from=2026-03-28&to=2026-03-29&department_id=${w.departmentId}`,
        { headers: { authorization: `Bearer ${admin.token}` } },
      );
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(
        await res.text(),
        'date,department_id,department,beds,in_bed_at_midnight,admissions,discharges,transfers,occupancy_percent\r\n' +
          `2026-03-28,${w.departmentId},Ward ${wardCount},2,1,1,0,0,50\r\n` +
          `2026-03-29,${w.departmentId},Ward ${wardCount},2,1,0,0,1,50\r\n`,
      );
    });

    it('answers every inpatient, care-team and lab route to each identity as its access says', async () => {
      const labEmail = uniqueEmail('lab');
      await ok(
        'POST',
        '/api/admin/lab-technicians',
        admin.token,
        { name: 'Lee Lab', email: labEmail, password: PASSWORD },
        201,
      );
      const nurseEmail = uniqueEmail('nurse');
      await ok(
        'POST',
        '/api/admin/nurses',
        admin.token,
        { name: 'Nia Nurse', email: nurseEmail, password: PASSWORD, department_id: (await ward(1)).departmentId },
        201,
      );
      const identities: Record<string, string | undefined> = {
        none: undefined,
        patient: (await fx.patient('Mat Rix')).token,
        doctor: doctor.token,
        reception: desk.token,
        admin: admin.token,
        lab: (await signIn(server, labEmail)).token,
        nurse: (await signIn(server, nurseEmail)).token,
      };
      const routes = [...inpatientRoutes(server.app), ...careRoutes(server.app), ...labRoutes(server.app)];
      assert.equal(await assertRoutesAnswerByAccess(server, routes, identities), routes.length * 7);
    });

    it('answers every clinical route of a patient 404 to a doctor outside their care team, API and FHIR alike, and opens them for the day to one who breaks the glass', async () => {
      await at('2026-07-06T08:00:00Z');
      const w = await ward(1);
      const patient = await fx.patient('Cara Team');
      const id = await request(patient.patientId, w.departmentId);
      await ok('POST', `/api/admissions/${id}/admit`, desk.token, { bed_id: w.beds[0] });
      const stranger = await fx.doctor('Dr. Stranger');
      const onWard = await fx.doctor('Dr. On Ward');
      await server.db.query('update doctors set department_id = $1 where id = $2', [w.departmentId, onWard.doctorId]);
      const summary = { diagnosis: 'Pneumonia', treatment: 'IV antibiotics' };

      // Every doctor's route of src/http/routes that names this patient's stay or this patient: the care team's to call.
      const doctorRoutes = [...inpatientRoutes(server.app), ...recordRoutes(server.app)].filter(
        (route) =>
          (route.access === 'doctor' || (Array.isArray(route.access) && route.access.includes('doctor'))) &&
          route.path.includes('{id}'),
      );
      const clinical = doctorRoutes
        .filter((route) => route.path.startsWith('/api/admissions/{id}') || route.path === '/api/doctor/patients/{id}')
        .map((route) => ({
          method: route.method,
          path: route.path.replace('{id}', String(route.path.startsWith('/api/admissions') ? id : patient.patientId)),
        }));
      // The rest name no patient's stay or record: an appointment (its own doctor's), a record (its writer's), a bed.
      assert.deepEqual(
        doctorRoutes
          .filter(
            (route) => !route.path.startsWith('/api/admissions/{id}') && route.path !== '/api/doctor/patients/{id}',
          )
          .map((route) => route.path),
        ['/api/doctor/appointments/{id}/medical-record', '/api/medical-records/{id}/amendments'],
      );
      assert.deepEqual(
        clinical.map((c) => `${c.method} ${c.path.replace(/\d+/, '{id}')}`),
        [
          'GET /api/admissions/{id}',
          'POST /api/admissions/{id}/cancel',
          'POST /api/admissions/{id}/discharge-order',
          'GET /api/admissions/{id}/discharge-summary',
          'GET /api/doctor/patients/{id}',
        ],
      );
      const fhirReads = [
        `/fhir/R4/Patient/${patient.patientId}`,
        `/fhir/R4/Encounter/stay-${id}`,
        `/fhir/R4/Patient/${patient.patientId}/$everything`,
      ];
      const call = (c: { method: string; path: string }, token: string) =>
        api(
          c.method,
          c.path,
          token,
          c.method === 'GET' ? undefined : c.path.endsWith('discharge-order') ? summary : {},
        );
      const reasonShown = async (token: string) =>
        (
          (await ok('GET', `/api/admissions?status=current&department_id=${w.departmentId}`, token)).admissions as {
            id: number;
            reason?: string;
          }[]
        ).find((a) => a.id === id)?.reason;

      for (const c of clinical) {
        const res = await call(c, stranger.token);
        assert.deepEqual(
          [res.status, res.body.code],
          [404, 'not_found'],
          `${c.method} ${c.path} outside the care team`,
        );
      }
      for (const path of fhirReads)
        assert.equal((await api('GET', path, stranger.token)).status, 404, `${path} outside the care team`);
      const stay = {
        patient_id: patient.patientId,
        department_id: w.departmentId,
        expected_nights: 1,
        reason: 'Again',
      };
      assert.equal(
        (await api('POST', '/api/admissions', stranger.token, stay)).status,
        404,
        'ordering a stay would make a doctor outside the team its admitting doctor',
      );
      const searched = await api('GET', `/fhir/R4/Encounter?patient=${patient.patientId}`, stranger.token);
      assert.deepEqual([searched.status, searched.body.entry ?? []], [200, []]);
      assert.equal(await reasonShown(stranger.token), undefined);
      assert.equal(await reasonShown(doctor.token), 'Pneumonia, IV antibiotics');
      // The ward's doctors are the patient's care team while the patient is in a bed of it.
      assert.equal((await ok('GET', `/api/admissions/${id}`, onWard.token)).reason, 'Pneumonia, IV antibiotics');
      assert.equal((await api('GET', `/fhir/R4/Encounter/stay-${id}`, onWard.token)).status, 200);

      const noReason = await api('POST', `/api/doctor/patients/${patient.patientId}/break-glass`, stranger.token, {
        reason: ' ',
      });
      assert.deepEqual([noReason.status, Object.keys(noReason.body.errors ?? {})], [422, ['reason']]);
      assert.equal(
        (await api('POST', '/api/doctor/patients/999999/break-glass', stranger.token, { reason: 'Asked by the ward' }))
          .status,
        404,
      );
      const opened = await ok(
        'POST',
        `/api/doctor/patients/${patient.patientId}/break-glass`,
        stranger.token,
        { reason: 'Covering the night shift' },
        201,
      );
      assert.deepEqual(
        [opened.access.patient.id, opened.access.doctor.id, opened.access.reason],
        [patient.patientId, stranger.doctorId, 'Covering the night shift'],
      );
      assert.ok(new Date(opened.access.expires_at).getTime() - Date.parse('2026-07-06T08:00:00Z') <= 24 * 3600_000);
      const again = await api('POST', '/api/admissions', stranger.token, stay);
      assert.deepEqual(
        [again.status, again.body.code],
        [409, 'already_admitted'],
        'the glass broken, the order is heard',
      );

      for (const c of clinical.filter((c) => c.method === 'GET' && !c.path.endsWith('discharge-summary'))) {
        const res = await call(c, stranger.token);
        assert.equal(res.status, 200, `${c.method} ${c.path} after breaking the glass: ${JSON.stringify(res.body)}`);
      }
      for (const path of fhirReads)
        assert.equal((await api('GET', path, stranger.token)).status, 200, `${path} after breaking the glass`);
      assert.equal(await reasonShown(stranger.token), 'Pneumonia, IV antibiotics');

      // The access lasts the clinic's day: the next morning the record is closed again.
      await at('2026-07-07T08:00:00Z');
      assert.equal((await api('GET', `/api/admissions/${id}`, stranger.token)).status, 404);
      assert.equal((await api('GET', `/fhir/R4/Patient/${patient.patientId}`, stranger.token)).status, 404);
      await ok(
        'POST',
        `/api/doctor/patients/${patient.patientId}/break-glass`,
        stranger.token,
        { reason: 'Discharging for the ward' },
        201,
      );
      for (const c of clinical.filter((c) => c.method === 'POST')) {
        const res = await call(c, stranger.token);
        // The stay is admitted: it cannot be cancelled (409), and its discharge is ordered.
        assert.equal(
          res.status,
          c.path.endsWith('cancel') ? 409 : 200,
          `${c.method} ${c.path} after breaking the glass: ${JSON.stringify(res.body)}`,
        );
      }
      assert.equal((await ok('GET', `/api/admissions/${id}/discharge-summary`, stranger.token)).diagnosis, 'Pneumonia');

      const openings = (await ok('GET', '/api/patient/record-openings?per_page=200', patient.token)).openings as {
        by: { name: string; role: string };
        action: string;
        what: string;
        reason: string | null;
      }[];
      const byStranger = openings.filter((o) => o.by.name === 'Dr. Stranger');
      // Once they ordered the discharge they are the stay's attending doctor, in the care team: that read needs no reason.
      assert.deepEqual(
        new Set(byStranger.map((o) => o.reason)),
        new Set(['Covering the night shift', 'Discharging for the ward', null]),
      );
      assert.deepEqual(
        byStranger.filter((o) => o.reason === null).map((o) => o.action),
        ['read_summary'],
      );
      assert.deepEqual(
        new Set(byStranger.map((o) => o.action)),
        new Set(['break_glass', 'read', 'read_records', 'read_everything', 'list_read', 'read_summary']),
      );
      assert.ok(byStranger.every((o) => o.by.role === 'doctor'));
      assert.ok(openings.some((o) => o.by.name === 'Dr. On Ward' && o.reason === null && o.what === 'A hospital stay'));
      const accesses = (await ok('GET', '/api/admin/break-glass?q=stranger', admin.token)).accesses as {
        patient: { id: number };
        reason: string;
      }[];
      assert.deepEqual(
        accesses.filter((a) => a.patient.id === patient.patientId).map((a) => a.reason),
        ['Discharging for the ward', 'Covering the night shift'],
      );
      assert.equal((await api('GET', '/api/admin/break-glass', doctor.token)).status, 403);
      assert.equal((await api('GET', '/api/patient/record-openings', stranger.token)).status, 403);
    });
  });
}
