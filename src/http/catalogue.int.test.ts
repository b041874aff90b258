import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { MAX_IMAGE_BYTES } from '../domain/shared/files.ts';
import {
  PASSWORD,
  fixedClock,
  signIn,
  signUpAdmin,
  signUpPatient,
  startTestServer,
  uniqueEmail,
  type TestServer,
} from '../testing/http.ts';
import { testDatabases } from '../testing/test-db.ts';
import { only } from '../testing/assert.ts';

const NOW = '2026-06-10T10:00:00Z'; // 12:00 in the clinic's Europe/Berlin
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

function doctorForm(fields: Record<string, string>, photo?: Uint8Array<ArrayBuffer>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (photo) form.append('photo', new Blob([photo]), 'photo.png');
  return form;
}

for (const target of testDatabases('one')) {
  describe(`catalogue over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let admin: string;
    let patient: string;

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      admin = (await signUpAdmin(server)).token;
      patient = (await signUpPatient(server)).token;
    });
    after(() => server.close());

    const api = (method: string, path: string, body?: unknown, token = admin) =>
      server.api(method, path, { token, body });
    const count = async (sql: string, params: unknown[] = []) =>
      only(await server.db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params)).n;
    const create = async (path: string, body: unknown) => {
      const res = await api('POST', path, body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };
    const createDoctor = async (fields: Record<string, string> = {}, photo?: Uint8Array<ArrayBuffer>) => {
      const res = await api(
        'POST',
        '/api/admin/doctors',
        doctorForm({ name: 'Dr. Jane Foster', email: uniqueEmail('doctor'), password: PASSWORD, ...fields }, photo),
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body;
    };
    /** A booking of the doctor on `date`, inserted directly: scheduling has its own tests. */
    const appointment = async (doctorId: number, date: string, status = 'scheduled') => {
      const { patient_id } = only(await server.db.query('select min(id) as patient_id from patients'));
      const { id: scheduleId } = only(
        await server.db.query(
          `insert into schedules (doctor_id, weekday, start_time, end_time) values ($1, 3, '09:00', '09:30') returning id`,
          [doctorId],
        ),
      );
      await server.db.query(
        `insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time, status)
         values ($1, $2, $3, $4, '09:00', '09:30', $5)`,
        [patient_id, doctorId, scheduleId, date, status],
      );
    };

    describe('departments', () => {
      it('creates, shows, updates, searches and pages departments', async () => {
        const cardiology = await create('/api/admin/departments', {
          name: 'Cardiology',
          description: 'Heart and vessels',
        });
        assert.deepEqual(cardiology, { id: cardiology.id, name: 'Cardiology', description: 'Heart and vessels' });
        await create('/api/admin/departments', { name: 'Pharmacy' });
        await create('/api/admin/departments', { name: 'Preventive Health' });

        assert.deepEqual((await api('GET', `/api/admin/departments/${cardiology.id}`)).body, cardiology);
        const updated = await api('PUT', `/api/admin/departments/${cardiology.id}`, {
          name: 'Cardiology',
          description: 'Heart',
        });
        assert.equal(updated.status, 200);
        assert.equal(updated.body.description, 'Heart');

        const search = await api('GET', '/api/admin/departments?q=PHARM');
        assert.deepEqual(
          search.body.departments.map((d: { name: string }) => d.name),
          ['Pharmacy'],
        );
        const page = await api('GET', '/api/admin/departments?per_page=2&page=2');
        assert.deepEqual(
          { ...page.body, departments: page.body.departments.length },
          { departments: 1, total: 3, total_is_lower_bound: false, page: 2, per_page: 2 },
        );
      });

      it('answers 422 naming the name when it is missing', async () => {
        const res = await api('POST', '/api/admin/departments', { description: 'no name' });
        assert.equal(res.status, 422);
        assert.equal(res.body.code, 'invalid');
        assert.deepEqual(Object.keys(res.body.errors), ['name']);
      });

      it('refuses a name already taken in any letter case with 409 name_taken', async () => {
        await create('/api/admin/departments', { name: 'Genetics and Diagnostics' });
        const res = await api('POST', '/api/admin/departments', { name: 'GENETICS AND DIAGNOSTICS' });
        assert.equal(res.status, 409);
        assert.equal(res.body.code, 'name_taken');
        assert.ok(res.body.errors.name);
      });

      it('answers 404 for a department that does not exist', async () => {
        for (const id of ['999999', 'abc']) {
          const res = await api('GET', `/api/admin/departments/${id}`);
          assert.equal(res.status, 404);
          assert.equal(res.body.code, 'not_found');
        }
        assert.equal((await api('PUT', '/api/admin/departments/999999', { name: 'X' })).status, 404);
        assert.equal((await api('DELETE', '/api/admin/departments/999999')).status, 404);
      });

      it('lets only admins manage departments', async () => {
        assert.equal((await server.api('GET', '/api/admin/departments')).status, 401);
        const res = await api('POST', '/api/admin/departments', { name: 'Sneaky' }, patient);
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'forbidden');
      });

      it('refuses to delete a department still in use and loses nothing', async () => {
        const department = await create('/api/admin/departments', { name: 'Emergency Care' });
        const room = await create('/api/admin/rooms', { name: 'ER 1', department_id: department.id });
        const doctor = await createDoctor({ department_id: String(department.id) });

        const refused = await api('DELETE', `/api/admin/departments/${department.id}`);
        assert.equal(refused.status, 409);
        assert.equal(refused.body.code, 'in_use');
        assert.equal(refused.body.message, '1 doctor and 1 room still belong to this department');
        assert.equal((await api('GET', `/api/admin/departments/${department.id}`)).status, 200);
        assert.equal((await api('GET', `/api/admin/doctors/${doctor.id}`)).body.department.id, department.id);
        assert.equal(await count('rooms where id = $1', [room.id]), 1);

        // The doctor's default weekly pattern uses the room, so the doctor goes first.
        assert.equal((await api('DELETE', `/api/admin/doctors/${doctor.id}`)).status, 200);
        assert.equal((await api('DELETE', `/api/admin/rooms/${room.id}`)).status, 204);
        assert.equal((await api('DELETE', `/api/admin/departments/${department.id}`)).status, 204);
        assert.equal((await api('GET', `/api/admin/departments/${department.id}`)).status, 404);
      });
    });

    describe('specializations and diseases', () => {
      it('creates, renames, lists and deletes a specialization', async () => {
        const created = await create('/api/admin/specializations', { name: 'Cardiologist' });
        assert.deepEqual(created, { id: created.id, name: 'Cardiologist' });
        const renamed = await api('PUT', `/api/admin/specializations/${created.id}`, { name: 'Cardiac Surgeon' });
        assert.equal(renamed.body.name, 'Cardiac Surgeon');
        const list = await api('GET', '/api/admin/specializations?q=cardiac');
        assert.deepEqual(list.body.specializations, [{ id: created.id, name: 'Cardiac Surgeon' }]);
        assert.equal((await api('DELETE', `/api/admin/specializations/${created.id}`)).status, 204);
        assert.equal((await api('DELETE', `/api/admin/specializations/${created.id}`)).status, 404);
      });

      it('validates specializations and refuses duplicates and deleting one in use', async () => {
        const missing = await api('POST', '/api/admin/specializations', { name: '  ' });
        assert.equal(missing.status, 422);
        assert.deepEqual(missing.body.errors, { name: ['is required'] });
        const surgeon = await create('/api/admin/specializations', { name: 'Surgeon' });
        assert.equal((await api('POST', '/api/admin/specializations', { name: 'surgeon' })).body.code, 'name_taken');
        await createDoctor({ specialization_id: String(surgeon.id) });
        const refused = await api('DELETE', `/api/admin/specializations/${surgeon.id}`);
        assert.equal(refused.status, 409);
        assert.equal(refused.body.code, 'in_use');
        assert.equal(refused.body.message, '1 doctor still has this specialization');
      });

      it('creates and lists diseases for admins and doctors, not patients', async () => {
        const corona = await create('/api/admin/diseases', { name: 'corona', description: 'COVID-19' });
        assert.deepEqual(corona, { id: corona.id, name: 'corona', description: 'COVID-19' });
        const doctor = await createDoctor();
        const doctorToken = (await signIn(server, doctor.email)).token;
        const forDoctor = await api('GET', '/api/diseases?q=coro', undefined, doctorToken);
        assert.equal(forDoctor.status, 200);
        assert.deepEqual(forDoctor.body.diseases, [corona]);
        assert.equal((await api('GET', '/api/diseases', undefined, patient)).status, 403);
        assert.equal((await api('GET', '/api/admin/diseases', undefined, doctorToken)).status, 403);
      });

      it('refuses a duplicate disease and deleting one a medical record names', async () => {
        const cancer = await create('/api/admin/diseases', { name: 'Cancer' });
        assert.equal((await api('POST', '/api/admin/diseases', { name: 'CANCER' })).status, 409);
        const doctor = await createDoctor();
        await appointment(doctor.id, '2026-06-01', 'completed');
        await server.db.query(
          `insert into medical_records (appointment_id, patient_id, doctor_id, disease_id, diagnosis, service_type, cost_cents, record_date)
           select a.id, a.patient_id, a.doctor_id, $2, 'Stage I', 'Oncology', 0, a.date from appointments a where a.doctor_id = $1`,
          [doctor.id, cancer.id],
        );
        const refused = await api('DELETE', `/api/admin/diseases/${cancer.id}`);
        assert.equal(refused.status, 409);
        assert.equal(refused.body.message, '1 medical record still names this disease');
        assert.equal(await count('diseases where id = $1', [cancer.id]), 1);
        const unused = await create('/api/admin/diseases', { name: 'Heart Disease' });
        assert.equal((await api('DELETE', `/api/admin/diseases/${unused.id}`)).status, 204);
      });
    });

    describe('rooms', () => {
      it('creates rooms with their department, renames and moves them', async () => {
        const rehab = await create('/api/admin/departments', { name: 'Rehabilitation' });
        const room = await create('/api/admin/rooms', { name: 'Gym', department_id: rehab.id });
        assert.deepEqual(room, {
          id: room.id,
          name: 'Gym',
          department_id: rehab.id,
          department: { id: rehab.id, name: 'Rehabilitation' },
        });
        const other = await create('/api/admin/departments', { name: 'Physiotherapy' });
        const moved = await api('PUT', `/api/admin/rooms/${room.id}`, { name: 'Gym 2', department_id: other.id });
        assert.equal(moved.status, 200);
        assert.deepEqual(moved.body.department, { id: other.id, name: 'Physiotherapy' });
        assert.equal((await api('GET', `/api/admin/rooms/${room.id}`)).body.name, 'Gym 2');
        const list = await api('GET', '/api/admin/rooms?q=physio');
        assert.deepEqual(
          list.body.rooms.map((r: { id: number }) => r.id),
          [room.id],
        );
      });

      it('answers 422 for a missing name or a department that does not exist', async () => {
        const missing = await api('POST', '/api/admin/rooms', {});
        assert.equal(missing.status, 422);
        assert.deepEqual(Object.keys(missing.body.errors).sort(), ['department_id', 'name']);
        const unknown = await api('POST', '/api/admin/rooms', { name: 'Nowhere', department_id: 999999 });
        assert.equal(unknown.status, 422);
        assert.deepEqual(unknown.body.errors, { department_id: ['does not exist'] });
      });

      it('keeps room names unique within a department only', async () => {
        const a = await create('/api/admin/departments', { name: 'Radiology' });
        const b = await create('/api/admin/departments', { name: 'Oncology' });
        await create('/api/admin/rooms', { name: 'Room 101', department_id: a.id });
        const taken = await api('POST', '/api/admin/rooms', { name: 'room 101', department_id: a.id });
        assert.equal(taken.status, 409);
        assert.equal(taken.body.code, 'name_taken');
        assert.equal((await api('POST', '/api/admin/rooms', { name: 'Room 101', department_id: b.id })).status, 201);
      });

      it('refuses to delete a room a schedule slot uses', async () => {
        const department = await create('/api/admin/departments', { name: 'Dermatology' });
        const room = await create('/api/admin/rooms', { name: 'Derm 1', department_id: department.id });
        const doctor = await createDoctor();
        await server.db.query(
          `insert into schedules (doctor_id, weekday, start_time, end_time, room_id) values ($1, 1, '09:00', '09:30', $2)`,
          [doctor.id, room.id],
        );
        const refused = await api('DELETE', `/api/admin/rooms/${room.id}`);
        assert.equal(refused.status, 409);
        assert.equal(refused.body.message, '1 schedule slot still uses this room');
        assert.equal((await api('DELETE', '/api/admin/rooms/999999')).status, 404);
      });
    });

    describe('doctors', () => {
      it('creates a doctor with a photo in one go, who can then sign in', async () => {
        const department = await create('/api/admin/departments', { name: 'Neurology' });
        const specialization = await create('/api/admin/specializations', { name: 'Neurologist' });
        const email = uniqueEmail('doctor');
        const doctor = await createDoctor(
          {
            name: 'Dr. Stephen Strange',
            email,
            phone: '+1 555 0199',
            gender: 'male',
            specialization_id: String(specialization.id),
            department_id: String(department.id),
            bio: 'Neurosurgeon',
            birthdate: '1970-11-18',
            address: '177A Bleecker Street',
          },
          PNG,
        );
        assert.match(doctor.image, /^\/api\/files\/\d+$/);
        assert.deepEqual(doctor, {
          id: doctor.id,
          name: 'Dr. Stephen Strange',
          email,
          user: { id: doctor.user.id, name: 'Dr. Stephen Strange', email, profile_image: doctor.image },
          phone: '+1 555 0199',
          gender: 'male',
          specialization: { id: specialization.id, name: 'Neurologist' },
          department: { id: department.id, name: 'Neurology' },
          bio: 'Neurosurgeon',
          birthdate: '1970-11-18',
          address: '177A Bleecker Street',
          image: doctor.image,
        });
        const photo = await fetch(server.url + doctor.image);
        assert.equal(photo.headers.get('content-type'), 'image/png');
        assert.deepEqual(new Uint8Array(await photo.arrayBuffer()), PNG);

        const login = await server.api('POST', '/api/login', { body: { email, password: PASSWORD } });
        assert.equal(login.body.role, 'doctor');
        assert.equal(
          (await api('GET', `/api/doctors/${doctor.id}`, undefined, patient)).body.name,
          'Dr. Stephen Strange',
        );
      });

      it('lists active doctors to admins, patients and any signed-in user, searched by department', async () => {
        const department = await create('/api/admin/departments', { name: 'Pediatrics' });
        const doctor = await createDoctor({ name: 'Dr. Kid Friendly', department_id: String(department.id) });
        for (const [path, token] of [
          ['/api/admin/doctors', admin],
          ['/api/doctors', patient],
          ['/api/patient/doctors', patient],
        ] as const) {
          const res = await api('GET', `${path}?q=pediatr`, undefined, token);
          assert.equal(res.status, 200, path);
          assert.deepEqual(
            res.body.doctors.map((d: { id: number }) => d.id),
            [doctor.id],
            path,
          );
        }
        assert.equal((await server.api('GET', '/api/doctors')).status, 401);
        assert.equal((await api('GET', '/api/patient/doctors', undefined, admin)).status, 403);
      });

      it('answers 422 naming every missing field and a department that does not exist', async () => {
        const missing = await api('POST', '/api/admin/doctors', doctorForm({ gender: 'robot' }));
        assert.equal(missing.status, 422);
        assert.deepEqual(Object.keys(missing.body.errors).sort(), ['email', 'gender', 'name', 'password']);
        const unknown = await api(
          'POST',
          '/api/admin/doctors',
          doctorForm({ name: 'Dr. X', email: uniqueEmail(), password: PASSWORD, department_id: '999999' }),
        );
        assert.equal(unknown.status, 422);
        assert.deepEqual(unknown.body.errors, { department_id: ['does not exist'] });
      });

      it('refuses a taken email with 409 and creates nothing', async () => {
        const doctor = await createDoctor();
        const [users, files] = [await count('users'), await count('files')];
        const res = await api(
          'POST',
          '/api/admin/doctors',
          doctorForm({ name: 'Dr. Twin', email: doctor.email.toUpperCase(), password: PASSWORD }, PNG),
        );
        assert.equal(res.status, 409);
        assert.equal(res.body.code, 'email_taken');
        assert.equal(await count('users'), users);
        assert.equal(await count('files'), files);
      });

      it('refuses a photo that is not an image (422) or larger than 2 MiB (413)', async () => {
        const fields = { name: 'Dr. Photo', email: uniqueEmail(), password: PASSWORD };
        const text = await api(
          'POST',
          '/api/admin/doctors',
          doctorForm(fields, new TextEncoder().encode('<svg onload=alert(1)>')),
        );
        assert.equal(text.status, 422);
        assert.ok(text.body.errors.photo);
        const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
        big.set(PNG);
        const tooBig = await api('POST', '/api/admin/doctors', doctorForm(fields, big));
        assert.equal(tooBig.status, 413);
        assert.equal(tooBig.body.code, 'image_too_large');
      });

      it('edits only the fields sent and keeps the email unique', async () => {
        const doctor = await createDoctor({ bio: 'Cardiologist of 20 years', phone: '+1 555 0111' }, PNG);
        const res = await api('PUT', `/api/admin/doctors/${doctor.id}`, {
          name: 'Dr. Jane Foster-Odinson',
          address: 'Asgard',
        });
        assert.equal(res.status, 200);
        assert.equal(res.body.name, 'Dr. Jane Foster-Odinson');
        assert.equal(res.body.address, 'Asgard');
        assert.equal(res.body.bio, 'Cardiologist of 20 years');
        assert.equal(res.body.image, doctor.image);

        const other = await createDoctor();
        const taken = await api('PUT', `/api/admin/doctors/${doctor.id}`, { email: other.email });
        assert.equal(taken.status, 409);
        assert.equal(taken.body.code, 'email_taken');
        const bad = await api('PUT', `/api/admin/doctors/${doctor.id}`, { birthdate: '2030-01-01' });
        assert.equal(bad.status, 422);
        assert.ok(bad.body.errors.birthdate);
        assert.equal((await api('PUT', '/api/admin/doctors/999999', { name: 'Nobody' })).status, 404);
      });

      it('replaces the photo and the password when new ones are sent', async () => {
        const doctor = await createDoctor({}, PNG);
        const res = await api(
          'PUT',
          `/api/admin/doctors/${doctor.id}`,
          doctorForm({ password: 'a brand new secret' }, PNG),
        );
        assert.equal(res.status, 200);
        assert.notEqual(res.body.image, doctor.image);
        assert.equal((await fetch(server.url + doctor.image)).status, 404);
        await signIn(server, doctor.email, 'a brand new secret');
      });

      it('erases a doctor with nothing attached', async () => {
        const doctor = await createDoctor({}, PNG);
        const res = await api('DELETE', `/api/admin/doctors/${doctor.id}`);
        assert.deepEqual(res.body, { result: 'removed' });
        assert.equal((await api('GET', `/api/admin/doctors/${doctor.id}`)).status, 404);
        assert.equal(await count('users where id = $1', [doctor.user.id]), 0);
        assert.equal((await api('DELETE', `/api/admin/doctors/${doctor.id}`)).status, 404);
      });

      it('refuses to delete a doctor with scheduled appointments from today on, saying how many', async () => {
        const doctor = await createDoctor();
        await appointment(doctor.id, '2026-06-10');
        await appointment(doctor.id, '2026-07-01');
        const res = await api('DELETE', `/api/admin/doctors/${doctor.id}`);
        assert.equal(res.status, 409);
        assert.equal(res.body.code, 'doctor_has_appointments');
        assert.match(res.body.message, /2 scheduled appointments/);
        assert.equal((await api('GET', `/api/admin/doctors/${doctor.id}`)).status, 200);
      });

      it('deactivates a doctor with past appointments: history kept, sessions ended, gone from lists', async () => {
        const doctor = await createDoctor({ name: 'Dr. Retiring Soon' });
        const session = await signIn(server, doctor.email);
        assert.equal((await server.api('GET', '/api/user', { token: session.token })).status, 200);
        await appointment(doctor.id, '2026-05-01', 'completed');

        const res = await api('DELETE', `/api/admin/doctors/${doctor.id}`);
        assert.deepEqual(res.body, { result: 'deactivated' });
        assert.equal((await server.api('GET', '/api/user', { token: session.token })).status, 401);
        const login = await server.api('POST', '/api/login', { body: { email: doctor.email, password: PASSWORD } });
        assert.equal(login.status, 401);
        assert.equal((await api('GET', '/api/doctors?q=retiring', undefined, patient)).body.total, 0);
        assert.equal((await api('GET', `/api/doctors/${doctor.id}`, undefined, patient)).status, 404);
        assert.equal(await count('appointments where doctor_id = $1', [doctor.id]), 1);
        assert.equal(await count('schedules where doctor_id = $1 and retired_at is null', [doctor.id]), 0);
      });
    });
  });
}
