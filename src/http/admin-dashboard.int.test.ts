import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import {
  PASSWORD,
  fixedClock,
  signUpAdmin,
  signUpPatient,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { only, present } from '../testing/assert.ts';

const NOW = '2026-06-10T21:30:00Z'; // already 23:30 on June 10th in the clinic's Europe/Berlin
const TODAY = '2026-06-10';

for (const target of testDatabases('one')) {
  describe(`admin dashboard, lists and patients over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let admin: string;

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      admin = (await signUpAdmin(server)).token;
    });
    after(() => server.close());

    const get = (path: string, token = admin) => server.api('GET', path, { token });
    const one = async (sql: string, params: unknown[]) => only(await server.db.query<{ id: number }>(sql, params)).id;

    it('answers zeros and no top doctor for an empty clinic', async () => {
      assert.deepEqual((await get('/api/admin/statistics')).body, {
        appointment_count: 0,
        patient_count: 0,
        doctor_count: 0,
        average_diseases_per_doctor: 0,
      });
      assert.deepEqual((await get('/api/admin/top-doctor')).body, { top_doctor: null });
    });

    describe('on a hand-counted clinic', () => {
      const doctors: Record<string, { id: number; email: string }> = {};
      const patients: Record<string, { patientId: number; token: string; email: string }> = {};
      const doctorNamed = (name: string) => present(doctors[name], `doctor ${name}`);
      const patientNamed = (name: string) => present(patients[name], `patient ${name}`);
      let cardiology: number;
      let diseases: { flu: number; asthma: number };

      /** An appointment of `doctor` with `patient` on `date`, and optionally its medical record naming `disease`. */
      const visit = async (doctor: string, patient: string, date: string, status: string, disease?: number) => {
        const doctorId = doctorNamed(doctor).id;
        const { n } = only(
          await server.db.query<{ n: number }>('select count(*)::int as n from appointments where doctor_id = $1', [
            doctorId,
          ]),
        );
        const scheduleId = await one(
          `insert into schedules (doctor_id, weekday, start_time, end_time) values ($1, 1, '08:00'::time + $2 * interval '30 minutes', '08:30'::time + $2 * interval '30 minutes') returning id`,
          [doctorId, n],
        );
        const appointmentId = await one(
          `insert into appointments (patient_id, doctor_id, schedule_id, department_id, date, start_time, end_time, status)
           select $1, $2, s.id, $4, $5, s.start_time, s.end_time, $6 from schedules s where s.id = $3 returning id`,
          [patientNamed(patient).patientId, doctorId, scheduleId, cardiology, date, status],
        );
        if (disease) {
          await server.db.query(
            `insert into medical_records (appointment_id, patient_id, doctor_id, disease_id, diagnosis, service_type, cost_cents, record_date)
             values ($1, $2, $3, $4, 'Observed', 'Consultation', 5000, $5)`,
            [appointmentId, patientNamed(patient).patientId, doctorId, disease, date],
          );
        }
        return appointmentId;
      };

      before(async () => {
        cardiology = (
          await server.api('POST', '/api/admin/departments', { token: admin, body: { name: 'Cardiology' } })
        ).body.id;
        const specialization = (
          await server.api('POST', '/api/admin/specializations', { token: admin, body: { name: 'Cardiologist' } })
        ).body.id;
        for (const name of ['Ann', 'Ben', 'Cat', 'Dan']) {
          const email = uniqueEmail(name.toLowerCase());
          const form = new FormData();
          for (const [k, v] of Object.entries({
            name: `Dr. ${name}`,
            email,
            password: PASSWORD,
            specialization_id: String(specialization),
          }))
            form.append(k, v);
          doctors[name] = {
            id: (await server.api('POST', '/api/admin/doctors', { token: admin, body: form })).body.id,
            email,
          };
        }
        for (const name of ['Pia', 'Quin', 'Rob']) {
          const signedUp = await signUpPatient(server, {
            name: `${name} Patient`,
            phone: `+1 555 01${name.length}${name.charCodeAt(0)}`,
          });
          patients[name] = {
            ...signedUp,
            patientId: await one('select id from patients where user_id = $1', [signedUp.user.id]),
          };
        }
        diseases = {
          flu: (await server.api('POST', '/api/admin/diseases', { token: admin, body: { name: 'Flu' } })).body.id,
          asthma: (await server.api('POST', '/api/admin/diseases', { token: admin, body: { name: 'Asthma' } })).body.id,
        };
        // Ann: 3 completed with 2 patients; flu twice and asthma once → 2 doctor–disease pairs.
        await visit('Ann', 'Pia', '2026-06-01', 'completed', diseases.flu);
        await visit('Ann', 'Pia', '2026-06-08', 'completed', diseases.flu);
        await visit('Ann', 'Quin', '2026-06-09', 'completed', diseases.asthma);
        // Ben: 3 completed with 3 patients (wins the tie on patients); flu and asthma → 2 pairs.
        await visit('Ben', 'Pia', '2026-06-04', 'completed', diseases.flu);
        await visit('Ben', 'Quin', TODAY, 'completed', diseases.asthma);
        await visit('Ben', 'Rob', TODAY, 'completed');
        // Cat: one scheduled today, one cancelled today (not counted), one 40 days ago.
        await visit('Cat', 'Rob', TODAY, 'scheduled');
        await visit('Cat', 'Rob', TODAY, 'cancelled');
        await visit('Cat', 'Quin', '2026-05-01', 'completed');
        // Dan: 5 completed and a record, then deactivated: history, but no longer counted or crowned.
        for (const date of ['2026-06-02', '2026-06-03', '2026-06-05', '2026-06-06'])
          await visit('Dan', 'Rob', date, 'completed');
        await visit('Dan', 'Pia', '2026-06-07', 'completed', diseases.flu);
        const deleted = await server.api('DELETE', `/api/admin/doctors/${doctorNamed('Dan').id}`, { token: admin });
        assert.deepEqual(deleted.body, { result: 'deactivated' });
      });

      it('counts booked appointments, patients, active doctors and disease pairs per doctor', async () => {
        const res = await get('/api/admin/statistics');
        assert.equal(res.status, 200);
        // 3 Ann + 3 Ben + 2 Cat (the cancelled one left out) + 5 Dan = 13; pairs (Ann 2 + Ben 2) / 3 active doctors = 1.33
        assert.deepEqual(res.body, {
          appointment_count: 13,
          patient_count: 3,
          doctor_count: 3,
          average_diseases_per_doctor: 1.33,
        });
      });

      it('crowns the active doctor with most completed appointments, ties broken by more patients', async () => {
        const res = await get('/api/admin/top-doctor');
        assert.deepEqual(res.body, {
          top_doctor: {
            id: doctorNamed('Ben').id,
            name: 'Dr. Ben',
            specialization: 'Cardiologist',
            patient_img: null,
            completed_appointments_count: 3,
            patient_count: 3,
          },
        });
      });

      it('counts booked appointments per clinic date, zero-filled', async () => {
        const res = await get('/api/admin/appointments-per-day?days=7');
        assert.deepEqual(res.body.days, [
          { date: '2026-06-04', count: 1 },
          { date: '2026-06-05', count: 1 },
          { date: '2026-06-06', count: 1 },
          { date: '2026-06-07', count: 1 },
          { date: '2026-06-08', count: 1 },
          { date: '2026-06-09', count: 1 },
          { date: '2026-06-10', count: 3 },
        ]);
        assert.equal((await get('/api/admin/appointments-per-day')).body.days.length, 30);
        for (const days of ['0', '400', 'week']) {
          const bad = await get(`/api/admin/appointments-per-day?days=${days}`);
          assert.equal(bad.status, 422);
          assert.ok(bad.body.errors.days);
        }
      });

      it('lists every appointment newest first, searched by patient, doctor or department', async () => {
        const all = await get('/api/admin/appointments?per_page=2');
        assert.equal(all.body.total, 14);
        assert.equal(all.body.appointments.length, 2);
        const first = all.body.appointments[0];
        assert.equal(first.date, TODAY);
        assert.deepEqual(Object.keys(first).sort(), [
          'date',
          'department',
          'department_name',
          'doctor',
          'doctor_email',
          'doctor_name',
          'end_time',
          'id',
          'patient',
          'patient_email',
          'patient_name',
          'room',
          'room_name',
          'start_time',
          'status',
        ]);
        assert.match(first.start_time, /^\d\d:\d\d$/);
        assert.deepEqual(first.department, { id: cardiology, name: 'Cardiology' });

        const byPatient = await get(`/api/admin/appointments?q=${encodeURIComponent(patientNamed('Quin').email)}`);
        assert.equal(byPatient.body.total, 3);
        assert.ok(
          byPatient.body.appointments.every(
            (a: { patient_email: string }) => a.patient_email === patientNamed('Quin').email,
          ),
        );
        assert.equal((await get('/api/admin/appointments?q=dr.%20cat')).body.total, 3);
        assert.equal((await get('/api/admin/appointments?q=cardio')).body.total, 14);
        assert.equal((await get('/api/admin/appointments', patientNamed('Pia').token)).status, 403);
      });

      it('lists every bill newest first, searched by patient or service', async () => {
        for (const [patient, service, date] of [
          ['Pia', 'ECG', '2026-06-01'],
          ['Quin', 'Spirometry', '2026-06-09'],
        ] as const) {
          await server.db.query(
            `insert into billings (patient_id, service_details, amount_cents, billing_date) values ($1, $2, 12050, $3)`,
            [patientNamed(patient).patientId, service, date],
          );
        }
        const all = await get('/api/admin/billings');
        assert.deepEqual(
          all.body.billings.map((b: { service_details: string }) => b.service_details),
          ['Spirometry', 'ECG'],
        );
        assert.deepEqual(all.body.billings[0], {
          id: all.body.billings[0].id,
          bill_number: `B-${String(all.body.billings[0].id).padStart(6, '0')}`,
          patient: { id: patientNamed('Quin').patientId, name: 'Quin Patient', email: patientNamed('Quin').email },
          // A bill written without a visit has no doctor or visit date to show.
          doctor_name: null,
          visit_date: null,
          service_details: 'Spirometry',
          amount: '120.50',
          amount_cents: 12050,
          paid: '0.00',
          paid_cents: 0,
          balance: '120.50',
          balance_cents: 12050,
          billing_date: '2026-06-09',
          payment_status: 'unpaid',
          // Nothing credited or added to it yet (src/http/bill-adjustments.int.test.ts adjusts bills).
          credited: '0.00',
          credited_cents: 0,
          adjusted_amount: '120.50',
          adjusted_amount_cents: 12050,
          refund_due: '0.00',
          refund_due_cents: 0,
          supplements_bill_id: null,
          adjustments: [],
        });
        assert.equal((await get('/api/admin/billings?q=pia%20pat')).body.total, 1);
        assert.equal((await get('/api/admin/billings?q=ecg')).body.total, 1);
        assert.equal((await get('/api/admin/billings?per_page=500')).status, 422);
      });

      it('lists patients searched by name, email or phone', async () => {
        const all = await get('/api/admin/patients?per_page=2&page=2');
        assert.equal(all.body.total, 3);
        assert.deepEqual(all.body.patients, [
          {
            id: patientNamed('Rob').patientId,
            name: 'Rob Patient',
            email: patientNamed('Rob').email,
            phone: all.body.patients[0].phone,
            gender: 'female',
            birthdate: '1990-05-17',
            no_shows: 0,
          },
        ]);
        assert.equal(
          (await get(`/api/admin/patients?q=${encodeURIComponent(all.body.patients[0].phone)}`)).body.total,
          1,
        );
        assert.equal((await get('/api/admin/patients?q=quin')).body.patients[0].id, patientNamed('Quin').patientId);
        const searchedPage = await get('/api/admin/patients?q=PATIENT&per_page=2&page=2');
        assert.deepEqual(
          [searchedPage.body.total, searchedPage.body.patients.map((p: { name: string }) => p.name)],
          [3, ['Rob Patient']],
        );
        assert.deepEqual((await get('/api/admin/patients?q=patient&per_page=2&page=3')).body, {
          patients: [],
          total: 3,
          total_is_lower_bound: false,
          page: 3,
          per_page: 2,
        });
        assert.equal((await get('/api/admin/patients', patientNamed('Pia').token)).status, 403);
        assert.equal((await server.api('GET', '/api/admin/patients')).status, 401);
      });

      it('shows a patient with every medical record to an admin, and audits the read', async () => {
        const id = patientNamed('Pia').patientId;
        const res = await get(`/api/admin/patients/${id}`);
        assert.equal(res.status, 200);
        assert.equal(res.body.name, 'Pia Patient');
        assert.deepEqual(
          res.body.medical_records.map(
            (r: { record_date: string; disease: { name: string }; doctor: { name: string } }) => [
              r.record_date,
              r.disease.name,
              r.doctor.name,
            ],
          ),
          [
            ['2026-06-08', 'Flu', 'Dr. Ann'],
            ['2026-06-07', 'Flu', 'Dr. Dan'],
            ['2026-06-04', 'Flu', 'Dr. Ben'],
            ['2026-06-01', 'Flu', 'Dr. Ann'],
          ],
        );
        const [audit] = await server.db.query(
          `select action, entity_id from audit_log where action = 'read_records' and patient_id = $1`,
          [id],
        );
        assert.deepEqual(audit, { action: 'read_records', entity_id: String(id) });
        assert.equal((await get('/api/admin/patients/999999')).status, 404);
      });
    });

    describe('the patient profile', () => {
      it('shows and updates the signed-in patient', async () => {
        const me = await signUpPatient(server, { name: 'Olga Own' });
        const shown = await get('/api/patient/profile', me.token);
        assert.equal(shown.status, 200);
        assert.deepEqual(shown.body.user, {
          id: me.user.id,
          name: 'Olga Own',
          email: me.email,
          role: 'patient',
          profile_image: null,
        });
        assert.equal(shown.body.patient.birthdate, '1990-05-17');

        const email = uniqueEmail('olga');
        const body = { name: 'Olga Owner', email, phone: '+44 20 7946 0000', birthdate: '1985-01-02', gender: 'other' };
        const updated = await server.api('PUT', '/api/patient/profile', {
          token: me.token,
          body: { ...body, current_password: PASSWORD },
        });
        assert.equal(updated.status, 200);
        assert.deepEqual(
          { ...updated.body.patient, id: undefined, photo: undefined, description: undefined },
          {
            ...body,
            id: undefined,
            photo: undefined,
            description: undefined,
            reminders: true,
            email_verified: false,
            pending_email: null,
          },
        );
        assert.equal((await get('/api/user', me.token)).body.email, email);

        const found = async (q: string) =>
          (await get(`/api/admin/patients?q=${encodeURIComponent(q)}`)).body.patients.map((p: { id: number }) => p.id);
        assert.deepEqual(await found('olga owner'), [shown.body.patient.id], 'the admin search sees the new name');
        assert.deepEqual(await found('7946 0000'), [shown.body.patient.id], 'and the new phone');
        assert.deepEqual(await found(me.email), [], 'and no longer the old e-mail');
      });

      it('refuses an email another account has, and names bad fields', async () => {
        const me = await signUpPatient(server);
        const other = await signUpPatient(server);
        const base = { name: 'Me', phone: '1', birthdate: '1990-01-01', gender: 'male', current_password: PASSWORD };
        const taken = await server.api('PUT', '/api/patient/profile', {
          token: me.token,
          body: { ...base, email: other.email },
        });
        assert.equal(taken.status, 409);
        assert.equal(taken.body.code, 'email_taken');
        const bad = await server.api('PUT', '/api/patient/profile', {
          token: me.token,
          body: { ...base, email: 'nope', gender: 'x', birthdate: TODAY },
        });
        assert.equal(bad.status, 422);
        assert.deepEqual(Object.keys(bad.body.errors).sort(), ['birthdate', 'email', 'gender']);
      });

      it('belongs to patients only', async () => {
        assert.equal((await get('/api/patient/profile')).status, 403);
        assert.equal((await server.api('GET', '/api/patient/profile')).status, 401);
      });
    });
  });
}
