import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fixedClock, signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';
import { seedRecordedVisits } from './seed.ts';

// Seeded through the app, above the database: on one engine, the server when TEST_DATABASE_URL is set (PGlite boots
// in seconds of CPU time). The demo template the CLI tests copy is seeded on PGlite by `medora seed --demo`.
for (const target of testDatabases('one')) {
  describe(`demo recorded visits on ${target.name}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(target, { clock: fixedClock('2026-06-10T10:00:00Z') });
    });
    after(() => server.close());

    it("completes the demo patient's past appointments with records and both paid and unpaid bills", async () => {
      const fx = clinicFixtures(server);
      const doctor = await fx.doctor();
      const patient = await fx.patient('Paula Patient', 'patient@medora.test');
      for (const name of ['Influenza', 'Hypertension', 'Type 2 Diabetes']) await fx.disease(name);
      for (const date of ['2026-05-04', '2026-05-11', '2026-05-18', '2026-05-25'])
        await fx.appointment({ doctor, patientId: patient.patientId, date });
      const upcoming = await fx.appointment({ doctor, patientId: patient.patientId, date: '2026-06-15' });

      const admin = await signUpAdmin(server);
      await seedRecordedVisits(server.app, server.db, { userId: admin.user.id, role: 'admin', name: admin.user.name });

      const statuses = await server.db.query(
        `select payment_status, count(*)::int as n from billings where patient_id = $1 group by payment_status order by payment_status`,
        [patient.patientId],
      );
      assert.deepEqual(statuses, [
        { payment_status: 'paid', n: 2 },
        { payment_status: 'unpaid', n: 2 },
      ]);
      const diseases = await server.db.query(
        `select s.name from medical_records r join diseases s on s.id = r.disease_id where r.patient_id = $1 order by r.record_date`,
        [patient.patientId],
      );
      assert.deepEqual(
        diseases.map((d) => d.name),
        ['Influenza', 'Hypertension', 'Hypertension', 'Type 2 Diabetes'],
      );
      assert.equal(await fx.appointmentStatus(upcoming), 'scheduled');
    });
  });
}
