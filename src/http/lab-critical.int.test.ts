import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { medora } from '../cli/main.ts';
import { loadConfig } from '../config.ts';
import { startMailWorker } from '../mail/start.ts';
import type { OutboxWorker } from '../mail/worker.ts';
import { after, before, describe, it } from '../testing/node-test.ts';
import { only, present } from '../testing/assert.ts';
import { sealAll } from '../testing/audit-sealing.ts';
import { labFixtures } from '../testing/lab-fixtures.ts';
import { PASSWORD, signIn, signUpAdmin, startTestServer, uniqueEmail, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { movableClock } from '../testing/scheduling-fakes.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { testDatabases } from '../testing/test-db.ts';

const T0 = '2026-05-04T08:00:00Z';
const plus = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

interface Standing {
  id: number;
  test: string;
  value: number | null;
  interpretation: string;
  escalated: boolean;
  yours: boolean;
  bed: string | null;
}

for (const target of testDatabases('one')) {
  describe(`critical lab results alert and escalate on ${target.name}`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    let worker: OutboxWorker;
    let clock: ReturnType<typeof movableClock>;
    let admin: { token: string };
    let desk: { token: string };
    let ordering: Awaited<ReturnType<ReturnType<typeof clinicFixtures>['doctor']>>;
    let colleague: typeof ordering;
    let stranger: typeof ordering;
    let labs: ReturnType<typeof labFixtures>;
    let stayId: number;
    let bedId: number;

    const one = async (sql: string, params: unknown[] = []) =>
      only(await server.db.query<{ id: number }>(sql, params)).id;
    const emailOf = async (doctorId: number) =>
      only(
        await server.db.query<{ email: string }>(
          'select u.email from doctors d join users u on u.id = d.user_id where d.id = $1',
          [doctorId],
        ),
      ).email;
    const standing = async (token: string): Promise<Standing[]> => {
      const res = await server.api('GET', '/api/doctor/critical-alerts', { token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.alerts;
    };
    const boardFlag = async (token: string) => {
      const res = await server.api('GET', '/api/bed-board', { token });
      assert.equal(res.status, 200);
      const beds = res.body.wards.flatMap((w: { rooms: { beds: unknown[] }[] }) => w.rooms.flatMap((r) => r.beds));
      return present(
        beds.find((b: { id: number }) => b.id === bedId) as { occupant: { critical_results: number | null } },
      ).occupant.critical_results;
    };
    const criticalPotassium = () =>
      labs.order({
        doctor: ordering,
        admissionId: stayId,
        results: { '2823-3': { type: 'quantity', value: 7, unit: 'mmol/L' } },
      });
    /** The outbox rows of an alert's e-mails, by kind and status. */
    const mailsOf = (orderNumber: string) =>
      server.db.query<{ kind: string; recipient: string; status: string; send_after: Date }>(
        `select o.kind, o.recipient, o.status, o.send_after from outbox o
         join lab_critical_alerts a on a.id = o.lab_alert_id join observations ob on ob.id = a.observation_id
         join lab_reports r on r.id = ob.report_id join lab_orders lo on lo.id = r.order_id
         where lo.order_number = $1 order by o.kind, o.recipient`,
        [orderNumber],
      );
    /**
     * The same once the worker is done with them: the mail server has a message before the worker marks its row sent,
     * so a row is read when none is pending or being sent (bounded at 20 s, far beyond a send's milliseconds).
     */
    const settledMailsOf = async (orderNumber: string) => {
      let mails = await mailsOf(orderNumber);
      for (let tries = 0; mails.some((m) => m.status === 'pending' || m.status === 'sending') && tries < 400; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        mails = await mailsOf(orderNumber);
      }
      return mails;
    };

    before(async () => {
      clock = movableClock(T0);
      server = await startTestServer(target, { clock });
      smtp = await startTestSmtp();
      const config = loadConfig({ SMTP_URL: smtp.url, OUTBOX_POLL_MS: '50', CLINIC_NAME: 'Lakeside Clinic' });
      // The worker `medora serve` runs, polling on its own: the escalation is sent when the clock passes its time.
      worker = startMailWorker(server.app, server.db, config, () => {});
      const fx = clinicFixtures(server);
      admin = await signUpAdmin(server);
      const deskEmail = uniqueEmail('desk');
      await server.api('POST', '/api/admin/receptionists', {
        token: admin.token,
        body: { name: 'Rita Reception', email: deskEmail, password: PASSWORD },
      });
      desk = await signIn(server, deskEmail);
      labs = labFixtures(server, admin);
      ordering = await fx.doctor('Dr. Ordering');
      colleague = await fx.doctor('Dr. Colleague');
      stranger = await fx.doctor('Dr. Elsewhere');
      const ward = await one(`insert into departments (name, description) values ('Medicine', 'Ward') returning id`);
      const other = await one(`insert into departments (name, description) values ('Surgery', 'Ward') returning id`);
      await server.db.query('update doctors set department_id = $1 where id = any($2::int[])', [
        ward,
        [ordering.doctorId, colleague.doctorId],
      ]);
      await server.db.query('update doctors set department_id = $1 where id = $2', [other, stranger.doctorId]);
      const patient = await fx.patient('Ivy Inpatient');
      const room = await one(`insert into rooms (name, department_id) values ('Room 7', $1) returning id`, [ward]);
      bedId = await one(`insert into beds (room_id, label) values ($1, 'A') returning id`, [room]);
      stayId = await one(
        `insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, status, bed_id,
                                 requested_at, reserved_at, admitted_at)
         values ($1, $2, $3, 3, 'Dehydration', 'admitted', $4, $5, $5, $5) returning id`,
        [patient.patientId, ward, ordering.doctorId, bedId, plus(-600)],
      );
      await server.db.query(
        `insert into bed_stays (admission_id, bed_id, nightly_rate_cents, started_at) values ($1, $2, 0, $3)`,
        [stayId, bedId, plus(-600)],
      );
    });
    after(async () => {
      await worker?.stop();
      await smtp?.close();
      await server?.close();
    });

    it('e-mails the ordering doctor at once and stands on their day and the bed board; at 30 minutes the worker e-mails the department, whose doctor acknowledges', async () => {
      const order = await criticalPotassium();
      const orderingEmail = await emailOf(ordering.doctorId);
      const orderingMail = await smtp.waitForMessage((m) => JSON.stringify(m.to).includes(orderingEmail), 30_000);
      assert.match(orderingMail.subject ?? '', /Critical lab result to acknowledge: Potassium/);
      assert.doesNotMatch(orderingMail.text ?? '', /\b7\b/, 'the value is read signed in, never e-mailed');

      const mine = only(await standing(ordering.token));
      assert.deepEqual(
        [mine.test, mine.value, mine.interpretation, mine.escalated, mine.yours, mine.bed],
        ['Potassium', 7, 'HH', false, true, 'Room 7 A'],
      );
      assert.deepEqual(await standing(colleague.token), [], 'not the department’s before 30 minutes');
      assert.equal(await boardFlag(ordering.token), 1);
      assert.equal(await boardFlag(desk.token), null, 'the front desk sees no result, not even a flag');
      const early = await server.api('POST', `/api/lab/alerts/${mine.id}/acknowledge`, { token: colleague.token });
      assert.equal(early.status, 404);
      const colleagueEmail = await emailOf(colleague.doctorId);
      assert.ok(!smtp.received.some((m) => JSON.stringify(m.to).includes(colleagueEmail)));

      clock.set(plus(31));
      const escalation = await smtp.waitForMessage((m) => JSON.stringify(m.to).includes(colleagueEmail), 30_000);
      assert.match(escalation.text ?? '', /not been acknowledged for 30 minutes/);
      assert.deepEqual(
        (await settledMailsOf(order.orderNumber)).map((m) => [m.kind, m.status]),
        [
          ['critical_result', 'sent'],
          ['critical_result_escalation', 'sent'],
        ],
        'the doctor of another department is not written to',
      );
      const theirs = only(await standing(colleague.token));
      assert.deepEqual([theirs.id, theirs.escalated, theirs.yours], [mine.id, true, false]);
      assert.deepEqual(await standing(stranger.token), []);
      const acks = await Promise.all(
        [colleague, ordering].map((d) =>
          server.api('POST', `/api/lab/alerts/${mine.id}/acknowledge`, { token: d.token }),
        ),
      );
      assert.deepEqual(acks.map((r) => r.body.acknowledged).sort(), [false, true]);
      assert.deepEqual(await standing(ordering.token), []);
      assert.equal(await boardFlag(ordering.token), 0);

      // The rest of a result's life, each step audited: reviewed, released, corrected after release.
      const reviewed = await server.api('POST', `/api/lab/orders/${order.id}/review`, {
        token: ordering.token,
        body: { comment: 'Repeat tomorrow' },
      });
      assert.equal(reviewed.status, 200);
      assert.equal(
        (await server.api('POST', `/api/lab/orders/${order.id}/release`, { token: ordering.token })).status,
        200,
      );
      const corrected = await server.api('POST', `/api/lab/results/${order.observations['2823-3']}/correct`, {
        token: (await labs.technician()).token,
        body: { type: 'quantity', value: 5.4, unit: 'mmol/L', version: 1, reason: 'Re-run on a fresh sample' },
      });
      assert.equal(corrected.status, 200, JSON.stringify(corrected.body));
    });

    it('never sends the escalation of a result acknowledged in time', async () => {
      clock.set(plus(60));
      const order = await criticalPotassium();
      const alert = only(await standing(ordering.token));
      const ack = await server.api('POST', `/api/lab/alerts/${alert.id}/acknowledge`, { token: ordering.token });
      assert.equal(ack.body.acknowledged, true);
      clock.set(plus(95));
      assert.deepEqual(
        (await settledMailsOf(order.orderNumber)).map((m) => [m.kind, m.status]),
        [
          ['critical_result', 'sent'],
          ['critical_result_escalation', 'skipped'],
        ],
      );
    });

    it('leaves an audit trail of every lab action that medora audit verify passes', async () => {
      const actions = await server.db.query<{ entity: string; action: string }>(
        `select distinct entity, action from audit_log
         where entity in ('lab_order', 'lab_specimen', 'observation', 'lab_report', 'lab_critical_alert')
         order by entity, action`,
      );
      assert.deepEqual(
        actions.map((a) => `${a.entity} ${a.action}`),
        [
          'lab_critical_alert acknowledge',
          'lab_order create',
          'lab_report finalize',
          'lab_report release',
          'lab_report review',
          'lab_specimen collect',
          'observation correct',
          'observation create',
        ],
      );
      await sealAll(server.db);
      let [stdout, stderr] = ['', ''];
      const code = await medora(['audit', 'verify'], {
        getApp: async () => server.app,
        getDb: async () => server.db,
        io: {
          stdout: { write: (text) => (stdout += text) },
          stderr: { write: (text) => (stderr += text) },
          stdin: Readable.from(['']),
        },
      });
      assert.equal(code, 0, stderr);
      assert.match(stdout, /^OK: \d+ audit rows, chain intact\.$/m);
    });
  });
}
