import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { cliActor } from '../domain/shared/actor.ts';
import { only } from '../testing/assert.ts';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { testDatabases } from '../testing/test-db.ts';

for (const target of testDatabases('one')) {
  describe(`medora report census and inpatient bill-interim on ${target.name}`, () => {
    let database: CliDatabase;
    let wardId: number;

    /** One ward of two beds; one stay from 1 March 10:00 Berlin to 3 March 09:00, in bed at two midnights. */
    before(async () => {
      database = await openCliDatabase(target);
      const one = async (sql: string, params: unknown[] = []) =>
        only(await database.db.query<{ id: number }>(sql, params)).id;
      wardId = await one(`insert into departments (name) values ('Ward "North", =1') returning id`);
      const room = await one(`insert into rooms (name, department_id) values ('N1', $1) returning id`, [wardId]);
      const bed = await one(
        `insert into beds (room_id, label, created_at) values ($1, 'A', '2026-02-01') returning id`,
        [room],
      );
      await one(`insert into beds (room_id, label, created_at) values ($1, 'B', '2026-02-01') returning id`, [room]);
      const patient =
        await one(`with u as (insert into users (name, email, password_hash, role) values ('Pat', 'pat@x.test', 'x', 'patient') returning id)
         insert into patients (user_id) select id from u returning id`);
      const doctor =
        await one(`with u as (insert into users (name, email, password_hash, role) values ('Dr. D', 'd@x.test', 'x', 'doctor') returning id)
         insert into doctors (user_id) select id from u returning id`);
      const admission = await one(
        `insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, status, bed_id, requested_at, admitted_at, discharged_at)
         values ($1, $2, $3, 2, 'r', 'discharged', $4, '2026-03-01T09:00Z', '2026-03-01T09:00Z', '2026-03-03T08:00Z') returning id`,
        [patient, wardId, doctor, bed],
      );
      await one(
        `insert into bed_stays (admission_id, bed_id, nightly_rate_cents, started_at, ended_at, ended_by) values ($1, $2, 0, '2026-03-01T09:00Z', '2026-03-03T08:00Z', 'discharge') returning id`,
        [admission, bed],
      );
    });
    after(() => database.drop());

    it('prints the same CSV as the API, quoted as RFC 4180 says, and JSON for cron', async () => {
      const csv = await database.medora([
        'report',
        'census',
        '--from',
        '2026-03-01',
        '--to',
        '2026-03-03',
        '--format',
        'csv',
      ]);
      assert.equal(csv.code, 0, csv.stderr);
      assert.equal(
        csv.stdout,
        (await database.app.inpatient.censusCsv({ from: '2026-03-01', to: '2026-03-03' }, cliActor())).csv,
      );
      assert.deepEqual(csv.stdout.split('\r\n').slice(1), [
        `2026-03-01,${wardId},"Ward ""North"", =1",2,1,1,0,0,50`,
        `2026-03-02,${wardId},"Ward ""North"", =1",2,1,0,0,0,50`,
        `2026-03-03,${wardId},"Ward ""North"", =1",2,0,0,1,0,0`,
        '',
      ]);
      const json = await database.medora([
        'report',
        'census',
        '--from',
        '2026-03-01',
        '--to',
        '2026-03-03',
        '--ward',
        String(wardId),
      ]);
      assert.equal(json.code, 0, json.stderr);
      assert.deepEqual(
        JSON.parse(json.stdout).wards.map((w: { patient_nights: number; average_length_of_stay: number }) => [
          w.patient_nights,
          w.average_length_of_stay,
        ]),
        [[2, 2]],
      );
      const bad = await database.medora(['report', 'census', '--from', '2026-03-05', '--to', '2026-03-01']);
      assert.deepEqual([bad.code, bad.stderr], [1, 'error: to: must not be before from\n']);
    });

    it('says how many interim bills it issued', async () => {
      const run = await database.medora(['inpatient', 'bill-interim']);
      assert.deepEqual([run.code, run.stdout], [0, '0 interim bills issued\n']);
    });
  });
}
