import assert from 'node:assert/strict';
import { after, before, describe, it } from '../testing/node-test.ts';
import { only } from '../testing/assert.ts';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { assertValidFhir } from '../testing/fhir-validate.ts';
import { testDatabases } from '../testing/test-db.ts';

for (const target of testDatabases()) {
  describe(`medora fhir export on ${target.name}`, () => {
    let cli: CliDatabase;
    let patientId: number;
    let appointmentId: number;

    before(async () => {
      cli = await openCliDatabase(target);
      const one = async (sql: string, params: unknown[] = []) => only(await cli.db.query<{ id: number }>(sql, params)).id;
      const patientUser = await one(`insert into users (name, email, password_hash, role) values ('Paula Patient', 'paula@example.test', 'x', 'patient') returning id`);
      patientId = await one(`insert into patients (user_id, gender, birthdate) values ($1, 'female', '1990-05-17') returning id`, [patientUser]);
      const doctorUser = await one(`insert into users (name, email, password_hash, role) values ('Dr. Grey', 'grey@example.test', 'x', 'doctor') returning id`);
      const doctorId = await one('insert into doctors (user_id) values ($1) returning id', [doctorUser]);
      const scheduleId = await one(`insert into schedules (doctor_id, weekday, start_time, end_time) values ($1, 1, '09:00', '09:30') returning id`, [doctorId]);
      appointmentId = await one(
        `insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time, status)
         values ($1, $2, $3, '2026-06-08', '09:00', '09:30', 'checked_in') returning id`,
        [patientId, doctorId, scheduleId],
      );
    });
    after(() => cli.drop());

    it("writes the patient's record as NDJSON, one valid R4 resource a line", async () => {
      const run = await cli.medora(['fhir', 'export', '--patient', String(patientId)]);
      assert.equal(run.code, 0, run.stderr);
      const resources = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
      resources.forEach(assertValidFhir);
      assert.deepEqual(resources.map((r) => `${r.resourceType}/${r.id}`), [`Patient/${patientId}`, `Appointment/${appointmentId}`, `Encounter/${appointmentId}`]);
    });

    it('answers an unknown patient with an error and exit code 1', async () => {
      const run = await cli.medora(['fhir', 'export', '--patient', '999999']);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /not found/);
    });
  });
}
