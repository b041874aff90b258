import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { present } from '../testing/assert.ts';
import { signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { labFixtures } from '../testing/lab-fixtures.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { movableClock } from '../testing/scheduling-fakes.ts';
import { testDatabases } from '../testing/test-db.ts';
import { apiRoutes } from './routes.ts';
import { fhirRoutes } from './routes/fhir.ts';

// Issue 48: reception sees that a lab order exists and what it costs, never a result; the lab sees the tests and
// values it works on, never a diagnosis, record text or bill. Every GET route of the API and of FHIR is asked, as
// each of them, for every id the clinic's data has, and no answer may hold what they must not see.

/** A value marker: no digit on either side, so a timestamp's fraction of a second is not taken for it. */
const RESULT = /(?<!\d)4\.3791(?!\d)/;
const CLINICAL = ['Note-9Z', 'Diag-9Z', 'Rx-9Z', 'LabText-9Z', 'Disease-9Z', 'DischargeDiag-9Z', 'Treatment-9Z'];
const BILL = ['Service-9Z', '93.17'];
const BILL_KEY = /bill|price|amount|balance|cost|payment/i;
const FHIR_TYPES = [
  'Patient',
  'Practitioner',
  'PractitionerRole',
  'Organization',
  'Location',
  'Appointment',
  'Encounter',
  'Condition',
  'Invoice',
  'Observation',
  'DiagnosticReport',
  'ServiceRequest',
  'Specimen',
];

const keysOf = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
};

