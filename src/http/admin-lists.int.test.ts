import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { addDays, clinicDateTime } from '../domain/shared/clock.ts';
import { signUpAdmin, startTestServer, TEST_TZ, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { testDatabases } from '../testing/test-db.ts';

type Fixtures = ReturnType<typeof clinicFixtures>;
type Doctor = Awaited<ReturnType<Fixtures['doctor']>>;
type Patient = Awaited<ReturnType<Fixtures['patient']>>;

for (const target of testDatabases('one')) {
  describe(`the admin's filtered lists, CSV exports and patient edits on ${target.name}`, () => {
    let server: TestServer;
    let fx: Fixtures;
    let admin: Awaited<ReturnType<typeof signUpAdmin>>;
    let grey: Doctor;
    let house: Doctor;
    let paula: Patient;
    let formula: Patient;
    let cardiologyId: number;
    const today = clinicDateTime(new Date(), TEST_TZ).date;
    const ids: Record<string, number> = {};

    before(async () => {
      server = await startTestServer(target);
      fx = clinicFixtures(server);
      admin = await signUpAdmin(server);
      grey = await fx.doctor('Dr. Grey');
      house = await fx.doctor('Dr. House');
      paula = await fx.patient('Paula Patient');
      formula = await fx.patient('=HYPERLINK("http://evil")');
      const [department] = await server.db.query<{ id: number }>(
        `insert into departments (name) values ('Cardiology') returning id`,
      );
      cardiologyId = department?.id ?? 0;
      await server.db.query('update doctors set department_id = $1 where id = $2', [cardiologyId, house.doctorId]);
      ids.greyPast = await fx.appointment({
        doctor: grey,
        patientId: paula.patientId,
        date: addDays(today, -3),
        status: 'completed',
      });
      ids.greyFuture = await fx.appointment({ doctor: grey, patientId: formula.patientId, date: addDays(today, 2) });
      ids.greyCancelled = await fx.appointment({
        doctor: grey,
        patientId: paula.patientId,
        date: addDays(today, 3),
        status: 'cancelled',
      });
      ids.house = await fx.appointment({ doctor: house, patientId: paula.patientId, date: addDays(today, 1) });
      await server.db.query('update appointments set department_id = $1 where id = $2', [cardiologyId, ids.house]);
      // Bills as the clinic raises them: each doctor records a visit of yesterday's, which has begun.
      const diseaseId = await fx.disease('Migraine');
      for (const [doctor, patient, cost] of [
        [grey, paula, '80.00'],
        [house, formula, '120.50'],
      ] as const) {
        const appointmentId = await fx.appointment({ doctor, patientId: patient.patientId, date: addDays(today, -1) });
        const res = await server.api('POST', `/api/doctor/appointments/${appointmentId}/medical-record`, {
          token: doctor.token,
          body: {
            disease_id: diseaseId,
            diagnosis: 'Tension headache',
            service_type: '-Consultation',
            cost,
            record_date: today,
          },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        ids[`bill-${doctor.name}`] = res.body.billing.id;
        ids[`visit-${doctor.name}`] = appointmentId;
      }
    });
    after(() => server.close());

    const listed = async (path: string) => {
      const res = await server.api('GET', path, { token: admin.token });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const appointmentIds = async (query: string) =>
      (await listed(`/api/admin/appointments?${query}`)).appointments.map((a: { id: number }) => a.id);
    const lastAudit = async (entity: string) =>
      (
        await server.db.query<{ action: string; details: Record<string, unknown> }>(
          'select action, details from audit_log where actor_user_id = $1 and entity = $2 order by id desc limit 1',
          [admin.user.id, entity],
        )
      )[0];

    it('filters appointments by doctor, status, department and date range, newest first, and audits the filters', async () => {
      assert.deepEqual(await appointmentIds(`doctor_id=${grey.doctorId}`), [
        ids.greyCancelled,
        ids.greyFuture,
        ids['visit-Dr. Grey'],
        ids.greyPast,
      ]);
      assert.deepEqual(await appointmentIds(`doctor_id=${grey.doctorId}&status=scheduled`), [ids.greyFuture]);
      assert.deepEqual(await appointmentIds(`doctor_id=${grey.doctorId}&status=completed`), [
        ids['visit-Dr. Grey'],
        ids.greyPast,
      ]);
      assert.deepEqual(await appointmentIds(`department_id=${cardiologyId}`), [ids.house]);
      assert.deepEqual(await appointmentIds(`from=${addDays(today, -1)}&to=${addDays(today, 2)}&status=scheduled`), [
        ids.greyFuture,
        ids.house,
      ]);
      assert.deepEqual(await lastAudit('appointment'), {
        action: 'list',
        details: { page: 1, per_page: 50, from: addDays(today, -1), to: addDays(today, 2), status: 'scheduled' },
      });
    });

    it('pages a filtered list and counts only the filtered rows', async () => {
      const first = await listed(`/api/admin/appointments?doctor_id=${grey.doctorId}&per_page=3&page=1`);
      const second = await listed(`/api/admin/appointments?doctor_id=${grey.doctorId}&per_page=3&page=2`);
      assert.equal(first.total, 4);
      assert.deepEqual([first.appointments.length, second.appointments.length], [3, 1]);
      assert.equal(second.appointments[0].id, ids.greyPast);
    });

    it("filters bills by the visit's doctor and department, status and date", async () => {
      const billIds = async (query: string) =>
        (await listed(`/api/admin/billings?${query}`)).billings.map((b: { id: number }) => b.id);
      const [greys] = (await listed(`/api/admin/billings?doctor_id=${grey.doctorId}`)).billings;
      assert.deepEqual(
        [greys.id, greys.doctor_name, greys.visit_date, greys.amount],
        [ids['bill-Dr. Grey'], 'Dr. Grey', addDays(today, -1), '80.00'],
      );
      assert.deepEqual(await billIds(`department_id=${cardiologyId}`), [ids['bill-Dr. House']]);
      assert.deepEqual(await billIds(`status=unpaid&from=${today}&to=${today}`), [
        ids['bill-Dr. House'],
        ids['bill-Dr. Grey'],
      ]);
      assert.deepEqual(await billIds('status=paid'), []);
      assert.deepEqual(await billIds(`to=${addDays(today, -1)}`), []);
    });

    it('answers 422 naming the field for a bad date, a reversed range, an unknown status or id', async () => {
      for (const [path, field] of [
        ['/api/admin/appointments?from=2026-02-30', 'from'],
        ['/api/admin/appointments?to=yesterday', 'to'],
        ['/api/admin/appointments?from=2026-05-02&to=2026-05-01', 'to'],
        ['/api/admin/appointments?status=paid', 'status'],
        ['/api/admin/billings?status=scheduled', 'status'],
        ['/api/admin/billings?doctor_id=abc', 'doctor_id'],
        ['/api/admin/billings?department_id=0', 'department_id'],
        ['/api/admin/appointments.csv?from=1.1.2026', 'from'],
        ['/api/admin/billings.csv?status=open', 'status'],
      ] as const) {
        const res = await server.api('GET', path, { token: admin.token });
        assert.equal(res.status, 422, path);
        assert.ok(res.body.errors[field], `${path}: ${JSON.stringify(res.body)}`);
      }
    });

    it('exports exactly the filtered appointments, all pages, as RFC 4180 CSV with formulas defused, and audits the export', async () => {
      const res = await fetch(`${server.url}/api/admin/appointments.csv?doctor_id=${grey.doctorId}&per_page=1`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.match(
        res.headers.get('content-disposition') ?? '',
        new RegExp(`^attachment; filename="medora-appointments-${today}\\.csv"$`),
      );
      const lines = (await res.text()).split('\r\n');
      assert.equal(
        lines[0],
        'id,date,start_time,end_time,status,patient_id,patient_name,patient_email,doctor_id,doctor_name,doctor_email,department,room',
      );
      assert.deepEqual(
        lines.slice(1, -1).map((line) => Number(line.split(',')[0])),
        [ids.greyCancelled, ids.greyFuture, ids['visit-Dr. Grey'], ids.greyPast],
      );
      assert.equal(lines.at(-1), '');
      const formulaLine = lines.find((line) => line.startsWith(`${ids.greyFuture},`));
      assert.match(formulaLine ?? '', /,"'=HYPERLINK\(""http:\/\/evil""\)",/);
      assert.deepEqual(await lastAudit('appointment'), {
        action: 'export',
        details: { doctor_id: grey.doctorId, rows: 4 },
      });
    });

    it('exports the filtered bills with their amounts, and the search too', async () => {
      const res = await fetch(`${server.url}/api/admin/billings.csv?department_id=${cardiologyId}&q=hyperlink`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      assert.equal(res.status, 200);
      const lines = (await res.text()).split('\r\n');
      assert.equal(
        lines[0],
        'id,billing_date,patient_id,patient_name,patient_email,doctor_name,visit_date,service,amount,currency,status',
      );
      assert.equal(lines.length, 3);
      assert.equal(
        lines[1],
        `${ids['bill-Dr. House']},${today},${formula.patientId},"'=HYPERLINK(""http://evil"")",${formula.user.email},Dr. House,${addDays(today, -1)},'-Consultation,120.50,USD,unpaid`,
      );
      assert.deepEqual(await lastAudit('billing'), {
        action: 'export',
        details: { q: 'hyperlink', department_id: cardiologyId, rows: 1 },
      });
    });

    it('lets only admins list, export or edit patients', async () => {
      for (const token of [paula.token, grey.token]) {
        for (const [method, path] of [
          ['GET', '/api/admin/appointments.csv'],
          ['GET', '/api/admin/billings.csv'],
          ['GET', `/api/admin/appointments?doctor_id=${grey.doctorId}`],
          ['PUT', `/api/admin/patients/${paula.patientId}`],
        ] as const) {
          const res = await server.api(method, path, {
            token,
            body: method === 'PUT' ? { phone: '+1 555 6666' } : undefined,
          });
          assert.equal(res.status, 403, `${method} ${path}`);
        }
      }
      assert.equal((await server.api('GET', '/api/admin/appointments.csv')).status, 401);
      const [row] = await server.db.query<{ phone: string }>('select phone from patients where id = $1', [
        paula.patientId,
      ]);
      assert.notEqual(row?.phone, '+1 555 6666');
    });

    describe('editing a patient', () => {
      it('changes only the fields sent, audits the change and answers the patient', async () => {
        const res = await server.api('PUT', `/api/admin/patients/${paula.patientId}`, {
          token: admin.token,
          body: { phone: '+1 555 0199' },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.patient.phone, '+1 555 0199');
        assert.equal(res.body.patient.name, 'Paula Patient');
        assert.equal(res.body.patient.email, paula.user.email);
        const shown = await server.api('GET', `/api/admin/patients/${paula.patientId}`, { token: admin.token });
        assert.equal(shown.body.phone, '+1 555 0199');
        const audit = await server.db.query<{ action: string; patient_id: number }>(
          `select action, patient_id from audit_log where actor_user_id = $1 and entity = 'patient' and action = 'update'`,
          [admin.user.id],
        );
        assert.deepEqual(audit, [{ action: 'update', patient_id: paula.patientId }]);
      });

      it('keeps the e-mail the patient signs in with until they confirm the new one, and audits the request', async () => {
        const email = `paula.new.${Date.now()}@example.test`;
        const res = await server.api('PUT', `/api/admin/patients/${paula.patientId}`, {
          token: admin.token,
          body: { email, name: 'Paula Newname' },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(
          [res.body.patient.email, res.body.patient.pending_email, res.body.patient.name],
          [paula.user.email, email, 'Paula Newname'],
        );
        assert.equal(
          (await server.api('POST', '/api/login', { body: { email, password: 'correct horse battery' } })).status,
          401,
        );
        assert.equal(
          (
            await server.api('POST', '/api/login', {
              body: { email: paula.user.email, password: 'correct horse battery' },
            })
          ).status,
          200,
        );
        const [requested] = await server.db.query<{ details: Record<string, unknown> }>(
          `select details from audit_log where actor_user_id = $1 and action = 'email_change_requested' and patient_id = $2`,
          [admin.user.id, paula.patientId],
        );
        assert.deepEqual(requested?.details, { from: paula.user.email, to: email });
      });

      it("validates like the patient's own profile form, naming the field", async () => {
        for (const [body, field, status] of [
          [{ email: 'not-an-email' }, 'email', 422],
          [{ name: '' }, 'name', 422],
          [{ phone: 'x'.repeat(41) }, 'phone', 422],
          [{ birthdate: '2999-01-01' }, 'birthdate', 422],
          [{ gender: 'robot' }, 'gender', 422],
          [{ email: formula.user.email.toUpperCase() }, 'email', 409],
        ] as const) {
          const res = await server.api('PUT', `/api/admin/patients/${paula.patientId}`, { token: admin.token, body });
          assert.equal(res.status, status, JSON.stringify(body));
          assert.ok(res.body.errors?.[field], `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        }
        assert.equal(
          (await server.api('PUT', '/api/admin/patients/999999', { token: admin.token, body: { phone: '1' } })).status,
          404,
        );
        assert.equal(
          (await server.api('PUT', '/api/admin/patients/abc', { token: admin.token, body: { phone: '1' } })).status,
          404,
        );
      });
    });
  });
}
