import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { PGlite } from '@electric-sql/pglite';
import { join } from 'node:path';
import { createPglite } from './embedded/pglite.ts';
import { type DataDirCopy, embeddedDataDirBefore } from '../testing/test-db.ts';
import { slotsOf } from '../domain/scheduling/working-hours.ts';
import { readMigrations } from './migrate.ts';

const WORKING_HOURS_MIGRATION = 22;

describe('migration 0022: working hours', () => {
  let copy: DataDirCopy | undefined;
  let db: PGlite;

  before(async () => {
    copy = await embeddedDataDirBefore(WORKING_HOURS_MIGRATION);
    db = await createPglite(join(copy.dataDir, 'pglite'));
    await db.exec(`
      insert into users (name, email, password_hash, role) values ('Dr. Grey', 'grey@example.test', 'x', 'doctor');
      insert into doctors (user_id) select id from users;
      insert into departments (name) values ('Cardiology');
      insert into rooms (name, department_id) select 'Room 1', id from departments;
      -- Monday: 09:00–10:30 in 30 minutes in a room, a lunch break, 13:00–14:00 in 20 minutes without one;
      -- Tuesday: one odd 45-minute slot between 15-minute ones; a retired slot that must not come back.
      insert into schedules (doctor_id, weekday, start_time, end_time, room_id)
      select d.id, w.weekday, w.start_time::time, w.end_time::time, case when w.in_room then r.id end
      from doctors d, rooms r, (values
        (1, '09:00', '09:30', true), (1, '09:30', '10:00', true), (1, '10:00', '10:30', true),
        (1, '13:00', '13:20', false), (1, '13:20', '13:40', false), (1, '13:40', '14:00', false),
        (2, '08:00', '08:15', false), (2, '08:15', '09:00', false), (2, '09:00', '09:15', false)
      ) as w(weekday, start_time, end_time, in_room);
      insert into schedules (doctor_id, weekday, start_time, end_time, retired_at) select id, 3, '09:00', '09:30', now() from doctors;`);
    for (const m of readMigrations().filter((m) => m.version === WORKING_HOURS_MIGRATION)) await db.exec(m.sql);
  });
  after(async () => {
    await db?.close();
    await copy?.remove();
  });

  it('turns the current slots into ranges that give exactly those slots back', async () => {
    const { rows: ranges } = await db.query<{
      weekday: number;
      start_time: string;
      end_time: string;
      slot_minutes: number;
      room_id: number | null;
    }>(
      `select weekday, to_char(start_time, 'HH24:MI') as start_time, to_char(end_time, 'HH24:MI') as end_time, slot_minutes, room_id
       from working_hours order by weekday, start_time`,
    );
    assert.deepEqual(
      ranges.map((r) => `${r.weekday} ${r.start_time}-${r.end_time}/${r.slot_minutes}${r.room_id ? ' room' : ''}`),
      ['1 09:00-10:30/30 room', '1 13:00-14:00/20', '2 08:00-08:15/15', '2 08:15-09:00/45', '2 09:00-09:15/15'],
    );
    const { rows: slots } = await db.query<{
      weekday: number;
      start_time: string;
      end_time: string;
      room_id: number | null;
    }>(
      `select weekday, to_char(start_time, 'HH24:MI') as start_time, to_char(end_time, 'HH24:MI') as end_time, room_id
       from schedules where retired_at is null order by weekday, start_time`,
    );
    const generated = slotsOf(
      ranges.map((r) => ({
        weekday: r.weekday,
        startTime: r.start_time,
        endTime: r.end_time,
        slotMinutes: r.slot_minutes,
        roomId: r.room_id,
      })),
    );
    assert.deepEqual(
      generated,
      slots.map((s) => ({ weekday: s.weekday, startTime: s.start_time, endTime: s.end_time, roomId: s.room_id })),
    );
  });

  it('refuses a range whose slot does not fit and leave with half a time span', async () => {
    await assert.rejects(
      db.query(
        `insert into working_hours (doctor_id, weekday, start_time, end_time, slot_minutes) select id, 4, '09:00', '09:10', 20 from doctors`,
      ),
    );
    await assert.rejects(
      db.query(`insert into time_off (starts_on, ends_on, start_time) values ('2030-01-01', '2030-01-01', '09:00')`),
    );
  });
});
