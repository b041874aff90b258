import assert from 'node:assert/strict';
import type { Bundle, CapabilityStatement, DiagnosticReport, Observation, ServiceRequest } from '@medplum/fhirtypes';
import { after, before, describe, it } from '../testing/node-test.ts';
import { present } from '../testing/assert.ts';
import { fhirClient, idsOf, matches } from '../testing/fhir.ts';
import { readBulkZip } from '../testing/fhir-bulk.ts';
import { labFixtures } from '../testing/lab-fixtures.ts';
import {
  PASSWORD,
  fixedClock,
  signIn,
  signUpAdmin,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';
import { knownLoincCodes, usCoreLabCounts } from '../testing/us-core-lab.ts';

const NOW = '2026-06-10T18:00:00Z';
const TODAY = '2026-06-10';
const LAB_TYPES = ['ServiceRequest', 'Specimen', 'Observation', 'DiagnosticReport'] as const;

for (const target of testDatabases('one')) {
  describe(`lab orders and results in the FHIR R4 API on ${target.name}`, () => {
    let server: TestServer;
    let fhir: ReturnType<typeof fhirClient>;
    let admin: { token: string };
    let reception: { token: string };
    let lab: { token: string };
    let doctor: { token: string; doctorId: number };
    let outsider: { token: string };
    let patient: { token: string; patientId: number };
    let other: { token: string; patientId: number };
    /** Released: potassium (corrected after release), glucose, hCG; a chest X-ray; final not released; preliminary. */
    let released: Awaited<ReturnType<ReturnType<typeof labFixtures>['order']>>;
    let imaging: typeof released;
    let unreleased: typeof released;
    let preliminary: typeof released;

    const staff = async (path: string, name: string) => {
      const email = uniqueEmail(name.toLowerCase().replace(/\W/g, ''));
      const res = await server.api('POST', path, { token: admin.token, body: { name, email, password: PASSWORD } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return signIn(server, email);
    };
    const search = async (query: string, token = admin.token) => {
      const res = await fhir.get<Bundle>(query, token, { prefer: 'handling=strict' });
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return idsOf(res.body).sort();
    };
    const everythingKeys = async (token: string) =>
      (await fhir.pages(`/Patient/${patient.patientId}/$everything`, token))
        .flatMap((b) => matches(b).map((r) => `${r.resourceType}/${r.id}`))
        .sort();
    const labKeys = (keys: string[]) => keys.filter((k) => /^(Observation|DiagnosticReport)\//.test(k));

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      const fx = clinicFixtures(server);
      fhir = fhirClient(server);
      admin = await signUpAdmin(server);
      reception = await staff('/api/admin/receptionists', 'Rita Reception');
      const labs = labFixtures(server, admin);
      lab = await labs.technician();
      for (const code of await labs.loincCodes()) knownLoincCodes.add(code);
      const grey = await fx.doctor('Dr. Grey');
      doctor = grey;
      outsider = await fx.doctor('Dr. Outside');
      patient = await fx.patient('Lena Lab');
      other = await fx.patient('Otto Other');
      await server.db.query(`update patients set gender = 'female', birthdate = '1980-05-01' where id = $1`, [
        patient.patientId,
      ]);
      const visit = () => fx.appointment({ doctor: grey, patientId: patient.patientId, date: TODAY });
      released = await labs.order({
        doctor,
        appointmentId: await visit(),
        results: {
          '2823-3': { type: 'quantity', value: 4.2, unit: 'mmol/L' },
          '2345-7': { type: 'quantity', value: 1.1, unit: 'g/L' },
          '2106-3': { type: 'coded', code: 'negative' },
        },
        release: true,
      });
      const corrected = await server.api('POST', `/api/lab/results/${released.observations['2823-3']}/correct`, {
        token: lab.token,
        body: { type: 'quantity', value: 4.4, unit: 'mmol/L', version: 1, reason: 'Transcription error' },
      });
      assert.equal(corrected.status, 200, JSON.stringify(corrected.body));
      imaging = await labs.order({
        doctor,
        appointmentId: await visit(),
        results: { 'IMG-XR-CHEST': { type: 'text', text: 'No consolidation.' } },
        release: true,
      });
      unreleased = await labs.order({
        doctor,
        appointmentId: await visit(),
        results: { '6690-2': { type: 'quantity', value: 7.1, unit: '10*3/uL' } },
      });
      preliminary = await labs.order({
        doctor,
        appointmentId: await visit(),
        results: { '718-7': { type: 'quantity', value: 13.1, unit: 'g/dL' } },
        finalize: false,
      });
    });
    after(() => server.close());

    it('lists the four lab types with read, search and the parameters that work, each honoured', async () => {
      const metadata = await fhir.get<CapabilityStatement>('/metadata');
      const resources = metadata.body.rest?.[0]?.resource ?? [];
      for (const type of LAB_TYPES) {
        const listed = present(
          resources.find((r) => r.type === type),
          type,
        );
        assert.deepEqual(
          listed.interaction?.map((i) => i.code),
          ['read', 'search-type'],
        );
        for (const p of ['patient', 'subject', ...(type === 'Specimen' ? ['collected'] : ['code'])])
          assert.ok(
            listed.searchParam?.some((s) => s.name === p),
            `${type} lists ${p}`,
          );
      }
      const params = (type: string) => present(resources.find((r) => r.type === type)).searchParam?.map((p) => p.name);
      for (const p of ['category', 'status', 'date', 'based-on', 'specimen'])
        assert.ok(params('Observation')?.includes(p), `Observation ${p}`);
      for (const p of ['category', 'status', 'date', 'based-on', 'specimen', 'result'])
        assert.ok(params('DiagnosticReport')?.includes(p), `DiagnosticReport ${p}`);
    });

    it('reads and searches results by patient, code, date, status, category, based-on and specimen', async () => {
      const k = String(released.observations['2823-3']);
      const kRequest = String(released.items['2823-3']);
      const kSpecimen = present(
        (
          await server.db.query<{ id: number }>(
            'select id from lab_specimens where order_item_id = $1 and rejected_at is null',
            [released.items['2823-3']],
          )
        )[0],
      ).id;
      const p = `patient=${patient.patientId}`;
      assert.deepEqual(await search(`/Observation?${p}&code=http://loinc.org|2823-3`), [k]);
      assert.deepEqual(await search(`/Observation?${p}&code=2823-3`), [k]);
      assert.deepEqual(await search(`/Observation?${p}&code=http://example.org|2823-3`), []);
      assert.deepEqual(await search(`/Observation?${p}&status=corrected`), [k]);
      assert.deepEqual(await search(`/Observation?${p}&category=imaging`), [
        String(imaging.observations['IMG-XR-CHEST']),
      ]);
      assert.equal((await search(`/Observation?${p}&category=laboratory&date=${TODAY}`)).length, 5);
      assert.deepEqual(await search(`/Observation?${p}&date=lt${TODAY}`), []);
      assert.deepEqual(await search(`/Observation?based-on=ServiceRequest/${kRequest}`), [k]);
      assert.deepEqual(await search(`/Observation?specimen=Specimen/${kSpecimen}`), [k]);

      const observation = await fhir.get<Observation>(`/Observation/${k}`, admin.token);
      assert.equal(observation.body.meta?.versionId, '2');
      assert.deepEqual(observation.body.valueQuantity, {
        value: 4.4,
        unit: 'mmol/L',
        system: 'http://unitsofmeasure.org',
        code: 'mmol/L',
      });
      assert.equal(observation.body.basedOn?.[0]?.reference, `ServiceRequest/${kRequest}`);

      const report = String(released.report);
      assert.deepEqual(await search(`/DiagnosticReport?${p}&category=LAB`), [
        report,
        String(unreleased.report),
        String(preliminary.report),
      ]);
      assert.deepEqual(await search(`/DiagnosticReport?${p}&category=RAD`), [String(imaging.report)]);
      assert.deepEqual(await search(`/DiagnosticReport?${p}&status=corrected`), [report]);
      assert.deepEqual(await search(`/DiagnosticReport?${p}&code=http://loinc.org|6690-2`), [
        String(unreleased.report),
      ]);
      assert.deepEqual(await search(`/DiagnosticReport?${p}&code=11502-2`), [report]);
      assert.deepEqual(await search(`/DiagnosticReport?based-on=ServiceRequest/${kRequest}`), [report]);
      assert.deepEqual(await search(`/DiagnosticReport?specimen=${kSpecimen}`), [report]);
      assert.deepEqual(await search(`/DiagnosticReport?result=Observation/${k}`), [report]);
      assert.deepEqual(await search(`/DiagnosticReport?${p}&date=ge${TODAY}&status=final`), [
        String(imaging.report),
        String(unreleased.report),
      ]);
      const dr = await fhir.get<DiagnosticReport>(`/DiagnosticReport/${report}`, admin.token);
      assert.equal(dr.body.result?.length, 3);
      assert.deepEqual(dr.body.identifier?.[0]?.value, released.orderNumber);

      const requests = await search(`/ServiceRequest?requisition=${released.orderNumber}`);
      assert.deepEqual(requests, Object.values(released.items).map(String).sort());
      assert.deepEqual(await search(`/ServiceRequest?${p}&code=2823-3&status=completed&authored=${TODAY}`), [kRequest]);
      assert.deepEqual(await search(`/ServiceRequest?${p}&category=363679005`), [
        String(imaging.items['IMG-XR-CHEST']),
      ]);
      assert.deepEqual(await search(`/Specimen?accession=S-${released.items['2823-3']}`), [String(kSpecimen)]);
      assert.equal((await search(`/Specimen?${p}&status=available&collected=${TODAY}`)).length, 5);
    });

    it("includes a report's results and patient, and revincludes them, as the caller may read each", async () => {
      const report = String(released.report);
      const kinds = (bundle: Bundle) =>
        (bundle.entry ?? []).map((e) => `${e.search?.mode}:${e.resource?.resourceType}/${e.resource?.id}`).sort();
      const q = `/DiagnosticReport?_id=${report}&_include=DiagnosticReport:result&_include=DiagnosticReport:patient`;
      const asDoctor = await fhir.get<Bundle>(q, doctor.token);
      assert.equal(asDoctor.status, 200);
      assert.deepEqual(
        kinds(asDoctor.body),
        [
          `match:DiagnosticReport/${report}`,
          `include:Patient/${patient.patientId}`,
          ...Object.values(released.observations).map((id) => `include:Observation/${id}`),
        ].sort(),
      );
      const rev = await fhir.get<Bundle>(
        `/Observation?_id=${released.observations['2823-3']}&_revinclude=DiagnosticReport:result&_include=Observation:patient`,
        doctor.token,
      );
      assert.deepEqual(
        kinds(rev.body),
        [
          `match:Observation/${released.observations['2823-3']}`,
          `include:DiagnosticReport/${report}`,
          `include:Patient/${patient.patientId}`,
        ].sort(),
      );
      // The patient finds no report not yet released, so nothing of it is included either.
      const unreleasedReport = String(unreleased.report);
      const mine = await fhir.get<Bundle>(
        `/DiagnosticReport?_id=${unreleasedReport}&_include=DiagnosticReport:result`,
        patient.token,
      );
      assert.deepEqual(kinds(mine.body), []);
    });

    it("holds only released results in the patient's own searches, reads, $everything and ZIP", async () => {
      const visible = [...Object.values(released.observations), imaging.observations['IMG-XR-CHEST']].map(String);
      assert.deepEqual(await search('/Observation', patient.token), visible.sort());
      assert.deepEqual(await search('/DiagnosticReport', patient.token), [
        String(released.report),
        String(imaging.report),
      ]);
      for (const hidden of [unreleased.observations['6690-2'], preliminary.observations['718-7']])
        assert.equal((await fhir.get(`/Observation/${hidden}`, patient.token)).status, 404);
      assert.equal((await fhir.get(`/DiagnosticReport/${unreleased.report}`, patient.token)).status, 404);
      // Their orders are theirs, results or not.
      assert.equal((await search('/ServiceRequest', patient.token)).length, 6);

      const expected = [
        ...visible.map((id) => `Observation/${id}`),
        `DiagnosticReport/${released.report}`,
        `DiagnosticReport/${imaging.report}`,
      ].sort();
      assert.deepEqual(labKeys(await everythingKeys(patient.token)), expected);
      const res = await fetch(
        `${server.url}/fhir/R4/Patient/${patient.patientId}/$everything?_format=application/zip`,
        {
          headers: { authorization: `Bearer ${patient.token}` },
        },
      );
      assert.equal(res.status, 200);
      const zip = await readBulkZip(new Uint8Array(await res.arrayBuffer()));
      for (const name of ['ServiceRequest.ndjson', 'Specimen.ndjson', 'Observation.ndjson', 'DiagnosticReport.ndjson'])
        assert.ok(zip.names.includes(name), name);
      const zipped = Object.entries(zip.files).flatMap(([, resources]) =>
        resources.map((r) => `${r.resourceType}/${r.id}`),
      );
      assert.deepEqual(labKeys(zipped).sort(), expected);
      // The doctor of the care team reads every result, released or not.
      assert.equal(labKeys(await everythingKeys(doctor.token)).length, 6 + 4);
    });

    it('gives each identity the lab resources its access says: results to no desk or lab, doctors by care team', async () => {
      const ids = {
        ServiceRequest: released.items['2823-3'],
        Specimen: present((await server.db.query<{ id: number }>('select min(id)::int as id from lab_specimens'))[0])
          .id,
        Observation: released.observations['2823-3'],
        DiagnosticReport: released.report,
      };
      const identities: Record<string, string | undefined> = {
        anonymous: undefined,
        patient: patient.token,
        'another patient': other.token,
        reception: reception.token,
        lab: lab.token,
        'care-team doctor': doctor.token,
        'other doctor': outsider.token,
        admin: admin.token,
      };
      // [search status, matches of the patient's; read status]
      const expected: Record<string, Record<(typeof LAB_TYPES)[number], [number, number, number]>> = {
        anonymous: {
          ServiceRequest: [401, 0, 401],
          Specimen: [401, 0, 401],
          Observation: [401, 0, 401],
          DiagnosticReport: [401, 0, 401],
        },
        patient: {
          ServiceRequest: [200, 6, 200],
          Specimen: [200, 5, 200],
          Observation: [200, 4, 200],
          DiagnosticReport: [200, 2, 200],
        },
        'another patient': {
          ServiceRequest: [200, 0, 404],
          Specimen: [200, 0, 404],
          Observation: [200, 0, 404],
          DiagnosticReport: [200, 0, 404],
        },
        reception: {
          ServiceRequest: [200, 6, 200],
          Specimen: [200, 5, 200],
          Observation: [403, 0, 403],
          DiagnosticReport: [403, 0, 403],
        },
        lab: {
          ServiceRequest: [403, 0, 403],
          Specimen: [403, 0, 403],
          Observation: [403, 0, 403],
          DiagnosticReport: [403, 0, 403],
        },
        'care-team doctor': {
          ServiceRequest: [200, 6, 200],
          Specimen: [200, 5, 200],
          Observation: [200, 6, 200],
          DiagnosticReport: [200, 4, 200],
        },
        'other doctor': {
          ServiceRequest: [200, 0, 404],
          Specimen: [200, 0, 404],
          Observation: [200, 0, 404],
          DiagnosticReport: [200, 0, 404],
        },
        admin: {
          ServiceRequest: [200, 6, 200],
          Specimen: [200, 5, 200],
          Observation: [200, 6, 200],
          DiagnosticReport: [200, 4, 200],
        },
      };
      const seen: Record<string, Record<string, [number, number, number]>> = {};
      for (const [who, token] of Object.entries(identities)) {
        seen[who] = {};
        for (const type of LAB_TYPES) {
          const found = await fhir.get<Bundle>(`/${type}?patient=${patient.patientId}`, token);
          const read = await fhir.get(`/${type}/${ids[type]}`, token);
          const row = seen[who];
          if (row) row[type] = [found.status, found.status === 200 ? matches(found.body).length : 0, read.status];
        }
      }
      assert.deepEqual(seen, expected);
      const desk = await fhir.get<ServiceRequest>(`/ServiceRequest/${ids.ServiceRequest}`, reception.token);
      assert.equal(desk.body.note, undefined, "the front desk gets no order's clinical note");
      assert.deepEqual(labKeys(await everythingKeys(reception.token)), []);
    });

    it('shapes every lab result and report it produced as US Core 5.0.1 lab profiles, and counts them', () => {
      // fhir-validate.ts checks each one the suite receives (src/testing/us-core-lab.ts); here, that it did.
      assert.ok(usCoreLabCounts.observations >= 6, JSON.stringify(usCoreLabCounts));
      assert.ok(usCoreLabCounts.reports >= 3, JSON.stringify(usCoreLabCounts));
      assert.ok(usCoreLabCounts.quantities >= 4 && usCoreLabCounts.loincCoded > 0, JSON.stringify(usCoreLabCounts));
      process.stdout.write(`# US Core lab elements so far: ${JSON.stringify(usCoreLabCounts)}\n`);
    });
  });
}
