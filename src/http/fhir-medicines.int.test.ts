import assert from 'node:assert/strict';
import type {
  AllergyIntolerance,
  Bundle,
  CapabilityStatement,
  MedicationAdministration,
  MedicationRequest,
} from '@medplum/fhirtypes';
import { at as item, present } from '../testing/assert.ts';
import { danglingReferences, fhirClient, idsOf, matches } from '../testing/fhir.ts';
import { readBulkZip } from '../testing/fhir-bulk.ts';
import { labFixtures } from '../testing/lab-fixtures.ts';
import { medicinesClinic } from '../testing/medicines-fixtures.ts';
import { after, before, describe, it } from '../testing/node-test.ts';
import { testDatabases } from '../testing/test-db.ts';
import { usCoreMedicationCounts } from '../testing/us-core-medication.ts';

const MEDICINE_TYPES = ['Medication', 'MedicationRequest', 'MedicationAdministration', 'AllergyIntolerance'] as const;
type MedicineType = (typeof MEDICINE_TYPES)[number];

for (const target of testDatabases('one')) {
  describe(`medicines and allergies in the FHIR R4 API on ${target.name}`, () => {
    let c: Awaited<ReturnType<typeof medicinesClinic>>;
    let fhir: ReturnType<typeof fhirClient>;
    let patient: Awaited<ReturnType<typeof c.fx.patient>>;
    let other: Awaited<ReturnType<typeof c.fx.patient>>;
    let lab: { token: string };
    let stranger: { token: string };
    const ids = {} as Record<MedicineType, number>;
    let prescription: number;
    let noneKnown: number;

    before(async () => {
      c = await medicinesClinic(target);
      fhir = fhirClient(c.server);
      lab = await labFixtures(c.server, c.admin).technician();
      stranger = await c.fx.doctor('Dr. Stranger');
      patient = await c.fx.patient('Alma Allergic');
      other = await c.fx.patient('Nora None');
      const visit = await c.fx.appointment({ doctor: c.doctor, patientId: patient.patientId, date: '2026-05-04' });
      const allergy = await c.ok(
        'POST',
        `/api/patients/${patient.patientId}/allergies`,
        c.doctor.token,
        { substance: 'Penicillin', reaction: 'anaphylaxis', severity: 'severe' },
        201,
      );
      ids.AllergyIntolerance = allergy.id;
      await c.fx.appointment({ doctor: c.doctor, patientId: other.patientId, date: '2026-05-04' });
      noneKnown = (
        await c.ok(
          'POST',
          `/api/patients/${other.patientId}/allergies`,
          c.doctor.token,
          { no_known_allergies: true },
          201,
        )
      ).id;
      ids.Medication = c.medicine('Amoxicillin capsule');
      prescription = (
        await c.ok(
          'POST',
          '/api/medication-orders',
          c.doctor.token,
          {
            appointment_id: visit,
            medicine_id: ids.Medication,
            dose: 500,
            dose_unit: 'mg',
            route: 'oral',
            frequency: 'times_a_day',
            times_a_day: 3,
            duration_days: 7,
            quantity: 21,
            allergy_override_reason: 'Tolerated amoxicillin in 2024',
          },
          201,
        )
      ).id;
      const admission = await c.admit(patient.patientId);
      const order = await c.ok(
        'POST',
        '/api/medication-orders',
        c.doctor.token,
        {
          admission_id: admission,
          medicine_id: c.medicine('Ceftriaxone injection'),
          dose: 1,
          dose_unit: 'g',
          route: 'iv',
          frequency: 'every_hours',
          every_hours: 8,
          duration_days: 2,
          starts_at: '2026-05-04T06:00:00Z',
        },
        201,
      );
      ids.MedicationRequest = order.id;
      const doses = (await c.ok('GET', `/api/medication-orders/${order.id}`, c.doctor.token)).doses as { id: number }[];
      ids.MedicationAdministration = item(doses, 0).id;
      await c.ok('POST', `/api/medication-doses/${item(doses, 0).id}/record`, c.nurse.token, {
        outcome: 'given',
        dose: 1,
        dose_unit: 'g',
      });
      await c.ok('POST', `/api/medication-doses/${item(doses, 1).id}/record`, c.nurse.token, {
        outcome: 'held',
        reason: 'Nil by mouth before theatre',
      });
      await c.ok(
        'POST',
        '/api/medication-orders',
        c.doctor.token,
        {
          admission_id: admission,
          medicine_id: c.medicine('Paracetamol tablet'),
          dose: 1,
          dose_unit: 'g',
          route: 'oral',
          frequency: 'as_needed',
          min_interval_hours: 4,
          max_per_day: 4,
          duration_days: 3,
        },
        201,
      );
    });
    after(() => c.server.close());

    const search = async (query: string, token = c.admin.token) => {
      const res = await fhir.get<Bundle>(query, token, { prefer: 'handling=strict' });
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return res.body;
    };

    it('lists the four types with read, search and their parameters, each honoured', async () => {
      const metadata = await fhir.get<CapabilityStatement>('/metadata');
      const resources = metadata.body.rest?.[0]?.resource ?? [];
      for (const type of MEDICINE_TYPES) {
        const listed = present(
          resources.find((r) => r.type === type),
          type,
        );
        assert.deepEqual(
          listed.interaction?.map((i) => i.code),
          ['read', 'search-type'],
        );
        for (const p of listed.searchParam ?? []) {
          const value = p.type === 'date' ? 'ge2000-01-01' : p.type === 'reference' ? '1' : 'active';
          await search(`/${type}?${p.name}=${value}`);
        }
      }
      const medication = present(resources.find((r) => r.type === 'MedicationRequest'));
      assert.deepEqual(medication.searchInclude, ['MedicationRequest:medication']);
    });

    it('searches prescriptions, doses and allergies by patient, status and date', async () => {
      const p = patient.patientId;
      assert.equal(idsOf(await search(`/MedicationRequest?patient=${p}`)).length, 3);
      assert.deepEqual(idsOf(await search(`/MedicationRequest?patient=${p}&category=outpatient`)), [
        String(prescription),
      ]);
      assert.equal(idsOf(await search(`/MedicationRequest?patient=${p}&status=active`)).length, 3);
      assert.deepEqual(idsOf(await search(`/MedicationRequest?patient=${p}&status=stopped`)), []);
      assert.equal(idsOf(await search(`/MedicationRequest?patient=${p}&authoredon=2026-05-04`)).length, 3);
      assert.deepEqual(idsOf(await search(`/MedicationRequest?patient=${p}&authoredon=lt2026-05-04`)), []);
      const doses = matches<MedicationAdministration>(await search(`/MedicationAdministration?patient=${p}`));
      assert.deepEqual(doses.map((d) => d.status).sort(), ['completed', 'not-done']);
      assert.equal(idsOf(await search(`/MedicationAdministration?patient=${p}&status=not-done`)).length, 1);
      assert.equal(
        idsOf(await search(`/MedicationAdministration?request=${ids.MedicationRequest}&effective-time=2026-05-04`))
          .length,
        2,
      );
      const held = present(doses.find((d) => d.status === 'not-done'));
      assert.match(held.statusReason?.[0]?.text ?? '', /Nil by mouth/);
      assert.deepEqual(idsOf(await search(`/AllergyIntolerance?patient=${p}&clinical-status=active`)), [
        String(ids.AllergyIntolerance),
      ]);
      assert.deepEqual(idsOf(await search(`/AllergyIntolerance?patient=${p}&date=lt2026-05-04`)), []);
      const none = matches<AllergyIntolerance>(await search(`/AllergyIntolerance?patient=${other.patientId}`));
      assert.deepEqual(
        none.map((a) => [a.id, a.code?.coding?.[0]?.code]),
        [[String(noneKnown), '716186003']],
      );
    });

    it('includes the medicine of a prescription, and puts the medicines in $everything and its ZIP self-contained', async () => {
      const included = await search(`/MedicationRequest?_id=${prescription}&_include=MedicationRequest:medication`);
      assert.deepEqual(
        (included.entry ?? []).map((e) => `${e.resource?.resourceType}/${e.resource?.id}`),
        [`MedicationRequest/${prescription}`, `Medication/${ids.Medication}`],
      );
      const everything = (await fhir.pages(`/Patient/${patient.patientId}/$everything`, patient.token)).flatMap((b) =>
        (b.entry ?? []).flatMap((e) => (e.resource ? [e.resource] : [])),
      );
      const types = new Set(everything.map((r) => r.resourceType));
      for (const type of MEDICINE_TYPES) assert.ok(types.has(type), type);
      assert.deepEqual(
        danglingReferences(everything).filter((ref) => ref.startsWith('Medication')),
        [],
      );
      const res = await fetch(
        `${c.server.url}/fhir/R4/Patient/${patient.patientId}/$everything?_format=application/zip`,
        { headers: { authorization: `Bearer ${patient.token}` } },
      );
      assert.equal(res.status, 200);
      const zip = await readBulkZip(new Uint8Array(await res.arrayBuffer()));
      for (const type of MEDICINE_TYPES) assert.ok(zip.names.includes(`${type}.ndjson`), type);
    });

    it('shows an allergy override to the doctor and never to the patient', async () => {
      const path = `/MedicationRequest/${prescription}`;
      const doctors = await fhir.get<MedicationRequest>(path, c.doctor.token);
      assert.match(doctors.body.note?.[0]?.text ?? '', /Tolerated amoxicillin in 2024/);
      const own = await fhir.get<MedicationRequest>(path, patient.token);
      assert.equal(own.status, 200);
      assert.equal(own.body.note, undefined);
      const everything = (await fhir.pages(`/Patient/${patient.patientId}/$everything`, patient.token)).flatMap((b) =>
        JSON.stringify(b),
      );
      assert.ok(!everything.join('').includes('Tolerated amoxicillin'));
    });

    it('gives each identity the medicines its access says: patients their own, doctors by care team, nurses by ward', async () => {
      const identities: Record<string, string | undefined> = {
        anonymous: undefined,
        patient: patient.token,
        'another patient': other.token,
        reception: c.desk.token,
        lab: lab.token,
        'care-team doctor': c.doctor.token,
        'other doctor': stranger.token,
        'ward nurse': c.nurse.token,
        'other ward nurse': c.nurseElsewhere.token,
        admin: c.admin.token,
      };
      // [search status, matches of the patient's; read status]
      const own: Record<MedicineType, [number, number, number]> = {
        Medication: [200, 1, 200],
        MedicationRequest: [200, 3, 200],
        MedicationAdministration: [200, 2, 200],
        AllergyIntolerance: [200, 1, 200],
      };
      const none: Record<MedicineType, [number, number, number]> = {
        Medication: [200, 1, 200],
        MedicationRequest: [200, 0, 404],
        MedicationAdministration: [200, 0, 404],
        AllergyIntolerance: [200, 0, 404],
      };
      const all = (status: number): Record<MedicineType, [number, number, number]> => ({
        Medication: [status, 0, status],
        MedicationRequest: [status, 0, status],
        MedicationAdministration: [status, 0, status],
        AllergyIntolerance: [status, 0, status],
      });
      const expected = {
        anonymous: all(401),
        patient: own,
        'another patient': none,
        reception: all(403),
        lab: all(403),
        'care-team doctor': own,
        'other doctor': none,
        'ward nurse': own,
        'other ward nurse': none,
        admin: own,
      };
      const seen: Record<string, Record<string, [number, number, number]>> = {};
      for (const [who, token] of Object.entries(identities)) {
        const row: Record<string, [number, number, number]> = {};
        for (const type of MEDICINE_TYPES) {
          const query = type === 'Medication' ? `_id=${ids.Medication}` : `patient=${patient.patientId}`;
          const found = await fhir.get<Bundle>(`/${type}?${query}`, token);
          const read = await fhir.get(`/${type}/${ids[type]}`, token);
          row[type] = [found.status, found.status === 200 ? matches(found.body).length : 0, read.status];
        }
        seen[who] = row;
      }
      assert.deepEqual(seen, expected);
    });

    it('validates every medicine resource it produced against R4, and each MedicationRequest against US Core 5.0.1', () => {
      // fhir-validate.ts checks each answer the suite receives (src/testing/us-core-medication.ts); here, that it did.
      assert.ok(usCoreMedicationCounts.medicationRequests >= 10, JSON.stringify(usCoreMedicationCounts));
    });
  });
}
