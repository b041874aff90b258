import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { testDatabases, type OpenedTestDatabase } from '../testing/test-db.ts';
import { only } from '../testing/assert.ts';
import { readAfterWaiting } from '../testing/read-after-waiting.ts';
import { recordStore } from './records.pg.ts';
import { appointmentStore } from './scheduling.pg.ts';

interface Visit {
  doctors: [number, number];
  schedules: [number, number];
  appointment: number;
  record: number;
  diseases: [number, number];
}

/** Two doctors with a Monday slot each, a patient's visit with the first and its record naming the first of two diseases. */
async function visit(db: OpenedTestDatabase['db']): Promise<Visit> {
  return only(
    await db.query<Visit>(
      `with du as (insert into users (name, email, password_hash, role) values ('Dr One', 'one@example.test', 'x', 'doctor'), ('Dr Two', 'two@example.test', 'x', 'doctor') returning id, name),
            doc as (insert into doctors (user_id) select id from du order by name returning id),
            sch as (insert into schedules (doctor_id, weekday, start_time, end_time) select id, 1, '09:00', '09:30' from doc returning id, doctor_id),
            pu as (insert into users (name, password_hash, role) values ('Pia Patient', 'x', 'patient') returning id),
            p as (insert into patients (user_id) select id from pu returning id),
            dis as (insert into diseases (name) values ('Asthma'), ('Bronchitis') returning id, name),
            app as (insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time)
                    select p.id, sch.doctor_id, sch.id, '2030-01-07', '09:00', '09:30' from p, sch order by sch.doctor_id limit 1 returning id, patient_id, doctor_id),
            rec as (insert into medical_records (appointment_id, patient_id, doctor_id, disease_id, diagnosis, service_type, cost_cents, record_date)
                    select app.id, app.patient_id, app.doctor_id, (select min(id) from dis), 'Wheezing', 'Consultation', 5000, '2030-01-07' from app returning id)
       select (select array_agg(id order by id) from doc) as doctors, (select array_agg(id order by doctor_id) from sch) as schedules,
              (select id from app) as appointment, (select id from rec) as record, (select array_agg(id order by name) from dis) as diseases`,
    ),
  );
}

for (const target of testDatabases('both').filter((t) => t.name === 'postgres')) {
  describe('an appointment or a record locked while another transaction changes it, on postgres', () => {
    it('finds the appointment a move to another doctor committed while its lock waited, with that doctor', async () => {
      const database = await target.open();
      try {
        const { doctors, schedules, appointment } = await visit(database.db);
        const locked = await readAfterWaiting(
          database.url ?? '',
          ['select id from appointments where id = $1 for update', [appointment]],
          [
            'update appointments set doctor_id = $2, schedule_id = $3 where id = $1',
            [appointment, doctors[1], schedules[1]],
          ],
          () => database.db.transaction((tx) => appointmentStore(tx).lock(appointment)),
        );
        assert.deepEqual(
          [locked?.id, locked?.doctor.id, locked?.doctor.name],
          [appointment, doctors[1], 'Dr Two'],
          'a cancel waiting on a move is not told the visit is gone',
        );
      } finally {
        await database.drop();
      }
    });

    it('shows the disease an amendment committed while its lock waited', async () => {
      const database = await target.open();
      try {
        const { record, diseases } = await visit(database.db);
        const locked = await readAfterWaiting(
          database.url ?? '',
          ['select id from medical_records where id = $1 for update', [record]],
          ['update medical_records set disease_id = $2 where id = $1', [record, diseases[1]]],
          () => database.db.transaction((tx) => recordStore(tx).lock(record)),
        );
        assert.deepEqual(locked?.disease, { id: diseases[1], name: 'Bronchitis' });
      } finally {
        await database.drop();
      }
    });
  });
}
