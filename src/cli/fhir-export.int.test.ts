import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from '../testing/node-test.ts';
import { only } from '../testing/assert.ts';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { danglingReferences } from '../testing/fhir.ts';
import { readBulkFiles } from '../testing/fhir-bulk.ts';
import { testDatabases } from '../testing/test-db.ts';

for (const target of testDatabases('one')) {
  describe(`medora export patient on ${target.name}`, () => {
    let cli: CliDatabase;
    let patientId: number;
    let appointmentId: number;
    let dir: string;

    before(async () => {
      cli = await openCliDatabase(target);
      dir = await mkdtemp(join(tmpdir(), 'medora-export-'));
      const one = async (sql: string, params: unknown[] = []) =>
        only(await cli.db.query<{ id: number }>(sql, params)).id;
      const patientUser = await one(
        `insert into users (name, email, password_hash, role) values ('Paula Patient', 'paula@example.test', 'x', 'patient') returning id`,
      );
      patientId = await one(
        `insert into patients (user_id, gender, birthdate) values ($1, 'female', '1990-05-17') returning id`,
        [patientUser],
      );
      const doctorUser = await one(
        `insert into users (name, email, password_hash, role) values ('Dr. Grey', 'grey@example.test', 'x', 'doctor') returning id`,
      );
      const doctorId = await one('insert into doctors (user_id) values ($1) returning id', [doctorUser]);
      const scheduleId = await one(
        `insert into schedules (doctor_id, weekday, start_time, end_time) values ($1, 1, '09:00', '09:30') returning id`,
        [doctorId],
      );
      appointmentId = await one(
        `insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time, status)
         values ($1, $2, $3, '2026-06-08', '09:00', '09:30', 'checked_in') returning id`,
        [patientId, doctorId, scheduleId],
      );
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
      await cli.drop();
    });

    it("writes the patient's record to DIR as one NDJSON file per type and a Bulk Data manifest, owner-only, audited", async () => {
      const out = join(dir, 'paula');
      const run = await cli.medora(['export', 'patient', String(patientId), '--out', out]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout.trim(), join(out, 'manifest.json'));
      assert.deepEqual((await readdir(out)).sort(), [
        'Appointment.ndjson',
        'Encounter.ndjson',
        'Organization.ndjson',
        'Patient.ndjson',
        'Practitioner.ndjson',
        'PractitionerRole.ndjson',
        'Schedule.ndjson',
        'Slot.ndjson',
        'manifest.json',
      ]);
      const texts = new Map(
        await Promise.all(
          (await readdir(out)).map(async (name) => [name, await readFile(join(out, name), 'utf8')] as const),
        ),
      );
      const exported = readBulkFiles(texts.get('manifest.json') ?? '', (name) => texts.get(name) ?? '');
      assert.deepEqual(
        exported.manifest.output,
        [
          'Patient',
          'Appointment',
          'Encounter',
          'Practitioner',
          'PractitionerRole',
          'Organization',
          'Schedule',
          'Slot',
        ].map((type) => ({
          type,
          url: pathToFileURL(join(out, `${type}.ndjson`)).href,
          count: 1,
        })),
      );
      const resources = Object.values(exported.files).flat();
      assert.deepEqual(
        resources.slice(0, 3).map((r) => `${r.resourceType}/${r.id}`),
        [`Patient/${patientId}`, `Appointment/${appointmentId}`, `Encounter/${appointmentId}`],
      );
      assert.deepEqual(danglingReferences(resources), [], 'self-contained');
      // No PUBLIC_URL here: the systems and the kick-off are named under the fixed URN, no made-up localhost:3000.
      const [exportedPatient] = exported.files.Patient as { identifier: { system: string }[] }[];
      assert.deepEqual(
        exportedPatient?.identifier.map((i) => i.system),
        ['urn:medora:fhir/NamingSystem/patient-id'],
      );
      assert.match(exported.manifest.request, /^urn:medora:fhir\/Patient\/\d+\/\$everything\?/);
      assert.equal((await stat(join(out, 'Patient.ndjson'))).mode & 0o777, 0o600);
      assert.equal((await stat(out)).mode & 0o777, 0o700);
      const audited = await cli.db.query(`select 1 from audit_log where action = 'export' and entity_id = $1`, [
        String(patientId),
      ]);
      assert.equal(audited.length, 1);
    });

    it('answers an unknown patient with an error and exit code 1, writing nothing', async () => {
      const out = join(dir, 'nobody');
      const run = await cli.medora(['export', 'patient', '999999', '--out', out]);
      assert.equal(run.code, 1);
      assert.match(run.stderr, /not found/);
      await assert.rejects(stat(out));
    });

    it('refuses a malformed id as a usage error', async () => {
      assert.equal((await cli.medora(['export', 'patient', 'x', '--out', dir])).code, 2);
    });
  });
}
