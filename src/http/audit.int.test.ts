import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { addDays, clinicDateTime } from '../domain/shared/clock.ts';
import { signUpAdmin, startTestServer, TEST_TZ, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';

interface AuditRowSeen {
  actor_user_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  patient_id: number | null;
  details: Record<string, unknown> | null;
}

for (const target of testDatabases('one')) {
  describe(`the audit trail over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let fx: ReturnType<typeof clinicFixtures>;
    let admin: Awaited<ReturnType<typeof signUpAdmin>>;
    let doctor: Awaited<ReturnType<typeof fx.doctor>>;
    let otherDoctor: Awaited<ReturnType<typeof fx.doctor>>;
    let patient: Awaited<ReturnType<typeof fx.patient>>;
    let otherPatient: Awaited<ReturnType<typeof fx.patient>>;
    let diseaseId: number;
    const today = clinicDateTime(new Date(), TEST_TZ).date;

    before(async () => {
      server = await startTestServer(target);
      fx = clinicFixtures(server);
      admin = await signUpAdmin(server);
      doctor = await fx.doctor('Dr. Grey');
      otherDoctor = await fx.doctor('Dr. House');
      patient = await fx.patient('Paula Patient');
      otherPatient = await fx.patient('=SUM(A1)');
      diseaseId = await fx.disease('Migraine');
    });
    after(() => server.close());

    /** The trail written by `userId` after `afterId`, oldest first. */
    const trailOf = async (userId: number, afterId = 0) =>
      server.db.query<AuditRowSeen>(
        `select actor_user_id, action, entity, entity_id, patient_id, details from audit_log where actor_user_id = $1 and id > $2 order by id`,
        [userId, afterId],
      );
    const lastId = async () =>
      (await server.db.query<{ id: number | null }>('select max(id) as id from audit_log'))[0]?.id ?? 0;

    /** A bill raised as the clinic raises them: the doctor records yesterday's visit, which has begun, with a cost. */
    async function billFor(who: { patientId: number }): Promise<{ billId: number }> {
      const appointmentId = await fx.appointment({ doctor, patientId: who.patientId, date: addDays(today, -1) });
      const res = await server.api('POST', `/api/doctor/appointments/${appointmentId}/medical-record`, {
        token: doctor.token,
        body: {
          disease_id: diseaseId,
          diagnosis: 'Tension headache',
          service_type: 'Consultation',
          cost: '80.00',
          record_date: today,
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return { billId: res.body.billing.id };
    }

    it('audits every staff list of patients, appointments and bills, with what was searched', async () => {
      const since = await lastId();
      for (const path of [
        '/api/admin/patients?q=paula',
        '/api/admin/appointments?page=1&per_page=20',
        '/api/admin/billings',
      ]) {
        assert.equal((await server.api('GET', path, { token: admin.token })).status, 200, path);
      }
      for (const path of ['/api/doctor/patients', '/api/doctor/appointments?status=scheduled']) {
        assert.equal((await server.api('GET', path, { token: doctor.token })).status, 200, path);
      }
      assert.equal((await server.api('GET', '/api/patient/appointments', { token: patient.token })).status, 200);

      assert.deepEqual(
        (await trailOf(admin.user.id, since)).map((r) => [r.action, r.entity, r.details]),
        [
          ['list', 'patient', { q: 'paula', page: 1, per_page: 50 }],
          ['list', 'appointment', { page: 1, per_page: 20 }],
          ['list', 'billing', { page: 1, per_page: 50 }],
        ],
      );
      assert.deepEqual(
        (await trailOf(doctor.user.id, since)).map((r) => [r.action, r.entity, r.details]),
        [
          ['list', 'patient', { page: 1, per_page: 50 }],
          ['list', 'appointment', { page: 1, per_page: 50, status: 'scheduled' }],
        ],
      );
      assert.deepEqual(await trailOf(patient.user.id, since), [], "a patient's own lists are not audited");
    });

    it("audits an admin's reading of a receipt and of a patient's details, not a patient's own receipt", async () => {
      const { billId } = await billFor(patient);
      const since = await lastId();
      assert.equal((await server.api('GET', `/api/billings/${billId}/receipt`, { token: admin.token })).status, 200);
      assert.equal(
        (await server.api('GET', `/api/admin/patients/${patient.patientId}`, { token: admin.token })).status,
        200,
      );
      assert.equal((await server.api('GET', `/api/billings/${billId}/receipt`, { token: patient.token })).status, 200);
      assert.deepEqual(
        (await trailOf(admin.user.id, since)).map((r) => [r.action, r.entity, r.entity_id, r.patient_id]),
        [
          ['read_receipt', 'billing', String(billId), patient.patientId],
          ['read_records', 'patient', String(patient.patientId), patient.patientId],
        ],
      );
      assert.deepEqual(await trailOf(patient.user.id, since), []);
    });

    it("refuses another user's bill, receipt, appointment or patient exactly as a missing one, and audits each attempt", async () => {
      const { billId } = await billFor(otherPatient);
      const othersAppointment = await fx.appointment({
        doctor,
        patientId: otherPatient.patientId,
        date: addDays(today, 1),
      });
      const missing = 2_000_000_000;
      const since = await lastId();
      /** `theirs` and a missing id get the same 404 from `method` on `path(id)`. */
      const refusedAlike = async (
        method: string,
        path: (id: number) => string,
        theirs: number,
        token: string,
        body?: unknown,
      ) => {
        const answer = await server.api(method, path(theirs), { token, body });
        assert.equal(answer.status, 404, `${method} ${path(theirs)}`);
        assert.deepEqual(answer.body, (await server.api(method, path(missing), { token, body })).body);
      };
      await refusedAlike('GET', (id) => `/api/billings/${id}/receipt`, billId, patient.token);
      await refusedAlike('POST', (id) => `/api/patient/billings/${id}/pay`, billId, patient.token);
      await refusedAlike('POST', (id) => `/api/patient/appointments/${id}/cancel`, othersAppointment, patient.token);
      const visit = {
        disease_id: diseaseId,
        diagnosis: 'x',
        service_type: 'Consultation',
        cost: '1.00',
        record_date: today,
      };
      const mine = await server.api('POST', `/api/doctor/appointments/${othersAppointment}/medical-record`, {
        token: otherDoctor.token,
        body: visit,
      });
      assert.equal(mine.status, 404);
      const peek = await server.api('GET', `/api/doctor/patients/${otherPatient.patientId}`, {
        token: otherDoctor.token,
      });
      assert.equal(peek.status, 404);
      assert.deepEqual(
        peek.body,
        (await server.api('GET', `/api/doctor/patients/${missing}`, { token: otherDoctor.token })).body,
      );

      assert.deepEqual(
        (await trailOf(patient.user.id, since)).map((r) => [r.action, r.entity, r.entity_id, r.patient_id, r.details]),
        [
          ['refused', 'billing', String(billId), otherPatient.patientId, { attempt: 'receipt' }],
          ['refused', 'billing', String(missing), null, { attempt: 'receipt' }],
          ['refused', 'billing', String(billId), otherPatient.patientId, { attempt: 'pay' }],
          ['refused', 'billing', String(missing), null, { attempt: 'pay' }],
          ['refused', 'appointment', String(othersAppointment), otherPatient.patientId, { attempt: 'cancel' }],
          ['refused', 'appointment', String(missing), null, { attempt: 'cancel' }],
        ],
      );
      assert.deepEqual(
        (await trailOf(otherDoctor.user.id, since)).map((r) => [
          r.action,
          r.entity,
          r.entity_id,
          r.patient_id,
          r.details,
        ]),
        [
          ['refused', 'appointment', String(othersAppointment), otherPatient.patientId, { attempt: 'record_visit' }],
          ['refused', 'patient', String(otherPatient.patientId), null, { attempt: 'read_records' }],
          ['refused', 'patient', String(missing), null, { attempt: 'read_records' }],
        ],
      );
      assert.equal(await fx.appointmentStatus(othersAppointment), 'scheduled');
    });

    it('filters the trail by user, patient, action and clinic dates, and reading it is audited', async () => {
      const get = (query: string) => server.api('GET', `/api/admin/audit?${query}`, { token: admin.token });
      const refused = await get(
        `user_id=${patient.user.id}&action=refused&patient_id=${otherPatient.patientId}&from=${today}&to=${today}`,
      );
      assert.equal(refused.status, 200);
      assert.ok(refused.body.entries.length >= 3);
      for (const entry of refused.body.entries) {
        assert.equal(entry.actor.id, patient.user.id);
        assert.equal(entry.actor.name, 'Paula Patient');
        assert.equal(entry.action, 'refused');
        assert.equal(entry.patient_id, otherPatient.patientId);
      }
      assert.equal((await get(`user_id=${patient.user.id}&from=${addDays(today, 1)}`)).body.total, 0);
      assert.equal((await get(`user_id=${patient.user.id}&to=${addDays(today, -1)}`)).body.total, 0);

      const [reading] = (await trailOf(admin.user.id, (await lastId()) - 1)).slice(-1);
      assert.deepEqual(reading, {
        actor_user_id: admin.user.id,
        action: 'list',
        entity: 'audit_log',
        entity_id: null,
        patient_id: null,
        details: { user_id: patient.user.id, to: addDays(today, -1), page: 1, per_page: 50 },
      });
    });

    it('answers 422 naming each bad filter, and 403 to anyone but an admin', async () => {
      const bad = await server.api(
        'GET',
        '/api/admin/audit?user_id=abc&patient_id=0&action=Robert%27)%3B&from=2026-02-30&to=tomorrow',
        { token: admin.token },
      );
      assert.equal(bad.status, 422);
      assert.deepEqual(Object.keys(bad.body.errors).sort(), ['action', 'from', 'patient_id', 'to', 'user_id']);
      const backwards = await server.api('GET', `/api/admin/audit.csv?from=${today}&to=${addDays(today, -1)}`, {
        token: admin.token,
      });
      assert.equal(backwards.status, 422);
      assert.deepEqual(backwards.body.errors, { to: ['must not be before from'] });
      for (const path of ['/api/admin/audit', '/api/admin/audit.csv']) {
        assert.equal((await server.api('GET', path, { token: doctor.token })).status, 403);
        assert.equal((await server.api('GET', path)).status, 401);
      }
    });

    it('exports the filtered trail as a CSV attachment with formulas defused, and audits the export', async () => {
      await server.api('GET', `/api/billings/${2_000_000_001}/receipt`, { token: otherPatient.token });
      const res = await server.api('GET', `/api/admin/audit.csv?user_id=${otherPatient.user.id}&action=refused`, {
        token: admin.token,
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="medora-audit-${today}.csv"`);
      const lines = (res.body as string).split('\r\n');
      assert.equal(
        lines[0],
        'id,at,actor_id,actor_name,actor_role,action,entity,entity_id,patient_id,request_id,details',
      );
      assert.match(
        lines[1] ?? '',
        new RegExp(
          `^\\d+,[^,]+Z,${otherPatient.user.id},'=SUM\\(A1\\),patient,refused,billing,2000000001,,[^,]+,"\\{""attempt"":""receipt""\\}"$`,
        ),
      );
      assert.equal(lines.at(-1), '');

      const [exported] = (await trailOf(admin.user.id)).slice(-1);
      assert.deepEqual(exported?.details, { user_id: otherPatient.user.id, action: 'refused', rows: lines.length - 2 });
      assert.equal(exported?.action, 'export');
    });
  });
}
