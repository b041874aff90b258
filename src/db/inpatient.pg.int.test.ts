import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { testDatabases, type OpenedTestDatabase } from '../testing/test-db.ts';
import { only } from '../testing/assert.ts';
import { readAfterWaiting } from '../testing/read-after-waiting.ts';
import { admissionStore, bedStore } from './inpatient.pg.ts';

/** A ward with two beds and a patient's admission request, written straight into the tables. */
async function ward(db: OpenedTestDatabase['db']): Promise<{ beds: [number, number]; admission: number }> {
  return only(
    await db.query<{ beds: [number, number]; admission: number }>(
      `with dept as (insert into departments (name) values ('Ward') returning id),
            room as (insert into rooms (name, department_id) select 'Room 1', id from dept returning id),
            bed as (insert into beds (room_id, label) select room.id, l from room, unnest(array['A', 'B']) l returning id, label),
            pu as (insert into users (name, password_hash, role) values ('Pia Patient', 'x', 'patient') returning id),
            p as (insert into patients (user_id) select id from pu returning id),
            du as (insert into users (name, email, password_hash, role) values ('Dr Doe', 'doe@example.test', 'x', 'doctor') returning id),
            doc as (insert into doctors (user_id) select id from du returning id),
            adm as (insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, requested_at)
                    select p.id, dept.id, doc.id, 2, 'Observation', now() from p, dept, doc returning id)
       select (select array_agg(id order by label) from bed) as beds, (select id from adm) as admission`,
    ),
  );
}

for (const target of testDatabases('both').filter((t) => t.name === 'postgres')) {
  describe('a row locked while another transaction changes what is read with it, on postgres', () => {
    it('shows the bed held by the reservation that committed while its lock waited', async () => {
      const database = await target.open();
      try {
        const {
          beds: [bed],
          admission,
        } = await ward(database.db);
        const locked = await readAfterWaiting(
          database.url ?? '',
          ['select id from beds where id = $1 for update', [bed]],
          [
            `update admissions set status = 'reserved', bed_id = $2, reserved_at = now() where id = $1`,
            [admission, bed],
          ],
          () => database.db.transaction((tx) => bedStore(tx).lock(bed)),
        );
        assert.equal(
          locked?.holder?.admissionId,
          admission,
          'the desk refuses to block or give away a bed someone has just reserved',
        );
      } finally {
        await database.drop();
      }
    });

    it('shows the admission in the bed a transfer moved it to while its lock waited', async () => {
      const database = await target.open();
      try {
        const {
          beds: [first, second],
          admission,
        } = await ward(database.db);
        await database.db.query(
          `update admissions set status = 'reserved', bed_id = $2, reserved_at = now() where id = $1`,
          [admission, first],
        );
        const locked = await readAfterWaiting(
          database.url ?? '',
          ['select id from admissions where id = $1 for update', [admission]],
          ['update admissions set bed_id = $2 where id = $1', [admission, second]],
          () => database.db.transaction((tx) => admissionStore(tx).lock(admission)),
        );
        assert.deepEqual([locked?.bed?.id, locked?.bed?.label], [second, 'B']);
      } finally {
        await database.drop();
      }
    });
  });
}
