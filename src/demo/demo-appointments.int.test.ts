import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fixedClock, startTestServer, type TestServer } from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { seedDemo } from './seed.ts';
import { auditTrail } from '../db/audit.pg.ts';
import { at, only } from '../testing/assert.ts';
import { sealAll } from '../testing/audit-sealing.ts';

// Seeded through the app, above the database: on one engine, the server when TEST_DATABASE_URL is set (PGlite boots
// in seconds of CPU time). The demo template the CLI tests copy is seeded on PGlite by `medora seed --demo`.
for (const target of testDatabases('one')) {
  describe(`demo appointments on ${target.name}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(target, { clock: fixedClock('2026-06-13T09:00:00Z') }); // a Saturday in Berlin
      await seedDemo(server.app, server.db);
    });
    after(() => server.close());

    it('gives every demo doctor the default week but the physiotherapist, who takes a lunch break', async () => {
      const rows = await server.db.query<{ email: string; slots: number }>(
        `select u.email, count(s.id)::int as slots from doctors d join users u on u.id = d.user_id
         left join schedules s on s.doctor_id = d.id and s.retired_at is null group by u.email`,
      );
      assert.equal(rows.length, 8);
      assert.ok(rows.every((r) => r.slots === (r.email === 'sam.okafor@medora.test' ? 100 : 80)));
      const hours = await server.db.query<{ start_time: string; end_time: string }>(
        `select h.start_time::text, h.end_time::text from working_hours h join doctors d on d.id = h.doctor_id join users u on u.id = d.user_id
         where u.email = 'sam.okafor@medora.test' and h.weekday = 1 order by h.start_time`,
      );
      assert.deepEqual(hours, [
        { start_time: '09:00:00', end_time: '12:30:00' },
        { start_time: '13:30:00', end_time: '17:00:00' },
      ]);
    });

    it("puts the neurologist on leave on the next working day, his visit there on the desk's list, and closes the clinic for a holiday", async () => {
      const rows = await server.db.query<{ doctor: string | null; starts_on: string }>(
        `select u.email as doctor, t.starts_on::text from time_off t left join doctors d on d.id = t.doctor_id left join users u on u.id = d.user_id order by t.starts_on`,
      );
      assert.deepEqual(rows, [
        { doctor: 'stephen.park@medora.test', starts_on: '2026-06-15' },
        { doctor: null, starts_on: '2026-06-29' },
      ]);
      const desk = { userId: 1, role: 'reception' as const, name: 'Desk' };
      const toMove = await server.app.scheduling.visitsToMove({}, desk);
      assert.deepEqual(
        toMove.items.map((v) => [v.doctor_email, v.date]),
        [['stephen.park@medora.test', '2026-06-15']],
      );
    });

    it("books upcoming visits on the next weekdays and completes the demo patient's past ones", async () => {
      const rows = await server.db.query<{ status: string; n: number; first: string; last: string }>(
        `select status, count(*)::int as n, min(date)::text as first, max(date)::text as last
         from appointments group by status order by status`,
      );
      assert.deepEqual(rows, [
        { status: 'checked_in', n: 1, first: '2026-06-13', last: '2026-06-13' },
        // Four recent visits, and two years of the GP's check-ups behind the lab demo's HbA1c trend.
        { status: 'completed', n: 9, first: '2024-06-14', last: '2026-05-29' },
        { status: 'no_show', n: 1, first: '2026-06-05', last: '2026-06-05' },
        { status: 'scheduled', n: 8, first: '2026-06-15', last: '2026-06-17' },
      ]);
      const { n } = only(
        await server.db.query<{ n: number }>(
          `select count(*)::int as n from appointments a join doctors d on d.id = a.doctor_id join users u on u.id = d.user_id
         where u.email = 'doctor@medora.test' and a.status = 'scheduled'`,
        ),
      );
      assert.equal(n, 4);
    });

    it("puts the demo patient on the pharmacist's waitlist for the next three working days", async () => {
      const rows = await server.db.query<{
        patient: string;
        doctor: string;
        from_date: string;
        to_date: string;
        status: string;
      }>(
        `select pu.email as patient, du.email as doctor, e.from_date::text, e.to_date::text, e.status
         from waitlist_entries e join patients p on p.id = e.patient_id join users pu on pu.id = p.user_id
         join doctors d on d.id = e.doctor_id join users du on du.id = d.user_id`,
      );
      assert.deepEqual(rows, [
        {
          patient: 'patient@medora.test',
          doctor: 'lisa.cuddy@medora.test',
          from_date: '2026-06-15',
          to_date: '2026-06-17',
          status: 'waiting',
        },
      ]);
    });

    it('gives the front desk its receptionist, a patient checked in today and a no-show', async () => {
      const login = await server.api('POST', '/api/login', {
        body: { email: 'reception@medora.test', password: 'medora-demo' },
      });
      assert.equal(login.status, 200);
      assert.equal(login.body.role, 'reception');
      const today = await server.api('GET', '/api/appointments', { token: login.body.token });
      assert.deepEqual(
        today.body.appointments.map((a: { patient_name: string; status: string }) => [a.patient_name, a.status]),
        [['Mei Lin', 'checked_in']],
      );
      const omar = await server.api('GET', '/api/patients?q=omar', { token: login.body.token });
      assert.equal(only(omar.body.patients as { no_shows: number }[]).no_shows, 1);
    });

    it("amends one of the demo patient's records and credits part of its bill, both audited", async () => {
      const patient = await server.api('POST', '/api/login', {
        body: { email: 'patient@medora.test', password: 'medora-demo' },
      });
      const bills = await server.api('GET', '/api/patient/billings', { token: patient.body.token });
      const credited = bills.body.billings.filter((b: { credited: string }) => b.credited !== '0.00');
      assert.deepEqual(
        credited.map((b: { amount: string; credited: string; balance: string }) => [b.amount, b.credited, b.balance]),
        [['140.00', '40.00', '100.00']],
      );
      const trail = await server.db.query<{ action: string; n: number }>(
        `select action, count(*)::int as n from audit_log where action in ('amend', 'credit') group by action order by action`,
      );
      assert.deepEqual(trail, [
        { action: 'amend', n: 1 },
        { action: 'credit', n: 1 },
      ]);
      const { amended } = only(
        await server.db.query<{ amended: number }>(`select count(*)::int as amended from medical_record_versions`),
      );
      assert.ok(amended >= 1, 'the amended record keeps its earlier version');
    });

    it('gives the clinic a ward with beds, two patients in bed and the demo patient discharged with a summary', async () => {
      const desk = await server.api('POST', '/api/login', {
        body: { email: 'reception@medora.test', password: 'medora-demo' },
      });
      const board = await server.api('GET', '/api/bed-board', { token: desk.body.token });
      assert.deepEqual(
        [board.body.beds, board.body.counts.occupied, board.body.counts.discharge_ordered, board.body.counts.cleaning],
        [5, 1, 1, 1],
      );
      const patient = await server.api('POST', '/api/login', {
        body: { email: 'patient@medora.test', password: 'medora-demo' },
      });
      const stays = await server.api('GET', '/api/patient/admissions', { token: patient.body.token });
      assert.deepEqual(
        stays.body.admissions.map((a: { status: string; discharge_summary: { follow_up: string } }) => [
          a.status,
          a.discharge_summary.follow_up,
        ]),
        [['discharged', 'GP in one week']],
      );
    });

    it("gives the ward its nurse, 72 hours of observations, Omar's NEWS2 rising from 1 to 7 with its alert standing, and his fluid balance", async () => {
      const login = async (email: string) =>
        (await server.api('POST', '/api/login', { body: { email, password: 'medora-demo' } })).body;
      const nurse = await login('nurse@medora.test');
      assert.equal(nurse.role, 'nurse');
      const board = await server.api('GET', '/api/bed-board', { token: nurse.token });
      const scored = board.body.wards
        .flatMap((w: { rooms: { beds: unknown[] }[] }) => w.rooms.flatMap((r) => r.beds))
        .filter((b: { news2?: unknown }) => b.news2)
        .map(
          (b: { occupant: { patient: { name: string } }; news2: { total: number; risk: string; alert: boolean } }) => [
            b.occupant.patient.name,
            b.news2.total,
            b.news2.risk,
            b.news2.alert,
          ],
        );
      assert.deepEqual(
        scored.sort(),
        [
          ['Lucas Brown', 0, 'low', false],
          ['Omar Haddad', 7, 'high', true],
        ].sort(),
      );
      const doctor = await login('doctor@medora.test');
      const alerts = await server.api('GET', '/api/doctor/news2-alerts', { token: doctor.token });
      const omar = alerts.body.alerts.filter((a: { patient: { name: string } }) => a.patient.name === 'Omar Haddad');
      assert.deepEqual(omar[0] && [omar[0].total, omar[0].risk], [7, 'high']);
      const stayId = omar[0].admission_id;
      const sheet = await server.api('GET', `/api/admissions/${stayId}/flowsheet`, { token: nurse.token });
      const news2 = sheet.body.series.news2 as { at: string; value: number }[];
      const lastDay = news2.slice(-7).map((p) => p.value);
      assert.deepEqual(lastDay, [1, 2, 3, 4, 5, 6, 7]);
      const span = Date.parse(at(news2, -1).at) - Date.parse(at(news2, 0).at);
      assert.ok(span >= 70 * 3_600_000, 'the chart covers three days');
      const fluids = await server.api('GET', `/api/admissions/${stayId}/fluid-balance`, { token: nurse.token });
      assert.equal(fluids.body.events.length, 10);
    });

    it('gives the demo patient allergies and active prescriptions, the ward patient no known allergies and a MAR with given, held and late doses and an as-needed medicine', async () => {
      const login = async (email: string) =>
        (await server.api('POST', '/api/login', { body: { email, password: 'medora-demo' } })).body;
      const doctor = await login('doctor@medora.test');
      const paula = await login('patient@medora.test');
      const [paulaId, omarId] = await Promise.all(
        ['patient@medora.test', 'omar.haddad@medora.test'].map(
          async (email) =>
            only(
              await server.db.query<{ id: number }>(
                'select p.id from patients p join users u on u.id = p.user_id where u.email = $1',
                [email],
              ),
            ).id,
        ),
      );
      const allergies = await server.api('GET', `/api/patients/${paulaId}/allergies`, { token: doctor.token });
      assert.equal(allergies.status, 200, JSON.stringify(allergies.body));
      assert.match(allergies.body.summary, /Penicillin/);
      assert.match(allergies.body.summary, /Codeine/);
      const none = await server.api('GET', `/api/patients/${omarId}/allergies`, { token: doctor.token });
      assert.equal(none.body.statement, 'none_known');
      const mine = await server.api('GET', '/api/patient/prescriptions', { token: paula.token });
      assert.deepEqual(
        mine.body.orders.map((o: { status: string; words: string }) => [o.status, o.words.split(',')[0]]).sort(),
        [
          ['active', 'Amlodipine 5 mg tablet'],
          ['active', 'Metformin 500 mg tablet'],
        ],
      );
      const doses = await server.db.query<{ medicine: string; status: string }>(
        `select f.generic_name as medicine, d.status from medication_doses d
         join medication_requests r on r.id = d.request_id join formulary f on f.id = r.medicine_id
         where r.patient_id = $1 and d.status <> 'due' order by coalesce(d.due_at, d.given_at)`,
        [omarId],
      );
      assert.deepEqual(
        doses.map((d) => `${d.medicine} ${d.status}`),
        ['Paracetamol given', 'Paracetamol held', 'Paracetamol given', 'Morphine given'],
      );
      const board = await server.api('GET', '/api/bed-board', { token: doctor.token });
      const late = board.body.wards
        .flatMap((w: { rooms: { beds: { occupant: { late_doses: number } | null }[] }[] }) =>
          w.rooms.flatMap((r) => r.beds),
        )
        .map((b: { occupant: { late_doses: number } | null }) => b.occupant?.late_doses ?? 0);
      assert.equal(Math.max(...late), 1, 'the paracetamol due two hours ago is late');
    });

    it('gives the lab its technician, the demo patient released, corrected and trending results, one awaiting review, and a critical result on the ward', async () => {
      const login = async (email: string) =>
        (await server.api('POST', '/api/login', { body: { email, password: 'medora-demo' } })).body;
      const lab = await login('lab@medora.test');
      assert.equal(lab.role, 'lab');
      const patient = await login('patient@medora.test');
      const mine = await server.api('GET', '/api/patient/lab-results?per_page=100', { token: patient.token });
      const results = mine.body.results as { name: string; value: number; effective_at: string; corrected: boolean }[];
      const trend = results
        .filter((r) => r.name === 'Haemoglobin A1c')
        .sort((a, b) => a.effective_at.localeCompare(b.effective_at));
      assert.deepEqual(
        trend.map((r) => r.value),
        [5.4, 5.6, 5.9, 6.1, 6.4, 6.7],
      );
      const span = Date.parse(at(trend, -1).effective_at) - Date.parse(at(trend, 0).effective_at);
      assert.ok(span >= 700 * 86_400_000, 'the trend covers two years');
      assert.deepEqual(
        results.filter((r) => r.corrected).map((r) => [r.name, r.value]),
        [['Potassium', 4.4]],
      );
      assert.ok(!results.some((r) => r.name.startsWith('Cholesterol')), 'the lipid panel awaits review, unseen');
      assert.equal(results.length, 6 + 9 + 2);

      const doctor = await login('doctor@medora.test');
      const review = await server.api('GET', '/api/doctor/results-to-review', { token: doctor.token });
      assert.deepEqual(
        review.body.results.map((r: { order: { patient: { name: string } }; rank: string }) => [
          r.order.patient.name,
          r.rank,
        ]),
        [
          ['Omar Haddad', 'critical'],
          ['Paula Patient', 'abnormal'],
        ],
      );
      const alerts = await server.api('GET', '/api/doctor/critical-alerts', { token: doctor.token });
      assert.deepEqual(
        alerts.body.alerts.map((a: { patient: { name: string }; test: string; value: number; bed: string }) => [
          a.patient.name,
          a.test,
          a.value,
          a.bed,
        ]),
        [['Omar Haddad', 'Potassium', 6.8, 'Room 101 A']],
      );
      const board = await server.api('GET', '/api/bed-board', { token: doctor.token });
      const flagged = board.body.wards
        .flatMap((w: { rooms: { beds: { occupant: { critical_results: number } | null }[] }[] }) =>
          w.rooms.flatMap((r) => r.beds),
        )
        .filter((b: { occupant: { critical_results: number } | null }) => (b.occupant?.critical_results ?? 0) > 0);
      assert.equal(flagged.length, 1);

      await sealAll(server.db);
      assert.equal((await auditTrail(server.db).verify()).intact, true, 'the audit chain holds over the whole demo');
    });
  });
}
