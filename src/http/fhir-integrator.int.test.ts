import assert from 'node:assert/strict';
import type { Bundle, CapabilityStatement, OperationOutcome, Patient, Resource } from '@medplum/fhirtypes';
import { parseCorsOrigins } from '../config.ts';
import { after, before, describe, it } from '../testing/node-test.ts';
import { only } from '../testing/assert.ts';
import { danglingReferences, fhirClient } from '../testing/fhir.ts';
import { readBulkZip } from '../testing/fhir-bulk.ts';
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

const NOW = '2026-06-10T18:00:00Z';
// The fixtures' doctors work Mondays at 09:00: the visits take those slots.
const MONDAY = '2026-06-08';
const APP_ORIGIN = 'https://app.example.org';

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
    let roomId: number;
    let admin: { token: string };
    let reception: { token: string };

    const one = async (sql: string, params: unknown[] = []) =>
      only(await server.db.query<{ id: number }>(sql, params)).id;

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW), fhirCorsOrigins: [APP_ORIGIN] });
      fx = clinicFixtures(server);
      fhir = fhirClient(server);
      admin = await signUpAdmin(server);
      const email = uniqueEmail('reception');
      await server.api('POST', '/api/admin/receptionists', {
        token: admin.token,
        body: { name: 'Rita Reception', email, password: PASSWORD },
      });
      reception = await signIn(server, email);
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
      roomId = room;
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
      await server.db.query('update appointments set room_id = $1 where id = $2', [roomId, visit]);
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
    describe('formats', () => {
      const raw = (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}/fhir/R4${path}`, {
          ...init,
          headers: { authorization: `Bearer ${patient.token}`, ...(init.headers as Record<string, string>) },
        });
      const outcome = async (res: Response, status: number) => {
        assert.equal(res.status, status);
        assert.match(res.headers.get('content-type') ?? '', /^application\/fhir\+json/);
        const body = (await res.json()) as OperationOutcome;
        assert.equal(body.resourceType, 'OperationOutcome');
        assert.equal(body.issue[0]?.code, 'not-supported');
      };

      it('answers 406 to XML asked for by Accept or _format, and JSON to what accepts it', async () => {
        await outcome(await raw(`/Patient/${patient.patientId}`, { headers: { accept: 'application/fhir+xml' } }), 406);
        await outcome(await raw(`/Patient/${patient.patientId}?_format=xml`), 406);
        await outcome(await raw('/metadata?_format=application/fhir%2Bxml'), 406);
        for (const accept of [
          'application/fhir+json',
          'application/json',
          '*/*',
          'text/html,application/xml;q=0.9,*/*;q=0.8',
        ])
          assert.equal((await raw(`/Patient/${patient.patientId}`, { headers: { accept } })).status, 200, accept);
        assert.equal((await raw(`/Patient/${patient.patientId}?_format=json`)).status, 200);
      });

      it('answers 415 to a body of a type it does not read', async () => {
        const path = `/Patient/${patient.patientId}/$everything`;
        await outcome(
          await raw(path, {
            method: 'POST',
            headers: { 'content-type': 'application/fhir+xml' },
            body: '<Parameters/>',
          }),
          415,
        );
        await outcome(await raw(path, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), 415);
      });
    });

    describe('POST $everything', () => {
      it('answers as GET does, with its parameters in a Parameters body or none', async () => {
        const path = `/fhir/R4/Patient/${patient.patientId}/$everything`;
        const keys = (bundle: Bundle) =>
          (bundle.entry ?? []).map((e) => `${e.resource?.resourceType}/${e.resource?.id}`);
        const got = await server.api<Bundle>('GET', path, { token: patient.token });
        const posted = await server.api<Bundle>('POST', path, { token: patient.token });
        assert.equal(posted.status, 200, JSON.stringify(posted.body));
        assert.deepEqual(keys(posted.body), keys(got.body));
        const typed = await server.api<Bundle>('POST', path, {
          token: patient.token,
          headers: { 'content-type': 'application/fhir+json' },
          body: { resourceType: 'Parameters', parameter: [{ name: '_type', valueString: 'Encounter' }] },
        });
        assert.equal(typed.status, 200, JSON.stringify(typed.body));
        const getTyped = await server.api<Bundle>('GET', `${path}?_type=Encounter`, { token: patient.token });
        assert.deepEqual(keys(typed.body), keys(getTyped.body));
        const bad = await server.api<OperationOutcome>('POST', path, {
          token: patient.token,
          body: { resourceType: 'Parameters', parameter: [{ name: 'start', valuePeriod: {} }] },
        });
        assert.equal(bad.status, 400);
        assert.match(JSON.stringify(bad.body), /parameter\[0\]/);
        assert.equal(
          (await server.api('POST', `/fhir/R4/Patient/${other.patientId}/$everything`, { token: patient.token }))
            .status,
          404,
        );
      });
    });

    describe('ETag', () => {
      it('tags a read W/"versionId" and answers If-None-Match with 304, and a change with the new version', async () => {
        const path = `/fhir/R4/Patient/${patient.patientId}`;
        const read = await server.api<Patient>('GET', path, { token: patient.token });
        const version = read.body.meta?.versionId;
        assert.ok(version);
        assert.equal(read.headers.get('etag'), `W/"${version}"`);
        const again = await fetch(`${server.url}${path}`, {
          headers: { authorization: `Bearer ${patient.token}`, 'if-none-match': `W/"${version}"` },
        });
        assert.equal(again.status, 304);
        await server.db.query(
          "update users set name = 'Paula Changed' where id = (select user_id from patients where id = $1)",
          [patient.patientId],
        );
        const changed = await fetch(`${server.url}${path}`, {
          headers: { authorization: `Bearer ${patient.token}`, 'if-none-match': `W/"${version}"` },
        });
        assert.equal(changed.status, 200);
        const body = (await changed.json()) as Patient;
        assert.notEqual(body.meta?.versionId, version);
        assert.equal(changed.headers.get('etag'), `W/"${body.meta?.versionId}"`);
        const slot = await fetch(`${server.url}/fhir/R4/Slot/${doctor.scheduleId}-${MONDAY}`, {
          headers: { authorization: `Bearer ${patient.token}` },
        });
        assert.equal(slot.status, 200);
        const tag = slot.headers.get('etag') ?? '';
        assert.ok(tag, 'a resource without a version is tagged by its bytes');
        const slotAgain = await fetch(`${server.url}/fhir/R4/Slot/${doctor.scheduleId}-${MONDAY}`, {
          headers: { authorization: `Bearer ${patient.token}`, 'if-none-match': tag },
        });
        assert.equal(slotAgain.status, 304);
      });
    });

    describe('CORS', () => {
      it('lets an allowed origin read /fhir/R4 and preflight it; another origin, and /api, get nothing', async () => {
        const preflight = await fetch(`${server.url}/fhir/R4/Patient`, {
          method: 'OPTIONS',
          headers: {
            origin: APP_ORIGIN,
            'access-control-request-method': 'GET',
            'access-control-request-headers': 'authorization',
          },
        });
        assert.equal(preflight.status, 204);
        assert.equal(preflight.headers.get('access-control-allow-origin'), APP_ORIGIN);
        assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/);
        assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /GET/);
        assert.equal(preflight.headers.get('access-control-allow-credentials'), null, 'never the cookie');
        const read = await fetch(`${server.url}/fhir/R4/Patient/${patient.patientId}`, {
          headers: { origin: APP_ORIGIN, authorization: `Bearer ${patient.token}` },
        });
        assert.equal(read.status, 200);
        assert.equal(read.headers.get('access-control-allow-origin'), APP_ORIGIN);
        assert.match(read.headers.get('access-control-expose-headers') ?? '', /etag/);
        const stranger = 'https://evil.example.com';
        const refused = await fetch(`${server.url}/fhir/R4/Patient`, {
          method: 'OPTIONS',
          headers: { origin: stranger, 'access-control-request-method': 'GET' },
        });
        assert.equal(refused.headers.get('access-control-allow-origin'), null);
        const strangerRead = await fetch(`${server.url}/fhir/R4/metadata`, { headers: { origin: stranger } });
        assert.equal(strangerRead.headers.get('access-control-allow-origin'), null);
        const api = await fetch(`${server.url}/api/auth/me`, { method: 'OPTIONS', headers: { origin: APP_ORIGIN } });
        assert.equal(api.headers.get('access-control-allow-origin'), null);
        assert.deepEqual(parseCorsOrigins(undefined), [], 'none by default');
        assert.deepEqual(parseCorsOrigins('https://a.example.org, http://b.example.org:8080/'), [
          'https://a.example.org',
          'http://b.example.org:8080',
        ]);
        assert.throws(() => parseCorsOrigins('*'), /FHIR_CORS_ORIGINS/);
      });
    });
    describe('_include and _revinclude', () => {
      const modes = (bundle: Bundle, mode: string) =>
        (bundle.entry ?? [])
          .filter((e) => e.search?.mode === mode)
          .map((e) => `${e.resource?.resourceType}/${e.resource?.id}`)
          .sort();

      it('includes the patient, doctor and room of Appointments, and the patient and beds of Encounters', async () => {
        const res = await fhir.get<Bundle>(
          `/Appointment?_id=${visit}&_include=Appointment:patient&_include=Appointment:practitioner&_include=Appointment:location`,
          doctor.token,
          { prefer: 'handling=strict' },
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const included = modes(res.body, 'include');
        assert.ok(included.includes(`Patient/${patient.patientId}`));
        assert.ok(included.includes(`Practitioner/${doctor.doctorId}`));
        assert.ok(included.includes(`Location/${roomId}`));
        assert.equal(res.body.total, 1, 'the total counts the matches only');
        const stays = await fhir.get<Bundle>(
          '/Encounter?class=IMP&_include=Encounter:location&_include=Encounter:subject',
          patient.token,
        );
        assert.ok(modes(stays.body, 'include').some((k) => k.startsWith('Location/bed-')));
        assert.ok(modes(stays.body, 'include').includes(`Patient/${patient.patientId}`));
      });

      it('revincludes the Appointments and Encounters of the Patients found', async () => {
        const res = await fhir.get<Bundle>(
          `/Patient?_id=${patient.patientId}&_revinclude=Appointment:patient&_revinclude=Encounter:subject`,
          patient.token,
          { prefer: 'handling=strict' },
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(modes(res.body, 'match'), [`Patient/${patient.patientId}`]);
        assert.ok(modes(res.body, 'include').includes(`Appointment/${visit}`));
        assert.ok(modes(res.body, 'include').includes(`Encounter/${visit}`));
      });

      it('never includes what the reader could not read directly', async () => {
        // The doctor's Practitioner refers to no patient; a patient searching the doctor's Appointments sees their own.
        const res = await fhir.get<Bundle>(
          `/Practitioner?_id=${doctor.doctorId}&_revinclude=Appointment:practitioner`,
          patient.token,
        );
        const keys = modes(res.body, 'include');
        assert.ok(keys.includes(`Appointment/${visit}`));
        const others = await server.db.query<{ id: number }>('select id from appointments where patient_id = $1', [
          other.patientId,
        ]);
        for (const { id } of others) assert.ok(!keys.includes(`Appointment/${id}`), "another patient's visit");
        const theirs = await fhir.get<Bundle>(`/Appointment?_include=Appointment:patient`, patient.token);
        assert.ok(modes(theirs.body, 'include').every((k) => k === `Patient/${patient.patientId}`));
      });

      it('ignores an include it does not support with a warning, refusing it when strict; lists the supported in metadata', async () => {
        const lax = await fhir.get<Bundle>('/Appointment?_include=Appointment:slot', patient.token);
        assert.equal(lax.status, 200);
        assert.match(JSON.stringify(lax.body), /Appointment:slot/);
        const strict = await fhir.get('/Appointment?_include=Appointment:slot', patient.token, {
          prefer: 'handling=strict',
        });
        assert.equal(strict.status, 400);
        const metadata = await fhir.get<CapabilityStatement>('/metadata');
        const resource = (type: string) => metadata.body.rest?.[0]?.resource?.find((r) => r.type === type);
        assert.deepEqual(resource('Appointment')?.searchInclude, [
          'Appointment:patient',
          'Appointment:practitioner',
          'Appointment:location',
        ]);
        assert.deepEqual(resource('Patient')?.searchRevInclude, [
          'Appointment:patient',
          'Encounter:patient',
          'Encounter:subject',
          'Observation:patient',
          'DiagnosticReport:patient',
        ]);
        for (const r of metadata.body.rest?.[0]?.resource ?? [])
          for (const value of r.searchRevInclude ?? []) {
            const answer = await fhir.get(`/${r.type}?_revinclude=${value}&_count=1`, admin.token, {
              prefer: 'handling=strict',
            });
            assert.equal(answer.status, 200, `${r.type} _revinclude=${value}`);
          }
      });
    });

    describe('route × identity', () => {
      it('answers POST Patient/{id}/$everything to each identity as a read of the record', async () => {
        const path = `/fhir/R4/Patient/${patient.patientId}/$everything`;
        const post = (token?: string) => server.api('POST', path, { token });
        assert.equal((await post()).status, 401);
        assert.equal((await post(patient.token)).status, 200);
        assert.equal((await post(other.token)).status, 404);
        assert.equal((await post(doctor.token)).status, 200);
        assert.equal((await post(admin.token)).status, 200);
        assert.equal((await post(reception.token)).status, 200);
      });
    });
  });
}
