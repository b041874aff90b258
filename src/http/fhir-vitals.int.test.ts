import assert from 'node:assert/strict';
import type { Bundle, Observation } from '@medplum/fhirtypes';
import { after, before, describe, it } from '../testing/node-test.ts';
import { present } from '../testing/assert.ts';
import { fhirClient, matches } from '../testing/fhir.ts';
import { fixedClock, signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';
import { vitalProfileCounts } from '../testing/vital-sign-profiles.ts';

const NOW = '2026-05-04T08:00:00Z';
/** Every vital the set form takes; NEWS2 3 + 2 + 2 + 2 + 2 + 0 + 1 = 12. */
const SET = {
  systolic: 98,
  diastolic: 60,
  heart_rate: 118,
  respiratory_rate: 26,
  temperature: 38.6,
  spo2: 93,
  on_oxygen: true,
  consciousness: 'A',
  weight: 70,
  height: 175,
  pain_score: 4,
};

for (const target of testDatabases('one')) {
  describe(`vital signs, NEWS2 and fluid balance in the FHIR R4 API on ${target.name}`, () => {
    let server: TestServer;
    let fhir: ReturnType<typeof fhirClient>;
    let admin: { token: string };
    let doctor: { token: string; doctorId: number };
    let stranger: { token: string };
    let nurse: { token: string };
    let patient: { token: string; patientId: number };
    let setId: number;

    const observations = async (query: string, token = admin.token) => {
      const res = await fhir.get<Bundle>(`/Observation?${query}`, token, { prefer: 'handling=strict' });
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return matches(res.body) as Observation[];
    };
    const codes = (list: Observation[]) => list.map((o) => o.code?.coding?.[0]?.code ?? '').sort();

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      const fx = clinicFixtures(server);
      fhir = fhirClient(server);
      admin = await signUpAdmin(server);
      const ward = await fx.ward('FHIR Ward', 1);
      doctor = await fx.doctor('Dr. Chart');
      stranger = await fx.doctor('Dr. Stranger');
      nurse = await fx.nurse(ward.departmentId, 'Nina Nurse');
      patient = await fx.patient('Walter Ward');
      const admissionId = await fx.admit({
        patientId: patient.patientId,
        doctorId: doctor.doctorId,
        departmentId: ward.departmentId,
        bedId: present(ward.bedIds[0]),
        at: '2026-05-03T10:00:00Z',
      });
      const recorded = await server.api('POST', '/api/vitals/sets', {
        token: nurse.token,
        body: { admission_id: admissionId, ...SET },
      });
      assert.equal(recorded.status, 201, JSON.stringify(recorded.body));
      setId = recorded.body.id;
      for (const fluid of [
        { kind: 'intake', route: 'oral', volume_ml: 250 },
        { kind: 'output', route: 'urine', volume_ml: 400 },
      ]) {
        const res = await server.api('POST', `/api/admissions/${admissionId}/fluids`, {
          token: nurse.token,
          body: fluid,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
      }
    });
    after(() => server.close());

    it('answers a set as vital-sign Observations coded as R4’s profiles, blood pressure as one with two components', async () => {
      const vitals = await observations(`patient=${patient.patientId}&category=vital-signs`);
      assert.deepEqual(
        codes(vitals),
        ['29463-7', '39156-5', '72514-3', '8302-2', '8310-5', '85354-9', '8867-4', '9279-1', '2708-6'].sort(),
      );
      const bp = present(vitals.find((o) => o.code?.coding?.[0]?.code === '85354-9'));
      assert.deepEqual(
        bp.component?.map((c) => [c.code.coding?.[0]?.code, c.valueQuantity?.value, c.valueQuantity?.code]),
        [
          ['8480-6', 98, 'mm[Hg]'],
          ['8462-4', 60, 'mm[Hg]'],
        ],
      );
      assert.equal(bp.valueQuantity, undefined);
      assert.deepEqual(bp.meta?.profile, [
        'http://hl7.org/fhir/StructureDefinition/vitalsigns',
        'http://hl7.org/fhir/StructureDefinition/bp',
      ]);
      assert.equal(bp.encounter?.reference?.startsWith('Encounter/stay-'), true);
      const spo2 = present(vitals.find((o) => o.code?.coding?.[0]?.code === '2708-6'));
      assert.deepEqual(
        spo2.code?.coding?.map((c) => c.code),
        ['2708-6', '59408-5'],
      );
      assert.deepEqual(codes(await observations(`patient=${patient.patientId}&category=exam`)), [
        '67775-7',
        'fluid-intake',
        'fluid-output',
        'inspired-oxygen',
      ]);
    });

    it('answers NEWS2 as an Observation of its total with each parameter’s score, searchable by code and date', async () => {
      const [news2] = await observations(`patient=${patient.patientId}&code=http://snomed.info/sct|1104051000000101`);
      assert.equal(present(news2).id, `news2-${setId}`);
      assert.equal(present(news2).valueQuantity?.value, 12);
      assert.deepEqual(
        present(news2).component?.map((c) => c.valueQuantity?.value ?? c.valueString),
        [3, 2, 2, 2, 2, 0, 1, 'high'],
      );
      const read = await fhir.get<Observation>(`/Observation/news2-${setId}`, admin.token);
      assert.equal(read.status, 200);
      assert.equal(
        (await observations(`patient=${patient.patientId}&code=8867-4&date=ge2026-05-04T07:00:00Z`)).length,
        1,
      );
      assert.equal(
        (await observations(`patient=${patient.patientId}&code=8867-4&date=lt2026-05-04T07:00:00Z`)).length,
        0,
      );
      const fluids = await observations(`patient=${patient.patientId}&code=fluid-output`);
      assert.deepEqual(
        fluids.map((o) => [o.valueQuantity?.value, o.valueQuantity?.code, o.method?.text]),
        [[400, 'mL', 'urine']],
      );
    });

    it('gives them to the patient and the care team, in $everything, and to no stranger', async () => {
      const all = await observations(`patient=${patient.patientId}`);
      assert.equal(all.length, 14);
      assert.equal((await observations(`patient=${patient.patientId}`, doctor.token)).length, 14);
      assert.equal((await observations(`patient=${patient.patientId}`, patient.token)).length, 14);
      assert.equal((await observations(`patient=${patient.patientId}`, stranger.token)).length, 0);
      assert.equal((await fhir.get<Bundle>('/Observation', nurse.token)).status, 403);
      const everything = (await fhir.pages(`/Patient/${patient.patientId}/$everything`, patient.token)).flatMap((b) =>
        matches(b).filter((r) => r.resourceType === 'Observation'),
      );
      assert.equal(everything.length, 14);
    });

    it('validates every vital sign against R4’s vital signs profiles, blood pressure against US Core’s, and counts them', () => {
      assert.ok(vitalProfileCounts.resources >= 9);
      assert.ok(vitalProfileCounts.usCoreBloodPressure >= 1);
    });
  });
}
