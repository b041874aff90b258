import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { at, only, present } from '../testing/assert.ts';
import { signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { labFixtures } from '../testing/lab-fixtures.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { movableClock } from '../testing/scheduling-fakes.ts';
import { testDatabases } from '../testing/test-db.ts';

// Critical values after 30 minutes unacknowledged (issue 48): the ordering doctor's department sees and may
// acknowledge them, exactly once however many acknowledge at once. The clock is moved, never waited for.
for (const target of testDatabases('both')) {
  describe(`critical results escalated to the department on ${target.name}`, () => {
    let server: TestServer;
    const clock = movableClock('2026-05-04T08:00:00Z');

    before(async () => {
      server = await startTestServer(target, { clock });
    });
    after(() => server.close());

    it('lets the department acknowledge after 30 minutes, once of 20 at once, and nobody outside it', async () => {
      const fx = clinicFixtures(server);
      const lab = labFixtures(server, await signUpAdmin(server));
      const orderer = await fx.doctor('Dr. Order');
      const colleague = await fx.doctor('Dr. Colleague');
      const other = await fx.doctor('Dr. Other');
      const stranger = await fx.doctor('Dr. Elsewhere');
      await lab.department('Cardiology', [orderer, colleague, other]);
      await lab.department('Dermatology', [stranger]);
      const patient = await fx.patient('Kai Kalium');

      clock.set('2026-05-04T08:00:00Z');
      const appointmentId = await fx.appointment({
        doctor: orderer,
        patientId: patient.patientId,
        date: '2026-05-04',
      });
      const order = await lab.order({
        doctor: orderer,
        appointmentId,
        results: { '2823-3': { type: 'quantity', value: 7.2, unit: 'mmol/L' } },
      });
      const [alert] = await server.db.query<{ id: number }>(
        'select id from lab_critical_alerts where observation_id = $1',
        [order.observations['2823-3']],
      );
      const alertId = present(alert).id;
      /** The critical results standing on the doctor's day. */
      const standing = async (who: { token: string }) =>
        (await lab.ok('GET', '/api/doctor/critical-alerts', who.token)).alerts as {
          id: number;
          order_number: string;
          patient: { name: string };
          test: string;
          ordering_doctor: { name: string };
          value: number;
          interpretation: string;
          escalates_at: string;
          escalated: boolean;
          yours: boolean;
        }[];
      const acknowledge = (who: { token: string }) =>
        server.api('POST', `/api/lab/alerts/${alertId}/acknowledge`, { token: who.token });

      clock.set('2026-05-04T08:29:59Z');
      assert.deepEqual(await standing(colleague), []);
      assert.equal((await acknowledge(colleague)).status, 404);
      const own = only(await standing(orderer));
      assert.deepEqual([own.id, own.yours, own.escalated], [alertId, true, false], 'the ordering doctor’s at once');

      clock.set('2026-05-04T08:30:00Z');
      const seen = only(await standing(colleague));
      assert.deepEqual(
        [
          seen.id,
          seen.order_number,
          seen.patient.name,
          seen.test,
          seen.ordering_doctor.name,
          seen.value,
          seen.interpretation,
          seen.escalates_at,
          seen.escalated,
          seen.yours,
        ],
        [
          alertId,
          order.orderNumber,
          'Kai Kalium',
          'Potassium',
          'Dr. Order',
          7.2,
          'HH',
          '2026-05-04T08:30:00.000Z',
          true,
          false,
        ],
      );
      assert.deepEqual(await standing(stranger), []);
      assert.equal((await acknowledge(stranger)).status, 404);

      // Twenty acknowledgements at once, by the colleagues and the orderer: one is recorded, and one audit row.
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => acknowledge(at([colleague, other, orderer], i % 3))),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        Array(20).fill(200),
      );
      assert.equal(answers.filter((a) => a.body.acknowledged).length, 1);
      const rows = await server.db.query('select 1 from lab_critical_acknowledgements where alert_id = $1', [alertId]);
      assert.equal(rows.length, 1);
      const audited = await server.db.query(
        `select 1 from audit_log where entity = 'lab_critical_alert' and entity_id = $1 and action = 'acknowledge'`,
        [String(alertId)],
      );
      assert.equal(audited.length, 1);
      for (const doctor of [colleague, other, orderer]) assert.deepEqual(await standing(doctor), []);
    });
  });
}
