import { after, before, describe, it as itOnEveryEngine } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { only, present } from '../testing/assert.ts';
import { signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { labFixtures } from '../testing/lab-fixtures.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { onOneDatabase, testDatabases } from '../testing/test-db.ts';

// What the patient is shown of a corrected result (historySinceRelease, src/domain/lab/reports.ts): never a value
// corrected before release, whatever order release and correction come in.
for (const target of testDatabases('both')) {
  describe(`a patient's results as corrections and release come on ${target.name}`, () => {
    // `it` registers a test on the database testDatabases('one') gives alone: above the database, the engines do not
    // differ. Release racing a correction, settled by the order's row lock, runs on both (itOnEveryEngine).
    const it = onOneDatabase(target, itOnEveryEngine);
    let server: TestServer;
    // Each reading of the clock is a second on: what happened later has a later time, as with a real clock.
    let now = Date.parse('2026-05-04T08:00:00Z');
    const clock = {
      now: () => {
        now += 1000;
        return new Date(now);
      },
    };
    let setup: Awaited<ReturnType<typeof signUp>>;

    async function signUp() {
      const fx = clinicFixtures(server);
      const lab = labFixtures(server, await signUpAdmin(server));
      const technician = await lab.technician();
      const doctor = await fx.doctor('Dr. Order');
      const patient = await fx.patient('Pia Potassium');
      /** A potassium of 7 mmol/L, signed off. */
      const signedOff = async () => {
        const appointmentId = await fx.appointment({ doctor, patientId: patient.patientId, date: '2026-05-04' });
        const order = await lab.order({
          doctor,
          appointmentId,
          results: { '2823-3': { type: 'quantity', value: 7, unit: 'mmol/L' } },
        });
        return { ...order, observationId: present(order.observations['2823-3']) };
      };
      const correct = (order: { observationId: number }, version: number, value: number) =>
        server.api('POST', `/api/lab/results/${order.observationId}/correct`, {
          token: technician.token,
          body: { type: 'quantity', value, unit: 'mmol/L', version, reason: `Recalibrated to ${value}` },
        });
      const release = (order: { id: number }) =>
        server.api('POST', `/api/lab/orders/${order.id}/release`, { token: doctor.token });
      /** The patient's result of the order: its value now and the history they are shown. */
      const mine = async (order: { orderNumber: string }) => {
        const answer = await lab.ok('GET', '/api/patient/lab-results', patient.token);
        const result = only(
          (answer.results as { order_number: string; value: number; history: { value: number }[] }[]).filter(
            (r) => r.order_number === order.orderNumber,
          ),
        );
        return { value: result.value, history: result.history.map((h) => h.value), json: JSON.stringify(result) };
      };
      return { lab, signedOff, correct, release, mine };
    }

    before(async () => {
      server = await startTestServer(target, { clock });
      setup = await signUp();
    });
    after(() => server.close());

    it('never shows the patient a value corrected before release', async () => {
      const order = await setup.signedOff();
      assert.equal((await setup.correct(order, 1, 5.4)).status, 200);
      assert.equal((await setup.release(order)).status, 200);
      const seen = await setup.mine(order);
      assert.deepEqual([seen.value, seen.history], [5.4, []]);
      assert.doesNotMatch(seen.json, /"value":7\b/);
    });

    it('shows the released value and each correction after release, still never the one before', async () => {
      const order = await setup.signedOff();
      assert.equal((await setup.correct(order, 1, 5.4)).status, 200);
      assert.equal((await setup.release(order)).status, 200);
      assert.equal((await setup.correct(order, 2, 5.0)).status, 200);
      assert.equal((await setup.correct(order, 3, 4.8)).status, 200);
      const seen = await setup.mine(order);
      assert.deepEqual([seen.value, seen.history], [4.8, [5.4, 5.0, 4.8]]);
      assert.doesNotMatch(seen.json, /"value":7\b/);
    });

    itOnEveryEngine('never shows a value corrected before release when release races the correction', async () => {
      for (let round = 0; round < 6; round++) {
        const order = await setup.signedOff();
        const [corrected, released] = await Promise.all([setup.correct(order, 1, 5.4), setup.release(order)]);
        assert.deepEqual([corrected.status, released.status], [200, 200]);
        // The order's lock put one first; the audit trail says which.
        const steps = await server.db.query<{ action: string }>(
          `select action from audit_log
           where (action = 'correct' and entity = 'observation' and entity_id = $1)
              or (action = 'release' and entity = 'lab_report'
                  and entity_id = (select id::text from lab_reports where order_id = $2))
           order by id`,
          [String(order.observationId), order.id],
        );
        assert.deepEqual(steps.map((s) => s.action).sort(), ['correct', 'release']);
        const seen = await setup.mine(order);
        assert.equal(seen.value, 5.4);
        if (steps[0]?.action === 'correct') {
          assert.deepEqual(seen.history, [], `round ${round}: corrected, then released`);
          assert.doesNotMatch(seen.json, /"value":7\b/, `round ${round}`);
        } else {
          assert.deepEqual(seen.history, [7, 5.4], `round ${round}: released as 7, then corrected`);
        }
      }
    });
  });
}
