import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { PGlite } from '@electric-sql/pglite';
import { join } from 'node:path';
import { createPglite } from './embedded/pglite.ts';
import { type DataDirCopy, embeddedDataDirBefore } from '../testing/test-db.ts';
import { readMigrations } from './migrate.ts';

const SEQUENCE_MIGRATION = 18;

describe('migration 0018: appointment sequence', () => {
  let copy: DataDirCopy | undefined;
  let db: PGlite;
  const ids: Record<string, number> = {};

  before(async () => {
    copy = await embeddedDataDirBefore(SEQUENCE_MIGRATION);
    db = await createPglite(join(copy.dataDir, 'pglite'));
    await db.exec(`
      insert into users (name, email, password_hash, role) values ('Mia', 'mia@example.test', 'x', 'patient'), ('Dr. Grey', 'grey@example.test', 'x', 'doctor');
      insert into patients (user_id) select id from users where role = 'patient' on conflict do nothing;
      insert into doctors (user_id) select id from users where role = 'doctor';
      insert into schedules (doctor_id, weekday, start_time, end_time) select id, 1, '09:00', '09:30' from doctors;`);
    // Before the column, e-mails said SEQUENCE 0 for a booking and 1 for a move or a cancellation.
    for (const [name, date, status] of [
      ['booked', '2030-03-04', 'scheduled'],
      ['moved', '2030-03-11', 'scheduled'],
      ['cancelled', '2030-03-18', 'cancelled'],
    ] as const) {
      const { rows } = await db.query<{ id: number }>(
        `insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time, status)
         select p.id, s.doctor_id, s.id, $1, s.start_time, s.end_time, $2 from patients p, schedules s returning id`,
        [date, status],
      );
      ids[name] = rows[0]?.id ?? 0;
    }
    await db.query(
      `insert into audit_log (action, entity, entity_id) values ('appointment_rescheduled', 'appointment', $1)`,
      [String(ids.moved)],
    );
    for (const m of readMigrations().filter((m) => m.version === SEQUENCE_MIGRATION)) await db.exec(m.sql);
  });
  after(async () => {
    await db?.close();
    await copy?.remove();
  });

  const sequenceOf = async (id: number | undefined) =>
    (await db.query<{ sequence: number }>('select sequence from appointments where id = $1', [id])).rows[0]?.sequence;

  it('gives a moved or cancelled visit the sequence its last e-mail carried, and a booked one 0', async () => {
    assert.deepEqual(
      [await sequenceOf(ids.booked), await sequenceOf(ids.moved), await sequenceOf(ids.cancelled)],
      [0, 1, 1],
    );
  });

  it('counts a move and a cancellation once each, whatever the update sets the column to', async () => {
    await db.query(`update appointments set date = '2030-03-25', sequence = 7 where id = $1`, [ids.booked]);
    assert.equal(await sequenceOf(ids.booked), 1);
    await db.query(`update appointments set status = 'cancelled' where id = $1`, [ids.booked]);
    assert.equal(await sequenceOf(ids.booked), 2);
    await db.query(`update appointments set updated_at = now() where id = $1`, [ids.booked]);
    assert.equal(await sequenceOf(ids.booked), 2);
  });
});
