import { only } from './assert.ts';
import { testHasher } from './test-app.ts';
import { PASSWORD, signIn, signUpPatient, uniqueEmail, type TestServer } from './http.ts';

/**
 * Clinic rows for records and billing tests, inserted with plain SQL so these tests do not depend on the
 * catalogue and scheduling use cases being written alongside them.
 */
export function clinicFixtures(server: TestServer) {
  const db = server.db;
  const one = async (sql: string, params: unknown[]) => only(await db.query<{ id: number }>(sql, params), 'row').id;
  let passwordHash: Promise<string> | undefined;

  return {
    /** A doctor account with a weekly Monday slot, signed in. */
    async doctor(name = 'Dr. Grey') {
      const email = uniqueEmail('doctor');
      passwordHash ??= testHasher.hash(PASSWORD);
      const userId = await one(
        `insert into users (name, email, password_hash, role) values ($1, $2, $3, 'doctor') returning id`,
        [name, email, await passwordHash],
      );
      const doctorId = await one('insert into doctors (user_id) values ($1) returning id', [userId]);
      const scheduleId = await one(
        `insert into schedules (doctor_id, weekday, start_time, end_time) values ($1, 1, '09:00', '09:30') returning id`,
        [doctorId],
      );
      return { doctorId, scheduleId, name, ...(await signIn(server, email)) };
    },

    async patient(name = 'Pat Tester', email?: string) {
      const signedIn = await signUpPatient(server, { name, ...(email ? { email } : {}) });
      const patientId = await one('select id from patients where user_id = $1', [signedIn.user.id]);
      return { ...signedIn, patientId, name };
    },

    /** A nurse of department `departmentId`, signed in. */
    async nurse(departmentId: number, name = 'Nia Nurse') {
      const email = uniqueEmail('nurse');
      passwordHash ??= testHasher.hash(PASSWORD);
      const userId = await one(
        `insert into users (name, email, password_hash, role) values ($1, $2, $3, 'nurse') returning id`,
        [name, email, await passwordHash],
      );
      await db.query('insert into nurses (user_id, department_id) values ($1, $2)', [userId, departmentId]);
      return { userId, departmentId, name, ...(await signIn(server, email)) };
    },

    /** A department with one room of `beds` beds in service. */
    async ward(name: string, beds = 2) {
      const departmentId = await one('insert into departments (name) values ($1) returning id', [name]);
      const roomId = await one('insert into rooms (name, department_id) values ($1, $2) returning id', [
        `${name} room`,
        departmentId,
      ]);
      const bedIds: number[] = [];
      for (let i = 1; i <= beds; i++)
        bedIds.push(await one(`insert into beds (room_id, label) values ($1, $2) returning id`, [roomId, `B${i}`]));
      return { departmentId, roomId, bedIds };
    },

    /** A stay of patient `patientId` in bed `bedId` of `departmentId`, requested by `doctorId`, admitted at `at`. */
    async admit(a: { patientId: number; doctorId: number; departmentId: number; bedId: number; at: string }) {
      const admissionId = await one(
        `insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, status, bed_id,
           requested_at, reserved_at, admitted_at)
         values ($1, $2, $3, 3, 'Community-acquired pneumonia', 'admitted', $4, $5, $5, $5) returning id`,
        [a.patientId, a.departmentId, a.doctorId, a.bedId, a.at],
      );
      await db.query(
        'insert into bed_stays (admission_id, bed_id, nightly_rate_cents, started_at) values ($1, $2, 0, $3)',
        [admissionId, a.bedId, a.at],
      );
      return admissionId;
    },

    async disease(name: string) {
      return one('insert into diseases (name) values ($1) returning id', [name]);
    },

    /** An appointment on `date` at `start`; by default each call takes the next free start time, so many fit on one day. */
    async appointment(a: {
      doctor: { doctorId: number; scheduleId: number };
      patientId: number;
      date: string;
      status?: string;
      start?: string;
    }) {
      const { n } = only(
        await db.query<{ n: number }>('select count(*)::int as n from appointments where doctor_id = $1', [
          a.doctor.doctorId,
        ]),
      );
      const start = a.start ?? `${String(8 + Math.floor(n / 2)).padStart(2, '0')}:${n % 2 ? '30' : '00'}`;
      return one(
        `insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time, status)
         values ($1, $2, $3, $4, $5::time, $5::time + interval '30 minutes', $6) returning id`,
        [a.patientId, a.doctor.doctorId, a.doctor.scheduleId, a.date, start, a.status ?? 'scheduled'],
      );
    },

    async appointmentStatus(id: number) {
      return only(
        await db.query<{ status: string }>('select status from appointments where id = $1', [id]),
        'appointment',
      ).status;
    },

    async count(table: 'medical_records' | 'billings' | 'payments', where: string, params: unknown[]) {
      return only(await db.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`, params)).n;
    },
  };
}