for (const target of testDatabases('one')) {
  describe(`what reception and the lab are given of a patient's results on ${target.name}`, () => {
    let server: TestServer;
    const clock = movableClock('2026-05-04T08:00:00Z');

    before(async () => {
      server = await startTestServer(target, { clock });
    });
    after(() => server.close());

    it('gives reception no result, diagnosis or record text, and the lab no diagnosis, record text or bill, on any route', async () => {
      const fx = clinicFixtures(server);
      const admin = await signUpAdmin(server);
      const lab = labFixtures(server, admin);
      const desk = await lab.staff('receptionists', 'Rita Reception');
      const technician = await lab.staff('lab-technicians', 'Lee Lab');
      const doctor = await fx.doctor('Dr. Order');
      const patient = await fx.patient('Pia Private');
      const patientId = patient.patientId;

      // A potassium resulted, signed off and released, ordered with a clinical note.
      const appointmentId = await fx.appointment({ doctor, patientId, date: '2026-05-04' });
      const tests = await lab.ok('GET', '/api/lab/tests?q=Potassium', doctor.token);
      const potassium = present((tests.tests as { id: number; code: string }[]).find((t) => t.code === '2823-3'));
      const placed = await lab.ok(
        'POST',
        '/api/lab/orders',
        doctor.token,
        { appointment_id: appointmentId, test_ids: [potassium.id], note: 'Note-9Z' },
        201,
      );
      const found = await lab.ok('GET', `/api/lab/worklist?order_number=${placed.order_number}`, technician.token);
      const item = present(found.orders[0]?.items[0] as { id: number } | undefined);
      await lab.ok('POST', `/api/lab/items/${item.id}/collect`, technician.token, { specimen_code: 'S-PRIV' });
      const result = await lab.ok(
        'POST',
        `/api/lab/items/${item.id}/result`,
        technician.token,
        { type: 'quantity', value: 4.3791, unit: 'mmol/L' },
        201,
      );
      await lab.ok('POST', `/api/lab/orders/${placed.id}/finalize`, technician.token);
      await lab.ok('POST', `/api/lab/orders/${placed.id}/release`, doctor.token);

      // A visit recorded (its bill raised) and a stay whose discharge names a diagnosis and treatment.
      const visit = await fx.appointment({ doctor, patientId, date: '2026-05-04' });
      const recorded = await lab.ok(
        'POST',
        `/api/doctor/appointments/${visit}/medical-record`,
        doctor.token,
        {
          disease_id: await fx.disease('Disease-9Z'),
          diagnosis: 'Diag-9Z',
          prescriptions: 'Rx-9Z',
          lab_tests: 'LabText-9Z',
          service_type: 'Service-9Z',
          cost: '93.17',
        },
        201,
      );
      const departmentId = await lab.department('Medicine', [doctor]);
      const room = await lab.ok(
        'POST',
        '/api/admin/rooms',
        admin.token,
        { name: 'Ward M', department_id: departmentId },
        201,
      );
      await lab.ok('PUT', `/api/admin/rooms/${room.id}/bed-class`, admin.token, {
        bed_class: 'Standard',
        nightly_rate: '150.00',
      });
      const bed = await lab.ok('POST', `/api/admin/rooms/${room.id}/beds`, admin.token, { label: 'M1' }, 201);
      const admission = await lab.ok(
        'POST',
        '/api/admissions',
        doctor.token,
        { patient_id: patientId, department_id: departmentId, expected_nights: 2, reason: 'Observation' },
        201,
      );
      await lab.ok('POST', `/api/admissions/${admission.id}/admit`, desk.token, { bed_id: bed.id });
      await lab.ok('POST', `/api/admissions/${admission.id}/discharge-order`, doctor.token, {
        diagnosis: 'DischargeDiag-9Z',
        treatment: 'Treatment-9Z',
      });

      const ids = [
        ...new Set([
          patientId,
          patient.user.id,
          doctor.doctorId,
          appointmentId,
          visit,
          placed.id,
          item.id,
          result.observation_id,
          recorded.medical_record.id,
          recorded.billing.id,
          ...placed.bill_ids,
          admission.id,
          departmentId,
          room.id,
          bed.id,
        ]),
      ];
      const query = `?patient_id=${patientId}&order_number=${placed.order_number}&per_page=100`;
      const paths = (path: string): string[] => {
        if (path.includes('{type}')) return FHIR_TYPES.flatMap((type) => paths(path.replace('{type}', type)));
        if (/\{\w+\}/.test(path)) return ids.map((id) => path.replace(/\{\w+\}/g, String(id)));
        return [path];
      };
      const routes = [...apiRoutes(server.app), ...fhirRoutes(server.app)].filter(
        (r) => r.method === 'GET' && !r.path.startsWith('/api/openapi') && !r.path.startsWith('/api/docs'),
      );

      for (const [who, token, role] of [
        ['reception', desk.token, 'reception'],
        ['lab', technician.token, 'lab'],
      ] as const) {
        const answered: string[] = [];
        for (const route of routes) {
          const allowed =
            route.access === 'user' ||
            route.access === 'public' ||
            route.access === role ||
            (Array.isArray(route.access) && route.access.includes(role));
          if (!allowed) continue;
          const asked = route.path.includes('$everything')
            ? paths(route.path).flatMap((p) => [p, `${p}?_format=ndjson`])
            : paths(route.path).map((p) => `${p}${p.startsWith('/fhir/') ? `?patient=${patientId}` : query}`);
          for (const path of asked) {
            const res = await server.api('GET', path, { token });
            assert.ok(res.status < 500, `${who}: GET ${path} → ${res.status}`);
            const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');
            for (const marker of CLINICAL) assert.ok(!text.includes(marker), `${who}: GET ${path} gave ${marker}`);
            if (who === 'reception') assert.doesNotMatch(text, RESULT, `${who}: GET ${path} gave the result's value`);
            if (who === 'lab') {
              for (const marker of BILL) assert.ok(!text.includes(marker), `${who}: GET ${path} gave ${marker}`);
              assert.deepEqual(
                keysOf(res.body).filter((key) => BILL_KEY.test(key)),
                [],
                `${who}: GET ${path} gave a bill's fields`,
              );
            }
            if (res.status === 200) answered.push(`GET ${route.path}`);
          }
        }
        // What each may see, they were shown: the test saw real answers, not only refusals.
        const expected =
          who === 'reception' ? ['GET /api/desk/lab-orders', 'GET /fhir/R4/{type}'] : ['GET /api/lab/worklist'];
        for (const seen of expected) assert.ok(answered.includes(seen), `${who} was answered ${seen}`);
      }
      const desked = await lab.ok('GET', `/api/desk/lab-orders?patient_id=${patientId}`, desk.token);
      assert.equal(desked.orders[0].order_number, placed.order_number);
      const worked = await lab.ok('GET', `/api/lab/worklist?order_number=${placed.order_number}`, technician.token);
      assert.equal(worked.orders[0].items[0].result.value, 4.3791, 'the lab sees the values it works on');
    });
  });
}
