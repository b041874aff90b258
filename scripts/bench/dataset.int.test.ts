import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import { patientDirectory } from '../../src/db/patients.pg.ts';
import { only, present } from '../../src/testing/assert.ts';
import { testDatabases } from '../../src/testing/test-db.ts';
import { generateHospital } from './dataset.ts';
import { hospitalSize } from './scale.ts';

for (const target of testDatabases('one')) {
  describe(`the bench hospital generator on ${target.name}`, () => {
    it('fills every table, with the dashboard counters and the patient search as the triggers would keep them', async () => {
      const { db, drop } = await target.open();
      try {
        const size = hospitalSize(0.0001);
        const counts = await generateHospital(db, {
          size,
          today: '2026-11-23',
          passwordHash: 'not-a-real-hash',
          progress: () => {},
        });
        assert.equal(counts.doctors, size.doctors);
        assert.equal(counts.patients, size.patients);
        assert.equal(counts.appointments, size.appointments);
        assert.ok(present(counts.medical_records) > 0 && counts.billings === counts.medical_records);

        const stats = only(await db.query<{ patients: number }>('select patients from clinic_stats'));
        assert.equal(stats.patients, size.patients);

        // The clinical part: a ward of 30 beds, 28 stays charted every 4 hours, one deteriorating to NEWS2 7.
        assert.equal(counts.beds, 30);
        const charted = only(
          await db.query<{ stays: number; sets: number; last_totals: number[] }>(
            `select count(distinct admission_id)::int as stays, count(*)::int as sets,
                    array_agg(news2_total order by news2_total) filter (where effective_at > now() - interval '1 hour') as last_totals
             from vital_sign_sets`,
          ),
        );
        assert.deepEqual([charted.stays, charted.sets], [28, 28 * 19]);
        assert.equal(Math.max(...charted.last_totals), 7);
        const big = only(
          await db.query<{ n: number }>(`select count(*)::int as n from observations where patient_id = 5`),
        );
        assert.ok(big.n >= 1_000, `the big patient has ${big.n} observations`);
        // Migration 0061's flag, its triggers being off while the generator inserts: on exactly the unreviewed orders.
        const toReview = only(
          await db.query<{ flagged: number; unreviewed: number }>(
            `select count(*) filter (where o.awaiting_review)::int as flagged,
                    count(*) filter (where r.status in ('final', 'corrected', 'amended') and not exists
                      (select 1 from lab_report_reviews rv where rv.report_id = r.id and rv.doctor_id = o.doctor_id))::int
                      as unreviewed
             from lab_orders o join lab_reports r on r.order_id = o.id`,
          ),
        );
        assert.ok(toReview.unreviewed > 0);
        assert.equal(toReview.flagged, toReview.unreviewed);
        const stale = only(
          await db.query<{ n: number }>(
            `select count(*)::int as n from patients p join users u on u.id = p.user_id
             where p.search_text is distinct from patient_search_text(u.name, u.email, p.phone)`,
          ),
        );
        assert.equal(stale.n, 0);

        const someone = only(
          await db.query<{ id: number; email: string }>(
            'select p.id, u.email from patients p join users u on u.id = p.user_id order by p.id desc limit 1',
          ),
        );
        const found = await patientDirectory(db).list({ q: someone.email, page: 1, perPage: 10 });
        assert.deepEqual(
          found.items.map((p) => p.id),
          [someone.id],
        );
      } finally {
        await drop();
      }
    });
  });
}
