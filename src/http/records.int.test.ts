import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { recordsDeps } from '../app.ts';
import { recordVisit } from '../domain/records/use-cases.ts';
import { fixedClock, signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';
import { sealAll } from '../testing/audit-sealing.ts';
import { auditTrail } from '../db/audit.pg.ts';
import { present } from '../testing/assert.ts';

const NOW = '2026-06-10T18:00:00Z'; // 20:00 in the clinic's Europe/Berlin: today's fixture visits have all begun
const TODAY = '2026-06-10';

for (const target of testDatabases('one')) {
  describe(`medical records over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let fx: ReturnType<typeof clinicFixtures>;
    let doctor: Awaited<ReturnType<typeof fx.doctor>>;
    let otherDoctor: Awaited<ReturnType<typeof fx.doctor>>;
    let patient: Awaited<ReturnType<typeof fx.patient>>;
    let flu: number;

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      fx = clinicFixtures(server);
      doctor = await fx.doctor('Dr. Meredith Grey');
      otherDoctor = await fx.doctor('Dr. Derek Shepherd');
      patient = await fx.patient('Paula Patient');
      flu = await fx.disease('Influenza');
    });
    after(() => server.close());

    const visit = (overrides: Record<string, unknown> = {}) => ({
      disease_id: flu,
      diagnosis: 'Seasonal flu',
      lab_tests: 'Rapid antigen',
      prescriptions: 'Rest, fluids',
      service_type: 'Consultation',
      cost: '120.50',
      ...overrides,
    });
    const record = (appointmentId: number, body: unknown, token = doctor.token) =>
      server.api('POST', `/api/doctor/appointments/${appointmentId}/medical-record`, { token, body });
    const appointmentToday = (date = TODAY) => fx.appointment({ doctor, patientId: patient.patientId, date });

    it('completes the appointment and raises exactly one unpaid bill', async () => {
      const appointmentId = await appointmentToday();
      const res = await record(appointmentId, visit());
      assert.equal(res.status, 201);
      assert.equal(res.body.medical_record.record_date, TODAY);
      assert.equal(res.body.medical_record.cost, '120.50');
      assert.equal(res.body.medical_record.cost_cents, 12050);
      assert.deepEqual(res.body.medical_record.disease, { id: flu, name: 'Influenza' });
      assert.deepEqual(res.body.medical_record.doctor, { id: doctor.doctorId, name: 'Dr. Meredith Grey' });
      assert.equal(res.body.appointment.status, 'completed');
      assert.equal(res.body.appointment.patient_name, 'Paula Patient');
      assert.equal(await fx.appointmentStatus(appointmentId), 'completed');
      assert.deepEqual(
        { ...res.body.billing, id: undefined, bill_number: undefined },
        {
          id: undefined,
          bill_number: undefined,
          patient: { id: patient.patientId, name: 'Paula Patient', email: patient.email },
          service_details: 'Consultation',
          amount: '120.50',
          amount_cents: 12050,
          credited: '0.00',
          credited_cents: 0,
          adjusted_amount: '120.50',
          adjusted_amount_cents: 12050,
          paid: '0.00',
          paid_cents: 0,
          balance: '120.50',
          balance_cents: 12050,
          refund_due: '0.00',
          refund_due_cents: 0,
          billing_date: TODAY,
          payment_status: 'unpaid',
          supplements_bill_id: null,
          adjustments: [],
        },
      );
      assert.equal(await fx.count('billings', 'medical_record_id = $1', [res.body.medical_record.id]), 1);
    });

    it('refuses a second record of the same appointment with 409 invalid_transition', async () => {
      const appointmentId = await appointmentToday();
      assert.equal((await record(appointmentId, visit())).status, 201);
      const again = await record(appointmentId, visit());
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'invalid_transition');
      assert.equal(await fx.count('medical_records', 'appointment_id = $1', [appointmentId]), 1);
    });

    it('refuses a cancelled appointment with 409 invalid_transition', async () => {
      const appointmentId = await fx.appointment({
        doctor,
        patientId: patient.patientId,
        date: TODAY,
        status: 'cancelled',
      });
      const res = await record(appointmentId, visit());
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'invalid_transition');
    });

    it('writes nothing when the bill cannot be created after the record was inserted', async () => {
      const appointmentId = await appointmentToday();
      const deps = recordsDeps(server.db, server.app.clock, server.app.config);
      const failingBills = {
        ...deps,
        transaction: <T>(fn: (tx: typeof deps) => Promise<T>) =>
          deps.transaction((tx) =>
            fn({ ...tx, bills: { ...tx.bills, create: () => Promise.reject(new Error('injected billing failure')) } }),
          ),
      };
      const original = server.app.records.recordVisit;
      server.app.records.recordVisit = (input, actor) => recordVisit(failingBills, input, actor);
      try {
        const res = await record(appointmentId, visit());
        assert.equal(res.status, 500);
        assert.equal(res.body.code, 'internal');
      } finally {
        server.app.records.recordVisit = original;
      }
      assert.equal(await fx.count('medical_records', 'appointment_id = $1', [appointmentId]), 0);
      assert.equal(
        await fx.count('billings', 'patient_id = $1 and medical_record_id not in (select id from medical_records)', [
          patient.patientId,
        ]),
        0,
      );
      assert.equal(await fx.appointmentStatus(appointmentId), 'scheduled');
      assert.equal((await record(appointmentId, visit())).status, 201, 'the appointment can still be recorded');
    });

    it("answers 404 to a doctor recording another doctor's appointment, and changes nothing", async () => {
      const appointmentId = await appointmentToday();
      const res = await record(appointmentId, visit(), otherDoctor.token);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'not_found');
      assert.equal(await fx.appointmentStatus(appointmentId), 'scheduled');
      assert.equal((await record(999999, visit())).status, 404);
    });

    it('names every missing required field and an unknown disease with 422', async () => {
      const appointmentId = await appointmentToday();
      const missing = await record(appointmentId, { cost: '10' });
      assert.equal(missing.status, 422);
      assert.equal(missing.body.code, 'invalid');
      assert.deepEqual(Object.keys(missing.body.errors).sort(), ['diagnosis', 'disease_id', 'service_type']);
      const unknown = await record(appointmentId, visit({ disease_id: 987654 }));
      assert.equal(unknown.status, 422);
      assert.deepEqual(unknown.body.errors.disease_id, ['does not exist']);
    });

    it('refuses a negative, over-precise or too large cost and a future record date', async () => {
      const appointmentId = await appointmentToday();
      for (const cost of ['-5', '10.005', 'ten', '1000000.01']) {
        const res = await record(appointmentId, visit({ cost }));
        assert.equal(res.status, 422, `cost ${cost}`);
        assert.ok(res.body.errors.cost, `cost ${cost}`);
      }
      const future = await record(appointmentId, visit({ record_date: '2026-06-11' }));
      assert.equal(future.status, 422);
      assert.ok(future.body.errors.record_date);
      assert.equal(await fx.appointmentStatus(appointmentId), 'scheduled');
    });

    it('refuses with 409 visit_not_started to record a visit that has not begun, today or later', async () => {
      for (const [date, start] of [
        ['2026-06-12', '09:00'],
        [TODAY, '20:30'],
      ] as const) {
        const appointmentId = await fx.appointment({ doctor, patientId: patient.patientId, date, start });
        const res = await record(appointmentId, visit());
        assert.equal(res.status, 409);
        assert.equal(res.body.code, 'visit_not_started');
        assert.equal(res.body.message, `This visit can be recorded from ${start} on ${date}`);
        assert.equal(await fx.appointmentStatus(appointmentId), 'scheduled');
      }
    });

    it("says in the doctor's list which visits have begun", async () => {
      const begun = await fx.appointment({ doctor, patientId: patient.patientId, date: TODAY, start: '20:00' });
      const ahead = await fx.appointment({ doctor, patientId: patient.patientId, date: TODAY, start: '21:00' });
      const res = await server.api('GET', '/api/doctor/appointments?per_page=200', { token: doctor.token });
      const started = (id: number) => res.body.appointments.find((a: { id: number }) => a.id === id)?.has_started;
      assert.deepEqual([started(begun), started(ahead)], [true, false]);
    });

    it('raises no bill for a free visit', async () => {
      const appointmentId = await appointmentToday();
      const res = await record(appointmentId, visit({ cost: 0 }));
      assert.equal(res.status, 201);
      assert.equal(res.body.billing, null);
      assert.equal(await fx.count('billings', 'medical_record_id = $1', [res.body.medical_record.id]), 0);
    });

    it("lists the doctor's own patients, searchable, and hides everyone else", async () => {
      const stranger = await fx.patient('Sam Stranger');
      await fx.appointment({ doctor: otherDoctor, patientId: stranger.patientId, date: TODAY });
      const all = await server.api('GET', '/api/doctor/patients', { token: doctor.token });
      assert.equal(all.status, 200);
      assert.deepEqual(all.body.patients, [
        { id: patient.patientId, name: 'Paula Patient', phone: '+1 555 0101', email: patient.email, photo: null },
      ]);
      assert.equal(all.body.total, 1);
      const searched = await server.api('GET', '/api/doctor/patients?q=paula&per_page=5', { token: doctor.token });
      assert.equal(searched.body.patients.length, 1);
      assert.equal(searched.body.per_page, 5);
      const nobody = await server.api('GET', '/api/doctor/patients?q=stranger', { token: doctor.token });
      assert.equal(nobody.body.total, 0);
    });

    it("shows a patient's records newest first with disease and doctor names, and 404 for a stranger", async () => {
      const older = await appointmentToday('2026-06-01');
      assert.equal((await record(older, visit({ record_date: '2026-06-02', diagnosis: 'Earlier flu' }))).status, 201);
      const res = await server.api('GET', `/api/doctor/patients/${patient.patientId}`, { token: doctor.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.name, 'Paula Patient');
      assert.deepEqual(res.body.user, { id: patient.user.id, name: 'Paula Patient', email: patient.email });
      const dates = res.body.medical_records.map((r: { record_date: string }) => r.record_date);
      assert.deepEqual(dates, [...dates].sort().reverse());
      assert.equal(res.body.medical_records.at(-1).diagnosis, 'Earlier flu');
      assert.equal(res.body.medical_records[0].doctor.name, 'Dr. Meredith Grey');

      const stranger = await fx.patient('Nora Nobody');
      const hidden = await server.api('GET', `/api/doctor/patients/${stranger.patientId}`, { token: doctor.token });
      assert.equal(hidden.status, 404);
      assert.equal(hidden.body.code, 'not_found');
      const other = await server.api('GET', `/api/doctor/patients/${patient.patientId}`, { token: otherDoctor.token });
      assert.equal(other.status, 404);
      const asPatient = await server.api('GET', `/api/doctor/patients/${patient.patientId}`, { token: patient.token });
      assert.equal(asPatient.status, 403);
    });

    it('leaves an audit row for every records read, visible to an admin by patient', async () => {
      const read = await server.api('GET', `/api/doctor/patients/${patient.patientId}`, { token: doctor.token });
      const requestId = read.headers.get('x-request-id');
      const admin = await signUpAdmin(server);
      const res = await server.api('GET', `/api/admin/audit?patient_id=${patient.patientId}`, { token: admin.token });
      assert.equal(res.status, 200);
      const entry = res.body.entries.find((e: { request_id: string }) => e.request_id === requestId);
      assert.ok(entry, 'the read is audited with its request id');
      assert.deepEqual(
        { ...entry, id: undefined, at: undefined },
        {
          id: undefined,
          at: undefined,
          actor: { id: doctor.user.id, name: 'Dr. Meredith Grey', role: 'doctor' },
          action: 'read_records',
          entity: 'patient',
          entity_id: String(patient.patientId),
          patient_id: patient.patientId,
          request_id: requestId,
          details: null,
        },
      );
      const actions = new Set(
        res.body.entries.map((e: { entity: string; action: string }) => `${e.action} ${e.entity}`),
      );
      for (const expected of ['create medical_record', 'update appointment', 'create billing'])
        assert.ok(actions.has(expected), expected);
      assert.ok(res.body.entries.every((e: { patient_id: number }) => e.patient_id === patient.patientId));

      const denied = await server.api('GET', `/api/admin/audit?patient_id=${patient.patientId}`, {
        token: doctor.token,
      });
      assert.equal(denied.status, 403);
      const bad = await server.api('GET', '/api/admin/audit?patient_id=abc', { token: admin.token });
      assert.equal(bad.status, 422);
      assert.ok(bad.body.errors.patient_id);
    });

    it("shows a patient their own visits newest first with doctor, findings and bill, never another patient's, and audits the read", async () => {
      const me = await fx.patient('Mona Mine');
      const stranger = await fx.patient('Sven Stranger');
      const older = await fx.appointment({ doctor, patientId: me.patientId, date: '2026-06-01' });
      assert.equal(
        (await record(older, visit({ diagnosis: 'Old cough', cost: 0, record_date: '2026-06-01' }))).status,
        201,
      );
      const newer = await fx.appointment({ doctor: otherDoctor, patientId: me.patientId, date: '2026-06-09' });
      const billed = await record(
        newer,
        visit({ diagnosis: 'Bronchitis', prescriptions: 'Antibiotics', lab_tests: 'Chest X-ray' }),
        otherDoctor.token,
      );
      assert.equal(billed.status, 201);
      const foreign = await fx.appointment({ doctor, patientId: stranger.patientId, date: '2026-06-09' });
      assert.equal((await record(foreign, visit({ diagnosis: 'Secret diagnosis' }))).status, 201);

      const res = await server.api('GET', '/api/patient/records', { token: me.token });
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.records.map((r: { diagnosis: string }) => r.diagnosis),
        ['Bronchitis', 'Old cough'],
      );
      assert.deepEqual(
        { ...res.body.records[0], id: undefined, start_time: undefined, history: undefined },
        {
          id: undefined,
          start_time: undefined,
          history: undefined,
          amended: false,
          date: '2026-06-09',
          doctor: { id: otherDoctor.doctorId, name: 'Dr. Derek Shepherd' },
          disease: { id: flu, name: 'Influenza' },
          diagnosis: 'Bronchitis',
          prescriptions: 'Antibiotics',
          lab_tests: 'Chest X-ray',
          service_type: 'Consultation',
          bill: { id: billed.body.billing.id, amount: '120.50', amount_cents: 12050, payment_status: 'unpaid' },
        },
      );
      assert.equal(res.body.records[1].bill, null, 'a free visit has no bill');
      assert.ok(!JSON.stringify(res.body).includes('Secret diagnosis'));

      const admin = await signUpAdmin(server);
      const audit = await server.api('GET', `/api/admin/audit?patient_id=${me.patientId}`, { token: admin.token });
      const read = audit.body.entries.find(
        (e: { request_id: string }) => e.request_id === res.headers.get('x-request-id'),
      );
      assert.deepEqual([read?.action, read?.entity, read?.actor.id], ['read_records', 'patient', me.user.id]);

      for (const token of [doctor.token, admin.token])
        assert.equal((await server.api('GET', '/api/patient/records', { token })).status, 403);
      assert.equal((await server.api('GET', '/api/patient/records')).status, 401);
    });

    it('keeps every version of an amended record and shows its history to the doctor, the patient and an admin; the audit chain verifies', async () => {
      const me = await fx.patient('Amy Amended');
      const appointmentId = await fx.appointment({ doctor, patientId: me.patientId, date: TODAY });
      const recorded = await record(appointmentId, visit({ diagnosis: 'Common cold' }));
      const recordId = recorded.body.medical_record.id;
      const amend = (body: object, token = doctor.token) =>
        server.api('POST', `/api/medical-records/${recordId}/amendments`, { token, body });
      const amendment = {
        disease_id: flu,
        diagnosis: 'Influenza A',
        lab_tests: 'PCR positive',
        prescriptions: 'Oseltamivir',
        reason: 'PCR result',
        version: 1,
      };

      const refused = await amend({ ...amendment, cost: '10', reason: '' });
      assert.deepEqual([refused.status, Object.keys(refused.body.errors).sort()], [422, ['cost', 'reason']]);
      assert.equal((await amend(amendment, otherDoctor.token)).status, 404, "another doctor's record is not found");
      assert.equal((await amend(amendment, me.token)).status, 403);
      const amended = await amend(amendment);
      assert.equal(amended.status, 201);
      const admin = await signUpAdmin(server);
      const again = await amend(
        { ...amendment, prescriptions: 'Oseltamivir 75 mg', reason: 'Dose added', version: 2 },
        admin.token,
      );
      assert.equal(again.status, 201);
      assert.deepEqual(
        again.body.history.map(
          (h: {
            version: number;
            diagnosis: string;
            prescriptions: string;
            written_by: { name: string };
            reason: string | null;
          }) => [h.version, h.diagnosis, h.prescriptions, h.written_by.name, h.reason],
        ),
        [
          [1, 'Common cold', 'Rest, fluids', 'Dr. Meredith Grey', null],
          [2, 'Influenza A', 'Oseltamivir', 'Dr. Meredith Grey', 'PCR result'],
          [3, 'Influenza A', 'Oseltamivir 75 mg', admin.user.name, 'Dose added'],
        ],
      );

      const mine = await server.api('GET', '/api/patient/records', { token: me.token });
      const seenByPatient = mine.body.records.find((r: { id: number }) => r.id === recordId);
      assert.deepEqual(
        [seenByPatient.diagnosis, seenByPatient.amended, seenByPatient.history.length],
        ['Influenza A', true, 3],
      );
      const doctorView = await server.api('GET', `/api/doctor/patients/${me.patientId}`, { token: doctor.token });
      assert.deepEqual(
        [doctorView.body.medical_records[0].prescriptions, doctorView.body.medical_records[0].amended],
        ['Oseltamivir 75 mg', true],
      );
      const overview = await server.api('GET', `/api/admin/patients/${me.patientId}`, { token: admin.token });
      assert.equal(overview.body.medical_records[0].history.length, 3);
      assert.equal(
        await fx.count('billings', 'medical_record_id = $1 and amount_cents = 12050', [recordId]),
        1,
        'the bill is untouched',
      );

      const trail = await server.api('GET', `/api/admin/audit?patient_id=${me.patientId}`, { token: admin.token });
      const amendments = trail.body.entries.filter((e: { action: string }) => e.action === 'amend');
      assert.deepEqual(amendments.map((e: { details: { version: number } }) => e.details.version).sort(), [2, 3]);
      await sealAll(server.db);
      assert.equal((await auditTrail(server.db).verify()).intact, true);
    });

    it('refuses the second of two amendments of one version with 409 naming the current version, whether they come one after the other or at once', async () => {
      const me = await fx.patient('Cora Concurrent');
      const recorded = await record(
        await fx.appointment({ doctor, patientId: me.patientId, date: TODAY }),
        visit({ diagnosis: 'Sprain' }),
      );
      assert.equal(recorded.body.medical_record.version, 1);
      const recordId = recorded.body.medical_record.id;
      const admin = await signUpAdmin(server);
      const amend = (diagnosis: string, token: string, opts: { version?: number; ifMatch?: string } = {}) =>
        server.api('POST', `/api/medical-records/${recordId}/amendments`, {
          token,
          body: {
            disease_id: flu,
            diagnosis,
            reason: 'Second look',
            ...(opts.version ? { version: opts.version } : {}),
          },
          headers: opts.ifMatch ? { 'if-match': opts.ifMatch } : {},
        });

      const first = await amend('Fracture', doctor.token, { version: 1 });
      assert.deepEqual([first.status, first.body.version, first.headers.get('etag')], [201, 2, '"2"']);
      const stale = await amend('Bruise', admin.token, { ifMatch: '"1"' });
      assert.equal(stale.status, 409);
      assert.equal(stale.body.code, 'record_changed');
      assert.match(stale.body.message, /it is now version 2\./);
      assert.deepEqual(stale.body.errors, { version: ['is 1, but the record is now version 2'] });

      const racing = await Promise.all([
        amend('Fracture, displaced', doctor.token, { ifMatch: present(first.headers.get('etag'), 'ETag') }),
        amend('Bruise', admin.token, { version: 2 }),
      ]);
      assert.deepEqual(racing.map((r) => r.status).sort(), [201, 409]);
      const lost = present(
        racing.find((r) => r.status === 409),
        'the 409',
      );
      assert.match(lost.body.message, /it is now version 3\./);

      const unversioned = await amend('Bruise', admin.token);
      assert.deepEqual([unversioned.status, Object.keys(unversioned.body.errors)], [422, ['version']]);
      const shown = await server.api('GET', `/api/doctor/patients/${me.patientId}`, { token: doctor.token });
      const current = shown.body.medical_records.find((r: { id: number }) => r.id === recordId);
      assert.deepEqual(
        [current.version, current.history.length],
        [3, 3],
        'every amendment that was answered 201 is a version; none was lost',
      );
    });

    it('lists logins and failed logins in the whole audit log', async () => {
      const admin = await signUpAdmin(server);
      await server.api('POST', '/api/login', { body: { email: patient.email, password: 'wrong password' } });
      const res = await server.api('GET', '/api/admin/audit?per_page=200', { token: admin.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.entries[0].action, 'login_failed');
      assert.equal(res.body.entries[0].actor, null);
      assert.equal(res.body.entries[0].details.email, patient.email);
      assert.ok(
        res.body.entries.some(
          (e: { action: string; actor: { id: number } | null }) =>
            e.action === 'login' && e.actor?.id === admin.user.id,
        ),
      );
      assert.ok(res.body.total >= res.body.entries.length);
    });
  });
}
