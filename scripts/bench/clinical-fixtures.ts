/**
 * What the clinical load needs from a hospital generated with its clinical part (clinical-dataset.ts), read before
 * the servers start: sessions for the ward's nurses, the doctors and the lab, the stays and patients the reads
 * ask about, and fresh targets for the two clinical writes (a lab result, a vital-sign set).
 */
import type { Queryable } from '../../src/db/db.ts';
import { onlyRow } from '../../src/db/rows.ts';
import { present } from '../../src/testing/assert.ts';
import { LAB_EMAIL, LAB_TESTS, TREND_CODE } from './clinical-dataset.ts';
import { openSessions, type WriteRequest } from './fixtures.ts';

/** The ward whose board and MAR the bench reads: ward 1 exists at every scale. */
export const BENCH_WARD = 1;
/** Doctors whose results to review the bench reads; patients whose trend it reads. */
const DOCTORS_READING = 30;
const TREND_PATIENTS = 200;

export interface ClinicalFixtures {
  wardId: number;
  /** A nurse of the bench ward: their board is that ward's. */
  nurseToken: string;
  /** The ward's current stays, for their flowsheets. */
  stayIds: number[];
  /** Doctors with their results to review (up to DOCTORS_READING). */
  doctorTokens: string[];
  /** Patients and a doctor of theirs who reads their five-year trend of TREND_CODE. */
  trends: { patientId: number; token: string }[];
  trendCode: string;
  /** The patient with 1,000 observations and a doctor of theirs. */
  everything: { patientId: number; token: string; observations: number };
  writes: { labResult: WriteRequest[]; vitalSet: WriteRequest[] };
}

/** Lookups and sessions for the clinical reads and writes; `maxWrites` bounds each write's targets. */
export async function loadClinicalFixtures(
  db: Queryable,
  bigPatientId: number,
  maxWrites: number,
): Promise<ClinicalFixtures> {
  const nurses = await db.query<{ user_id: number; department_id: number }>(
    'select user_id, department_id from nurses order by department_id, user_id',
  );
  const wardNurse = present(
    nurses.find((n) => n.department_id === BENCH_WARD),
    'a nurse of the bench ward',
  );
  const stays = await db.query<{ id: number }>(
    `select a.id from admissions a where a.department_id = $1 and a.status = 'admitted' order by a.id`,
    [BENCH_WARD],
  );
  const doctors = await db.query<{ user_id: number }>('select user_id from doctors where active order by id limit $1', [
    DOCTORS_READING,
  ]);
  // One patient per order-history block, spread over the ids, with the doctor who orders their tests.
  const trends = await db.query<{ patient_id: number; user_id: number }>(
    `select distinct on (o.patient_id) o.patient_id, d.user_id
     from lab_orders o join doctors d on d.id = o.doctor_id
     where o.patient_id % greatest(1, (select count(*) from patients) / $1) = 0 and o.status = 'resulted'
       and o.patient_id <> $2
     order by o.patient_id, o.id limit $1`,
    [TREND_PATIENTS, bigPatientId],
  );
  const big = onlyRow(
    await db.query<{ user_id: number; observations: number }>(
      `select d.user_id, (select count(*)::int from observations where patient_id = $1) as observations
       from lab_orders o join doctors d on d.id = o.doctor_id where o.patient_id = $1 order by o.id limit 1`,
      [bigPatientId],
    ),
  );
  const { id: labUser } = onlyRow(await db.query<{ id: number }>('select id from users where email = $1', [LAB_EMAIL]));
  const items = await db.query<{ id: number; code: string; unit: string }>(
    `select i.id, t.code, t.unit from lab_order_items i join lab_tests t on t.id = i.test_id
     where i.status = 'collected' order by i.id limit $1`,
    [maxWrites],
  );
  const charted = await db.query<{ id: number; nurse: number }>(
    `select a.id, (select min(n.user_id) from nurses n where n.department_id = a.department_id) as nurse
     from admissions a where a.status = 'admitted' order by a.id`,
  );

  const tokens = await openSessions(db, [
    ...new Set([
      wardNurse.user_id,
      labUser,
      big.user_id,
      ...doctors.map((d) => d.user_id),
      ...trends.map((t) => t.user_id),
      ...charted.map((s) => s.nurse),
    ]),
  ]);
  const tokenOf = (userId: number) => present(tokens.get(userId), 'session token');
  return {
    wardId: BENCH_WARD,
    nurseToken: tokenOf(wardNurse.user_id),
    stayIds: stays.map((s) => s.id),
    doctorTokens: doctors.map((d) => tokenOf(d.user_id)),
    trends: trends.map((t) => ({ patientId: t.patient_id, token: tokenOf(t.user_id) })),
    trendCode: TREND_CODE,
    everything: { patientId: bigPatientId, token: tokenOf(big.user_id), observations: big.observations },
    writes: {
      labResult: items.map((item, i) => ({
        token: tokenOf(labUser),
        path: `/api/lab/items/${item.id}/result`,
        // A value within the test's range: no critical alert, no e-mail, the plain result entry.
        body: JSON.stringify({ type: 'quantity', value: normalValue(item.code, i), unit: item.unit }),
      })),
      // A set may be taken any number of times on a stay: the targets go round the stays, each by its ward's nurse.
      vitalSet: Array.from({ length: Math.min(maxWrites, charted.length * 100) }, (_, i) => {
        const stay = charted[i % charted.length];
        if (!stay) throw new Error('no stay to chart');
        return {
          token: tokenOf(stay.nurse),
          path: '/api/vitals/sets',
          body: JSON.stringify({
            admission_id: stay.id,
            respiratory_rate: 16 + (i % 5),
            spo2: 97,
            on_oxygen: false,
            systolic: 122,
            diastolic: 78,
            heart_rate: 70 + (i % 15),
            consciousness: 'A',
            temperature: 36.9,
          }),
        };
      }),
    },
  };
}

const normalValue = (code: string, i: number) => {
  const test = present(
    LAB_TESTS.find((t) => t.code === code),
    `bench test ${code}`,
  );
  return Math.round((test.low + ((test.high - test.low) * (i % 10)) / 10) * 100) / 100;
};
