import assert from 'node:assert/strict';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { after, before, describe, it } from '../testing/node-test.ts';
import { only } from '../testing/assert.ts';
import { danglingReferences, fhirClient } from '../testing/fhir.ts';
import { readBulkZip } from '../testing/fhir-bulk.ts';
import { fixedClock, startTestServer, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';

const NOW = '2026-06-10T18:00:00Z';
// The fixtures' doctors work Mondays at 09:00: the visits take those slots.
const MONDAY = '2026-06-08';

const entriesOf = (bundles: Bundle[]): Resource[] =>
  bundles.flatMap((b) => (b.entry ?? []).flatMap((e) => (e.resource ? [e.resource] : [])));

for (const target of testDatabases('one')) {
  describe(`FHIR for integrators on ${target.name}`, () => {
    let server: TestServer;
    let fx: ReturnType<typeof clinicFixtures>;
    let fhir: ReturnType<typeof fhirClient>;
    let doctor: Awaited<ReturnType<typeof fx.doctor>>;
    let patient: Awaited<ReturnType<typeof fx.patient>>;
    let other: Awaited<ReturnType<typeof fx.patient>>;
    let visit: number;

    const one = async (sql: string, params: unknown[] = []) =>
      only(await server.db.query<{ id: number }>(sql, params)).id;

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      fx = clinicFixtures(server);
      fhir = fhirClient(server);
      doctor = await fx.doctor('Dr. Meredith Grey');
      patient = await fx.patient('Paula Patient');
      other = await fx.patient('Bert Other');
      const department = await one(
        `insert into departments (name, description) values ('Cardiology', 'Hearts') returning id`,
      );
      const specialization = await one(`insert into specializations (name) values ('Cardiologist') returning id`);
      const room = await one(`insert into rooms (name, department_id) values ('Room 1', $1) returning id`, [
        department,
      ]);
      await server.db.query('update doctors set department_id = $1, specialization_id = $2 where id = $3', [
        department,
        specialization,
        doctor.doctorId,
      ]);
      await server.db.query('update schedules set room_id = $1 where id = $2', [room, doctor.scheduleId]);
      const flu = await fx.disease('Influenza');
      visit = await fx.appointment({ doctor, patientId: patient.patientId, date: MONDAY, start: '09:00' });
      await fx.appointment({
        doctor,
        patientId: patient.patientId,
        date: '2025-01-13',
        start: '09:00',
        status: 'completed',
      });
      await fx.appointment({ doctor, patientId: other.patientId, date: '2026-06-15', start: '09:00' });
      const recorded = await server.api('POST', `/api/doctor/appointments/${visit}/medical-record`, {
        token: doctor.token,
        body: {
          disease_id: flu,
          diagnosis: 'Seasonal flu',
          lab_tests: '',
          prescriptions: 'Rest',
          service_type: 'Consultation',
          cost: '120.50',
        },
      });
      assert.equal(recorded.status, 201, JSON.stringify(recorded.body));
      const ward = await one(`insert into departments (name, description) values ('Surgery', 'Ops') returning id`);
      const wardRoom = await one(`insert into rooms (name, department_id) values ('Ward 3', $1) returning id`, [ward]);
      const bed = await one(`insert into beds (room_id, label) values ($1, 'A') returning id`, [wardRoom]);
      const stay = await one(
        `insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, status, bed_id,
                                 requested_at, reserved_at, admitted_at, discharge_ordered_at, discharged_at)
         values ($1, $2, $3, 2, 'Appendectomy', 'discharged', $4, '2026-06-01T08:00Z', '2026-06-01T09:00Z',
                 '2026-06-01T10:00Z', '2026-06-03T08:00Z', '2026-06-03T10:00Z') returning id`,
        [patient.patientId, ward, doctor.doctorId, bed],
      );
      await server.db.query(
        `insert into bed_stays (admission_id, bed_id, nightly_rate_cents, started_at, ended_at, ended_by)
         values ($1, $2, 0, '2026-06-01T10:00Z', '2026-06-03T10:00Z', 'discharge')`,
        [stay, bed],
      );
    });
    after(() => server.close());

    describe('self-contained', () => {
      it('includes in $everything every resource its resources refer to: no reference dangles, for each reader', async () => {
        for (const token of [patient.token, doctor.token]) {
          const bundles = await fhir.pages(`/Patient/${patient.patientId}/$everything`, token);
          const resources = entriesOf(bundles).filter((r) => r.resourceType !== 'OperationOutcome');
          assert.deepEqual(danglingReferences(resources), []);
          const types = new Set<string>(resources.map((r) => r.resourceType));
          for (const type of ['Practitioner', 'PractitionerRole', 'Organization', 'Location', 'Schedule', 'Slot'])
            assert.ok(types.has(type), `${type} included`);
          const included = bundles.flatMap((b) => b.entry ?? []).filter((e) => e.search?.mode === 'include');
          assert.ok(included.length > 0);
          assert.ok(
            included.every((e) => e.resource?.resourceType !== 'Patient'),
            'only what the compartment refers to',
          );
        }
        const paged = await fhir.pages(`/Patient/${patient.patientId}/$everything?_count=2`, patient.token);
        assert.deepEqual(danglingReferences(entriesOf(paged)), [], 'paged by two, the pages together');
      });

      it('downloads a ZIP whose references all resolve inside it', async () => {
        const path = `/fhir/R4/Patient/${patient.patientId}/$everything?_format=application/zip`;
        const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${patient.token}` } });
        assert.equal(res.status, 200);
        const zip = await readBulkZip(new Uint8Array(await res.arrayBuffer()));
        const resources = Object.values(zip.files).flat();
        assert.deepEqual(danglingReferences(resources), []);
        assert.equal(new Set(resources.map((r) => `${r.resourceType}/${r.id}`)).size, resources.length, 'each once');
        assert.ok(resources.some((r) => r.resourceType === 'Slot'));
      });
    });
  });
}
