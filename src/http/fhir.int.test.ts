import assert from 'node:assert/strict';
import type {
  Appointment,
  Bundle,
  CapabilityStatement,
  Encounter,
  Location,
  OperationOutcome,
  Patient,
  Slot,
} from '@medplum/fhirtypes';
import { after, before, describe, it } from '../testing/node-test.ts';
import { FHIR_TABLES } from '../db/fhir-tables.pg.ts';
import { RESOURCES } from '../domain/fhir/resources.ts';
import { FHIR_TYPES } from '../domain/fhir/resource-def.ts';
import { only } from '../testing/assert.ts';
import { fhirClient, idsOf, matches } from '../testing/fhir.ts';
import { readBulkZip } from '../testing/fhir-bulk.ts';
import { assertValidFhir } from '../testing/fhir-validate.ts';
import {
  PASSWORD,
  fixedClock,
  signIn,
  signUpAdmin,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { labFixtures } from '../testing/lab-fixtures.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';

const NOW = '2026-06-10T18:00:00Z'; // 20:00 in the clinic's Europe/Berlin
const TODAY = '2026-06-10';

/** A value of each parameter type that a search accepts. */
const SAMPLE = { token: '1', date: 'ge2000-01-01', reference: '1', string: 'a' } as const;

for (const target of testDatabases('one')) {
  describe(`the FHIR R4 API on ${target.name}`, () => {
    let server: TestServer;
    let fx: ReturnType<typeof clinicFixtures>;
    let fhir: ReturnType<typeof fhirClient>;
    let admin: { token: string };
    let reception: { token: string };
    let doctor: Awaited<ReturnType<typeof fx.doctor>>;
    let otherDoctor: Awaited<ReturnType<typeof fx.doctor>>;
    let patientA: Awaited<ReturnType<typeof fx.patient>>;
    let patientB: Awaited<ReturnType<typeof fx.patient>>;
    let visitA: number;
    let visitB: number;
    let recordA: number;
    let billA: number;
    let roomId: number;
    let labOrder: Awaited<ReturnType<ReturnType<typeof labFixtures>['order']>>;

    const one = async (sql: string, params: unknown[] = []) =>
      only(await server.db.query<{ id: number }>(sql, params)).id;

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
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
      otherDoctor = await fx.doctor('Dr. Derek Shepherd');
      patientA = await fx.patient('Paula Patient');
      patientB = await fx.patient('Bert Other');
      const department = await one(
        `insert into departments (name, description) values ('Cardiology', 'Hearts') returning id`,
      );
      const specialization = await one(`insert into specializations (name) values ('Cardiologist') returning id`);
      roomId = await one(`insert into rooms (name, department_id) values ('Room 1', $1) returning id`, [department]);
      await server.db.query('update doctors set department_id = $1, specialization_id = $2 where id = $3', [
        department,
        specialization,
        doctor.doctorId,
      ]);
      await server.db.query('update schedules set room_id = $1 where id = $2', [roomId, doctor.scheduleId]);
      const flu = await fx.disease('Influenza');
      visitA = await fx.appointment({ doctor, patientId: patientA.patientId, date: TODAY });
      visitB = await fx.appointment({ doctor: otherDoctor, patientId: patientB.patientId, date: TODAY });
      const body = {
        disease_id: flu,
        diagnosis: 'Seasonal flu',
        lab_tests: '',
        prescriptions: 'Rest',
        service_type: 'Consultation',
        cost: '120.50',
      };
      const recorded = await server.api('POST', `/api/doctor/appointments/${visitA}/medical-record`, {
        token: doctor.token,
        body,
      });
      assert.equal(recorded.status, 201, JSON.stringify(recorded.body));
      recordA = recorded.body.medical_record.id;
      billA = recorded.body.billing.id;
      const recordedB = await server.api('POST', `/api/doctor/appointments/${visitB}/medical-record`, {
        token: otherDoctor.token,
        body,
      });
      assert.equal(recordedB.status, 201, JSON.stringify(recordedB.body));
      labOrder = await labFixtures(server, admin).order({
        doctor: otherDoctor,
        appointmentId: visitB,
        results: { '2823-3': { type: 'quantity', value: 4.2, unit: 'mmol/L' } },
      });
    });
    after(() => server.close());

    describe('metadata', () => {
      it('answers a CapabilityStatement without sign-in, listing each implemented type with read and search', async () => {
        const res = await fhir.get<CapabilityStatement>('/metadata');
        assert.equal(res.status, 200);
        assert.equal(res.body.fhirVersion, '4.0.1');
        const resources = res.body.rest?.[0]?.resource ?? [];
        assert.deepEqual(
          resources.map((r) => r.type),
          [...FHIR_TYPES],
        );
        for (const r of resources)
          assert.deepEqual(
            r.interaction?.map((i) => i.code),
            ['read', 'search-type'],
          );
      });

      it('lists exactly the search parameters the adapters implement, and each one is honoured, not ignored', async () => {
        const res = await fhir.get<CapabilityStatement>('/metadata');
        for (const r of res.body.rest?.[0]?.resource ?? []) {
          const listed = (r.searchParam ?? []).map((p) => p.name).sort();
          assert.deepEqual(listed, RESOURCES[r.type as keyof typeof RESOURCES].params.map((p) => p.name).sort());
          const table = FHIR_TABLES[r.type as keyof typeof FHIR_TABLES];
          // Each listed parameter has its column, or its condition where a row holds several values (a report's results).
          const answered = table
            ? [...Object.keys(table.columns), ...Object.keys(table.subqueries ?? {}).filter((p) => listed.includes(p))]
            : undefined;
          if (answered) assert.deepEqual(answered.sort(), listed, `${r.type}: the columns searched`);
          for (const p of r.searchParam ?? []) {
            const value = p.name === 'identifier' ? '1' : SAMPLE[p.type as keyof typeof SAMPLE];
            const search = await fhir.get<Bundle>(`/${r.type}?${p.name}=${encodeURIComponent(value)}`, admin.token, {
              prefer: 'handling=strict',
            });
            assert.equal(search.status, 200, `${r.type}?${p.name}: ${JSON.stringify(search.body)}`);
          }
          const unknown = await fhir.get<OperationOutcome>(`/${r.type}?not-a-parameter=1`, admin.token, {
            prefer: 'handling=strict',
          });
          assert.equal(unknown.status, 400, `${r.type} refuses what it does not list`);
        }
      });
    });

    describe('read and search as an admin', () => {
      it('reads every type by id and finds it by _id, each answer valid R4', async () => {
        const ids: Record<string, string> = {
          Patient: String(patientA.patientId),
          Practitioner: String(doctor.doctorId),
          PractitionerRole: String(doctor.doctorId),
          Organization: 'clinic',
          Location: String(roomId),
          HealthcareService: String(only(await server.db.query<{ id: number }>('select id from departments')).id),
          Schedule: String(doctor.doctorId),
          Slot: `${doctor.scheduleId}-2026-06-15`,
          Appointment: String(visitA),
          Encounter: String(visitA),
          Condition: String(recordA),
          Invoice: String(billA),
          ServiceRequest: String(labOrder.items['2823-3']),
          Specimen: String(
            only(
              await server.db.query<{ id: number }>('select id from lab_specimens where order_item_id = $1', [
                labOrder.items['2823-3'],
              ]),
            ).id,
          ),
          Observation: String(labOrder.observations['2823-3']),
          DiagnosticReport: String(labOrder.report),
          AuditEvent: String(
            only(await server.db.query<{ id: number }>('select max(id)::int as id from audit_log')).id,
          ),
          CodeSystem: 'disease',
        };
        // The medicines' types are read by id in fhir-medicines.int.test.ts, which makes the rows they need.
        const medicines: readonly string[] = [
          'Medication',
          'MedicationRequest',
          'MedicationAdministration',
          'AllergyIntolerance',
        ];
        for (const type of FHIR_TYPES.filter((t) => !medicines.includes(t))) {
          const read = await fhir.get(`/${type}/${ids[type]}`, admin.token);
          assert.equal(read.status, 200, `${type}: ${JSON.stringify(read.body)}`);
          assert.deepEqual([read.body.resourceType, read.body.id], [type, ids[type]]);
          const search = await fhir.get<Bundle>(`/${type}?_id=${ids[type]}`, admin.token);
          assert.equal(search.status, 200);
          assert.deepEqual(idsOf(search.body), [ids[type]], type);
          assert.equal(search.body.total, 1);
          assert.equal(search.body.entry?.[0]?.fullUrl, `${server.url}/fhir/R4/${type}/${ids[type]}`);
        }
      });

      it('takes ids, lastUpdated and versionId from the rows, and a change is a new version', async () => {
        const before = await fhir.get<Patient>(`/Patient/${patientA.patientId}`, admin.token);
        const row = only(
          await server.db.query<{ at: Date }>(
            'select greatest(p.updated_at, u.updated_at) as at from patients p join users u on u.id = p.user_id where p.id = $1',
            [patientA.patientId],
          ),
        );
        assert.equal(before.body.meta?.lastUpdated, row.at.toISOString());
        await server.db.query(`update patients set phone = '+1 555 0199' where id = $1`, [patientA.patientId]);
        const after = await fhir.get<Patient>(`/Patient/${patientA.patientId}`, admin.token);
        assert.equal(Number(after.body.meta?.versionId), Number(before.body.meta?.versionId) + 1);
        assert.equal(after.body.telecom?.[0]?.value, '+1 555 0199');
      });

      it('maps a completed visit to a fulfilled Appointment and a finished Encounter with its diagnosis', async () => {
        const appointment = await fhir.get<Appointment>(`/Appointment/${visitA}`, admin.token);
        assert.equal(appointment.body.status, 'fulfilled');
        assert.equal(appointment.body.start, '2026-06-10T06:00:00.000Z');
        const encounter = await fhir.get<Encounter>(`/Encounter/${visitA}`, admin.token);
        assert.equal(encounter.body.status, 'finished');
        assert.equal(encounter.body.diagnosis?.[0]?.condition?.reference, `Condition/${recordA}`);
        assert.equal(encounter.body.subject?.reference, `Patient/${patientA.patientId}`);
      });

      it('searches by patient, practitioner, status, identifier and dates with prefixes', async () => {
        const a = `Patient/${patientA.patientId}`;
        assert.deepEqual(idsOf((await fhir.get<Bundle>(`/Encounter?patient=${a}`, admin.token)).body), [
          String(visitA),
        ]);
        assert.deepEqual(
          idsOf((await fhir.get<Bundle>(`/Appointment?actor=Practitioner/${otherDoctor.doctorId}`, admin.token)).body),
          [String(visitB)],
        );
        assert.deepEqual(
          idsOf(
            (await fhir.get<Bundle>(`/Appointment?patient=${patientA.patientId}&status=fulfilled,booked`, admin.token))
              .body,
          ),
          [String(visitA)],
        );
        assert.deepEqual(
          idsOf((await fhir.get<Bundle>(`/Appointment?patient=${patientA.patientId}&status=noshow`, admin.token)).body),
          [],
        );
        assert.deepEqual(
          idsOf((await fhir.get<Bundle>(`/Patient?identifier=${patientB.patientId}`, admin.token)).body),
          [String(patientB.patientId)],
        );
        const dated = (q: string) =>
          fhir.get<Bundle>(`/Appointment?patient=${patientA.patientId}&${q}`, admin.token).then((r) => idsOf(r.body));
        assert.deepEqual(await dated('date=2026-06-10'), [String(visitA)]);
        assert.deepEqual(await dated('date=ge2026-06-10T08:00&date=le2026-06-10'), [String(visitA)]);
        assert.deepEqual(await dated('date=gt2026-06-10'), []);
        assert.deepEqual(await dated('date=lt2026-06-10T08:00:00%2B02:00'), []);
        assert.deepEqual(await dated('date=ne2026-06'), []);
        assert.deepEqual(
          idsOf((await fhir.get<Bundle>(`/Condition?subject=${a}&recorded-date=2026-06-10`, admin.token)).body),
          [String(recordA)],
        );
        assert.deepEqual(
          idsOf((await fhir.get<Bundle>(`/Invoice?patient=${a}&status=issued&date=ge2026-01-01`, admin.token)).body),
          [String(billA)],
        );
        assert.deepEqual(idsOf((await fhir.get<Bundle>(`/Patient?name=pau`, admin.token)).body), [
          String(patientA.patientId),
        ]);
      });

      it("makes a doctor's Slots from the weekly pattern, busy where booked", async () => {
        const booker = await fx.patient('Slot Booker');
        await fx.appointment({ doctor, patientId: booker.patientId, date: '2026-06-15', start: '09:00' });
        const res = await fhir.get<Bundle>(
          `/Slot?schedule=Schedule/${doctor.doctorId}&start=ge2026-06-11&start=lt2026-06-30`,
          admin.token,
        );
        const slots = matches<Slot>(res.body);
        assert.deepEqual(
          slots.map((s) => [s.id, s.status, s.start]),
          [
            [`${doctor.scheduleId}-2026-06-15`, 'busy', '2026-06-15T07:00:00.000Z'],
            [`${doctor.scheduleId}-2026-06-22`, 'free', '2026-06-22T07:00:00.000Z'],
            [`${doctor.scheduleId}-2026-06-29`, 'free', '2026-06-29T07:00:00.000Z'],
          ],
        );
        assert.deepEqual(
          idsOf(
            (
              await fhir.get<Bundle>(
                `/Slot?schedule=${doctor.doctorId}&status=free&start=ge2026-06-11&start=lt2026-06-23`,
                admin.token,
              )
            ).body,
          ),
          [`${doctor.scheduleId}-2026-06-22`],
        );
        const tooWide = await fhir.get(`/Slot?start=ge2026-01-01&start=lt2027-01-01`, admin.token);
        assert.equal(tooWide.status, 400);
      });

      it('ignores an unsupported parameter with a warning, and refuses it under Prefer: handling=strict', async () => {
        const lenient = await fhir.get<Bundle>(`/Patient?_id=${patientA.patientId}&_elements=id`, admin.token);
        assert.equal(lenient.status, 200);
        const outcome = lenient.body.entry?.find((e) => e.search?.mode === 'outcome')?.resource as OperationOutcome;
        assert.equal(outcome.issue[0]?.severity, 'warning');
        assert.match(outcome.issue[0]?.diagnostics ?? '', /_elements/);
        const strict = await fhir.get<OperationOutcome>(`/Patient?_elements=id`, admin.token, {
          prefer: 'handling=strict',
        });
        assert.equal(strict.status, 400);
        assert.equal(strict.body.issue[0]?.code, 'invalid');
      });

      it('answers malformed values, unknown types and ids, and other methods with an OperationOutcome', async () => {
        assert.equal((await fhir.get('/Appointment?date=tomorrow', admin.token)).status, 400);
        assert.equal((await fhir.get('/Appointment?_count=many', admin.token)).status, 400);
        assert.equal((await fhir.get('/Appointment?_cursor=nonsense', admin.token)).status, 400);
        const forged = Buffer.from(JSON.stringify(['not a time', '1'])).toString('base64url');
        assert.equal((await fhir.get(`/Appointment?_sort=date&_cursor=${forged}`, admin.token)).status, 400);
        assert.equal((await fhir.get('/Appointment?patient=Practitioner/1', admin.token)).status, 400);
        assert.equal((await fhir.get('/MedicationStatement', admin.token)).status, 404);
        assert.equal((await fhir.get('/Patient/999999', admin.token)).status, 404);
        assert.equal((await fhir.get('/Patient/not-an-id', admin.token)).status, 404);
        const post = await server.api('POST', '/fhir/R4/Patient', {
          token: admin.token,
          body: { resourceType: 'Patient' },
        });
        assert.equal(post.status, 405);
        assert.equal(post.body.resourceType, 'OperationOutcome');
      });
    });

    describe('permissions, as in the rest of Medora', () => {
      it('asks for sign-in with 401 and WWW-Authenticate', async () => {
        const res = await fhir.get('/Patient');
        assert.equal(res.status, 401);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
      });

      it("keeps patient A to their own compartment: B's Encounter is not there by id or by search", async () => {
        const own = await fhir.get<Encounter>(`/Encounter/${visitA}`, patientA.token);
        assert.equal(own.status, 200);
        assert.equal((await fhir.get(`/Encounter/${visitB}`, patientA.token)).status, 404);
        assert.equal((await fhir.get(`/Patient/${patientB.patientId}`, patientA.token)).status, 404);
        assert.deepEqual(idsOf((await fhir.get<Bundle>('/Encounter', patientA.token)).body), [String(visitA)]);
        assert.deepEqual(
          idsOf((await fhir.get<Bundle>(`/Encounter?patient=${patientB.patientId}`, patientA.token)).body),
          [],
        );
        assert.deepEqual(idsOf((await fhir.get<Bundle>('/Patient', patientA.token)).body), [
          String(patientA.patientId),
        ]);
        assert.deepEqual(idsOf((await fhir.get<Bundle>('/Condition', patientA.token)).body), [String(recordA)]);
        assert.equal((await fhir.get('/AuditEvent', patientA.token)).status, 403);
        const refused = await server.db.query(
          `select 1 from audit_log where action = 'refused' and entity = 'fhir_Encounter' and entity_id = $1`,
          [String(visitB)],
        );
        assert.equal(refused.length, 1, 'the attempt is audited');
      });

      it('lets a doctor read the patients they have treated or are booked with, not others, and not their bills', async () => {
        assert.equal((await fhir.get(`/Patient/${patientA.patientId}`, doctor.token)).status, 200);
        assert.equal((await fhir.get(`/Condition/${recordA}`, doctor.token)).status, 200);
        assert.equal((await fhir.get(`/Encounter/${visitB}`, doctor.token)).status, 404);
        assert.ok(!idsOf((await fhir.get<Bundle>('/Encounter', doctor.token)).body).includes(String(visitB)));
        assert.equal((await fhir.get('/Invoice', doctor.token)).status, 403);
        assert.equal((await fhir.get(`/Practitioner/${otherDoctor.doctorId}`, doctor.token)).status, 200);
      });

      it('gives reception no clinical content: 403 on Condition, Encounters without a diagnosis', async () => {
        assert.equal((await fhir.get(`/Condition/${recordA}`, reception.token)).status, 403);
        assert.equal((await fhir.get('/Condition', reception.token)).status, 403);
        assert.equal((await fhir.get('/AuditEvent', reception.token)).status, 403);
        const encounter = await fhir.get<Encounter>(`/Encounter/${visitA}`, reception.token);
        assert.equal(encounter.status, 200);
        assert.equal(encounter.body.diagnosis, undefined);
        assert.equal((await fhir.get(`/Invoice/${billA}`, reception.token)).status, 200);
        assert.equal((await fhir.get(`/Patient/${patientB.patientId}`, reception.token)).status, 200);
      });

      it('audits every read and search', async () => {
        const count = async () =>
          only(
            await server.db.query<{ n: number }>(
              `select count(*)::int as n from audit_log where entity = 'fhir_Patient' and action in ('read', 'list')`,
            ),
          ).n;
        const before = await count();
        await fhir.get(`/Patient/${patientA.patientId}`, admin.token);
        await fhir.get('/Patient?_count=1', admin.token);
        assert.equal(await count(), before + 2);
        const audit = await fhir.get<Bundle>(
          `/AuditEvent?patient=${patientA.patientId}&_sort=-date&_count=5`,
          admin.token,
        );
        assert.equal(audit.status, 200);
        assert.ok(matches(audit.body).length > 0);
      });
    });

    describe('Patient/$everything', () => {
      const everything = (id: number, token: string, query = '') =>
        fhir.pages(`/Patient/${id}/$everything${query}`, token);
      const keys = (bundles: Bundle[]) =>
        bundles.flatMap((b) => matches(b).map((r) => `${r.resourceType}/${r.id}`)).sort();

      it("gathers the patient's compartment, listed in the CapabilityStatement", async () => {
        const metadata = await fhir.get<CapabilityStatement>('/metadata');
        const patient = metadata.body.rest?.[0]?.resource?.find((r) => r.type === 'Patient');
        assert.deepEqual(
          patient?.operation?.map((o) => o.name),
          ['everything'],
        );
        const all = await everything(patientA.patientId, patientA.token);
        const expected = [
          `Patient/${patientA.patientId}`,
          `Appointment/${visitA}`,
          `Encounter/${visitA}`,
          `Condition/${recordA}`,
          `Invoice/${billA}`,
        ].sort();
        assert.deepEqual(keys(all), expected);
        assert.equal(all[0]?.total, 5);
        assert.deepEqual(
          keys(await everything(patientA.patientId, admin.token, '?_count=2')),
          expected,
          'paged by two, each once',
        );
      });

      it('exports the same resources as NDJSON, one valid resource a line, for the patient themselves', async () => {
        const res = await server.api(
          'GET',
          `/fhir/R4/Patient/${patientA.patientId}/$everything?_format=application/fhir%2Bndjson`,
          { token: patientA.token },
        );
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^application\/fhir\+ndjson/);
        const lines = String(res.body)
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line));
        lines.forEach(assertValidFhir);
        const entries = (await everything(patientA.patientId, patientA.token)).flatMap((b) => b.entry ?? []);
        assert.deepEqual(
          lines.map((r) => `${r.resourceType}/${r.id}`).sort(),
          entries.map((e) => `${e.resource?.resourceType}/${e.resource?.id}`).sort(),
          'the matches and what they refer to',
        );
        const refused = await server.api('GET', `/fhir/R4/Patient/${patientB.patientId}/$everything?_format=ndjson`, {
          token: patientA.token,
        });
        assert.equal(refused.status, 404);
      });

      it('narrows by _type, by care dates keeping the Patient and by _since, paging each once with the filters in next', async () => {
        const dora = await fx.patient('Dora Dated');
        const migraine = await fx.disease('Migraine');
        const visit = (date: string, status = 'completed') =>
          fx.appointment({ doctor, patientId: dora.patientId, date, status });
        const record = (appointmentId: number, date: string) =>
          one(
            `insert into medical_records (appointment_id, patient_id, doctor_id, disease_id, diagnosis, service_type, cost_cents, record_date)
             values ($1, $2, $3, $4, 'Migraine', 'Consultation', 9000, $5) returning id`,
            [appointmentId, dora.patientId, doctor.doctorId, migraine, date],
          );
        const [v1, v2, v3, v4] = [
          await visit('2026-05-04'),
          await visit('2026-05-20'),
          await visit('2026-06-08'),
          await visit('2026-06-20', 'scheduled'),
        ];
        const [r1, r2, r3] = [
          await record(v1, '2026-05-04'),
          await record(v2, '2026-05-20'),
          await record(v3, '2026-06-08'),
        ];
        const bill = await one(
          `insert into billings (patient_id, medical_record_id, service_details, amount_cents, billing_date) values ($1, $2, 'Consultation', 9000, '2026-05-20') returning id`,
          [dora.patientId, r2],
        );
        const path = `/Patient/${dora.patientId}/$everything`;
        const get = async (query: string) => keys(await everything(dora.patientId, dora.token, `?${query}`));
        const of = (type: string, ...ids: number[]) => ids.map((id) => `${type}/${id}`);
        const sorted = (...lists: string[][]) => lists.flat().sort();
        const patient = of('Patient', dora.patientId);

        assert.deepEqual(
          await get('_type=Encounter,Condition'),
          sorted(of('Encounter', v1, v2, v3), of('Condition', r1, r2, r3)),
        );
        const inMay = sorted(
          patient,
          of('Appointment', v2, v3),
          of('Encounter', v2, v3),
          of('Condition', r2, r3),
          of('Invoice', bill),
        );
        assert.deepEqual(await get('start=2026-05-10&end=2026-06-08'), inMay, 'end takes its whole day');
        assert.deepEqual(
          await get('start=2026-06'),
          sorted(patient, of('Appointment', v3, v4), of('Encounter', v3), of('Condition', r3)),
        );
        assert.deepEqual(await get('end=2026-05-04&_type=Patient,Appointment'), sorted(patient, of('Appointment', v1)));
        const paged = await everything(dora.patientId, dora.token, '?start=2026-05-10&end=2026-06-08&_count=2');
        assert.deepEqual(keys(paged), inMay, 'paged by two, each once');
        assert.ok(paged.every((b) => b.total === inMay.length && matches(b).length <= 2));
        assert.deepEqual(await get('_type=Encounter,Condition&_count=2'), await get('_type=Encounter,Condition'));

        // Everything of the patient's last changed on New Year's Day, but the newest record and the bill today.
        const old = '2026-01-01T00:00:00Z';
        await server.db.query(
          'update users set updated_at = $2 where id = (select user_id from patients where id = $1)',
          [dora.patientId, old],
        );
        for (const table of ['patients', 'appointments', 'medical_records', 'billings']) {
          await server.db.query(
            `update ${table} set updated_at = $2 where ${table === 'patients' ? 'id' : 'patient_id'} = $1`,
            [dora.patientId, old],
          );
        }
        await server.db.query(
          `update medical_records set diagnosis = 'Migraine with aura', updated_at = $2 where id = $1`,
          [r3, '2026-06-10T17:00:00Z'],
        );
        await server.db.query(
          `update billings set service_details = 'Consultation, follow-up', updated_at = $2 where id = $1`,
          [bill, '2026-06-10T17:00:00Z'],
        );
        const changed = sorted(of('Condition', r3), of('Invoice', bill));
        assert.deepEqual(await get('_since=2026-06-10T12:00:00Z'), changed);
        assert.deepEqual(await get('_since=2026-06-10T12:00:00Z&_count=1'), changed);
        assert.deepEqual(await get(`_since=${old}`), await get(''), 'at or after');
        assert.deepEqual(
          await get('_since=2026-06-10T12:00:00Z&_type=Condition&start=2026-06-01'),
          of('Condition', r3),
        );

        const strict = await fhir.get<Bundle>(
          `${path}?_type=Encounter&start=2026-05-01&end=2026-05-31&_since=${old}`,
          dora.token,
          { prefer: 'handling=strict' },
        );
        assert.equal(strict.status, 200, 'the filters are understood, not ignored');
        assert.deepEqual(idsOf(strict.body), [String(v1), String(v2)]);
        const unknown = await fhir.get<OperationOutcome>(`${path}?_type=Encounter,MedicationStatement`, dora.token);
        assert.equal(unknown.status, 400);
        assert.match(unknown.body.issue[0]?.diagnostics ?? '', /MedicationStatement/);
        assert.equal((await fhir.get(`${path}?_type=Practitioner`, dora.token)).status, 200, 'a type it refers to');
        assert.equal((await fhir.get(`${path}?_type=AuditEvent`, dora.token)).status, 400, 'not a type it holds');
        assert.equal(
          (await fhir.get(`${path}?start=ge2026-05-01`, dora.token)).status,
          400,
          'a date, not a search prefix',
        );

        const exported = await server.api(
          'GET',
          `/fhir/R4${path}?_format=ndjson&_type=Condition,Invoice&_since=2026-06-10T12:00:00Z`,
          { token: dora.token },
        );
        assert.equal(exported.status, 200);
        const lines = String(exported.body)
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line));
        lines.forEach(assertValidFhir);
        assert.deepEqual(lines.map((r) => `${r.resourceType}/${r.id}`).sort(), changed);
        assert.equal((await fhir.get(`${path}?_format=ndjson&_type=MedicationStatement`, dora.token)).status, 400);

        const metadata = await fhir.get<CapabilityStatement>('/metadata');
        const operation = metadata.body.rest?.[0]?.resource?.find((r) => r.type === 'Patient')?.operation?.[0];
        for (const name of ['start', 'end', '_since', '_type', '_count'])
          assert.match(operation?.documentation ?? '', new RegExp(`(^|[ (])${name}\\b`));
      });

      it("refuses patient A another's $everything as missing, and gives each role only what it may read", async () => {
        assert.equal((await fhir.get(`/Patient/${patientB.patientId}/$everything`, patientA.token)).status, 404);
        assert.ok(!keys(await everything(patientA.patientId, reception.token)).some((k) => k.startsWith('Condition/')));
        assert.ok(!keys(await everything(patientA.patientId, doctor.token)).some((k) => k.startsWith('Invoice/')));
      });
    });

    describe('inpatient stays and beds', () => {
      let inpatient: Awaited<ReturnType<typeof fx.patient>>;
      let stayId: number;
      let bedA: number;
      let bedB: number;

      before(async () => {
        inpatient = await fx.patient('Ivy Inpatient');
        const ward = await one(
          `insert into departments (name, description) values ('Surgery', 'Operations') returning id`,
        );
        const room = await one(`insert into rooms (name, department_id) values ('Ward 3', $1) returning id`, [ward]);
        bedA = await one(`insert into beds (room_id, label) values ($1, 'A') returning id`, [room]);
        bedB = await one(`insert into beds (room_id, label, housekeeping) values ($1, 'B', 'cleaning') returning id`, [
          room,
        ]);
        stayId = await one(
          `insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, status, bed_id,
                                   requested_at, reserved_at, admitted_at, discharge_ordered_at, discharged_at)
           values ($1, $2, $3, 2, 'Appendectomy', 'discharged', $4, '2026-06-01T08:00Z', '2026-06-01T09:00Z', '2026-06-01T10:00Z', '2026-06-03T08:00Z', '2026-06-03T10:00Z')
           returning id`,
          [inpatient.patientId, ward, doctor.doctorId, bedB],
        );
        await server.db.query(
          `insert into bed_stays (admission_id, bed_id, nightly_rate_cents, started_at, ended_at, ended_by)
           values ($1, $2, 0, '2026-06-01T10:00Z', '2026-06-02T12:00Z', 'transfer'), ($1, $3, 0, '2026-06-02T12:00Z', '2026-06-03T10:00Z', 'discharge')`,
          [stayId, bedA, bedB],
        );
        const current = await one(
          `insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, status, bed_id, requested_at, reserved_at, admitted_at)
           values ($1, $2, $3, 3, 'Observation', 'admitted', $4, '2026-06-09T08:00Z', '2026-06-09T08:00Z', '2026-06-09T09:00Z') returning id`,
          [patientB.patientId, ward, otherDoctor.doctorId, bedA],
        );
        await server.db.query(
          `insert into bed_stays (admission_id, bed_id, nightly_rate_cents, started_at) values ($1, $2, 0, '2026-06-09T09:00Z')`,
          [current, bedA],
        );
      });

      it('reads a stay as an inpatient Encounter with its bed history, found by class and patient', async () => {
        const stay = await fhir.get<Encounter>(`/Encounter/stay-${stayId}`, admin.token);
        assert.equal(stay.status, 200, JSON.stringify(stay.body));
        assert.deepEqual(
          [stay.body.class.code, stay.body.status, stay.body.reasonCode?.[0]?.text],
          ['IMP', 'finished', 'Appendectomy'],
        );
        assert.deepEqual(
          stay.body.location?.map((l) => [l.location.reference, l.status, l.period?.end]),
          [
            [`Location/bed-${bedA}`, 'completed', '2026-06-02T12:00:00.000Z'],
            [`Location/bed-${bedB}`, 'completed', '2026-06-03T10:00:00.000Z'],
          ],
        );
        assert.ok(stay.body.hospitalization?.dischargeDisposition);
        assert.deepEqual(
          idsOf((await fhir.get<Bundle>(`/Encounter?patient=${inpatient.patientId}`, admin.token)).body),
          [`stay-${stayId}`],
        );
        assert.deepEqual(
          idsOf((await fhir.get<Bundle>(`/Encounter?class=IMP&status=in-progress`, admin.token)).body).length,
          1,
        );
        assert.ok(
          !idsOf((await fhir.get<Bundle>(`/Encounter?class=AMB`, admin.token)).body).some((id) =>
            id?.startsWith('stay-'),
          ),
        );
        assert.deepEqual(
          idsOf((await fhir.get<Bundle>(`/Encounter?_id=stay-${stayId},${visitA}`, admin.token)).body).sort(),
          [String(visitA), `stay-${stayId}`].sort(),
        );
      });

      it('reads beds as Locations of physical type bd in their room, occupied or being cleaned', async () => {
        const a = await fhir.get<Location>(`/Location/bed-${bedA}`, admin.token);
        assert.equal(a.status, 200, JSON.stringify(a.body));
        assert.deepEqual([a.body.physicalType?.coding?.[0]?.code, a.body.operationalStatus?.code], ['bd', 'O']);
        const room = a.body.partOf?.reference ?? '';
        const b = await fhir.get<Location>(`/Location/bed-${bedB}`, reception.token);
        assert.equal(b.body.operationalStatus?.code, 'H');
        assert.deepEqual(idsOf((await fhir.get<Bundle>(`/Location?partof=${room}`, patientA.token)).body), [
          `bed-${bedA}`,
          `bed-${bedB}`,
        ]);
      });

      it("gives reception the stay without its reason, and keeps another patient's stay from patient A", async () => {
        const desk = await fhir.get<Encounter>(`/Encounter/stay-${stayId}`, reception.token);
        assert.equal(desk.status, 200);
        assert.equal(desk.body.reasonCode, undefined);
        assert.equal((await fhir.get(`/Encounter/stay-${stayId}`, patientA.token)).status, 404);
        assert.equal((await fhir.get(`/Encounter/stay-${stayId}`, inpatient.token)).status, 200);
      });

      it("brings the stay and the beds it was in into the patient's $everything", async () => {
        const bundles = await fhir.pages(`/Patient/${inpatient.patientId}/$everything?_count=2`, inpatient.token);
        const keys = bundles.flatMap((b) => matches(b).map((r) => `${r.resourceType}/${r.id}`));
        assert.deepEqual(keys, [
          `Patient/${inpatient.patientId}`,
          `Encounter/stay-${stayId}`,
          `Location/bed-${bedA}`,
          `Location/bed-${bedB}`,
        ]);
      });

      it('downloads the whole record as a ZIP of one NDJSON file per type with a Bulk Data manifest, audited', async () => {
        const path = `/fhir/R4/Patient/${inpatient.patientId}/$everything?_format=application/zip`;
        const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${inpatient.token}` } });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/zip');
        assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="patient-\d+\.zip"/);
        const zip = await readBulkZip(new Uint8Array(await res.arrayBuffer()));
        assert.deepEqual(zip.names, [
          'index.html',
          'Patient.ndjson',
          'Encounter.ndjson',
          'Practitioner.ndjson',
          'Organization.ndjson',
          'Location.ndjson',
          'manifest.json',
        ]);
        assert.deepEqual(zip.manifest.output, [
          { type: 'Patient', url: 'Patient.ndjson', count: 1 },
          { type: 'Encounter', url: 'Encounter.ndjson', count: 1 },
          { type: 'Practitioner', url: 'Practitioner.ndjson', count: 1 },
          { type: 'Organization', url: 'Organization.ndjson', count: 1 },
          { type: 'Location', url: 'Location.ndjson', count: 3 },
        ]);
        assert.deepEqual(
          [zip.manifest.transactionTime, zip.manifest.requiresAccessToken, zip.manifest.error],
          ['2026-06-10T18:00:00.000Z', false, []],
        );
        assert.equal(zip.manifest.request, `${server.url}${path}`);
        const audited = await server.db.query<{ details: { format: string } }>(
          `select details from audit_log where action = 'export' and entity = 'fhir_Patient' and entity_id = $1`,
          [String(inpatient.patientId)],
        );
        assert.deepEqual(
          audited.map((a) => a.details.format),
          ['zip'],
        );
        const refused = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${patientA.token}` } });
        assert.equal(refused.status, 404);
      });
    });

    describe('paging', () => {
      // Ten pages of each search, with ties on _lastUpdated (one insert writes every row): what paging each resource
      // exactly once takes, at a quarter of the thousand resources it was once shown on.
      it('pages a patient with 250 resources by 25, each exactly once, in either order', async () => {
        const patient = await fx.patient('Many Visits');
        await server.db.query(
          `insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time, status)
           select $1, $2, $3, date '2020-01-06' + i, '09:00', '09:30', 'completed' from generate_series(0, 249) i`,
          [patient.patientId, otherDoctor.doctorId, otherDoctor.scheduleId],
        );
        for (const sort of ['_lastUpdated', '-date', '_id']) {
          const bundles = await fhir.pages(
            `/Appointment?patient=${patient.patientId}&_count=25&_sort=${sort}`,
            admin.token,
          );
          assert.equal(bundles.length, 10, sort);
          const ids = bundles.flatMap(idsOf);
          assert.equal(ids.length, 250);
          assert.equal(new Set(ids).size, 250, `${sort}: each once`);
          assert.ok(bundles.every((b) => b.total === 250));
        }
        const asPatient = await fhir.pages('/Encounter?_count=25', patient.token);
        assert.equal(new Set(asPatient.flatMap(idsOf)).size, 250);
        const all = await fhir.pages(`/Patient/${patient.patientId}/$everything?_count=25`, admin.token);
        const keys = all.flatMap((b) => matches(b).map((r) => `${r.resourceType}/${r.id}`));
        assert.equal(keys.length, 501, 'the patient, 250 appointments and their 250 encounters');
        assert.equal(new Set(keys).size, 501);
      });
    });
  });
}
