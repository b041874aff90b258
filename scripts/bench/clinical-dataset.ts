/**
 * The wards, the laboratory and the medicines of the generated hospital (dataset.ts), set-based like the rest: each
 * table is one `insert … select … from generate_series`, ids are arithmetic, "random" is `hashint4` of the row number.
 *
 * At 100 %: 18 wards of 30 beds (6 rooms of 5), 6 nurses each, 28 beds of each ward held by a stay admitted 78 hours
 * ago with a vital-sign set every 4 hours over the last 72 (NEWS2 scored by Medora's own rules, one deteriorating
 * patient per ward, with its alerts), 10 earlier stays per bed; 8 lab orders of 3 tests per patient over 5 years (the
 * HbA1c, glucose and creatinine trends; their specimens are left out), reviewed but for those of the last 14 days,
 * collected orders waiting for the lab's results, and one patient with 1,000 observations; two medicines per stay and their doses every 6 and 8 hours
 * from admission to a day ahead. Wards, stays and orders scale with the hospital (one ward at 1 %), so a ward's board,
 * a stay's flowsheet, a doctor's results to review and a patient's trend hold as much at every scale.
 */
import type { Queryable } from '../../src/db/db.ts';
import { onlyRow } from '../../src/db/rows.ts';
import { generationSteps, hash } from './generation.ts';
import type { HospitalSize } from './scale.ts';
import { VITAL_PROFILES, STABLE_PROFILES, DETERIORATING_STEPS } from './vital-profiles.ts';

export const NURSE_EMAIL_DOMAIN = 'bench.medora.test';
export const LAB_EMAIL = `lab@${NURSE_EMAIL_DOMAIN}`;
/** The test whose five-year trend the bench reads, and the two ordered with it. */
export const TREND_CODE = '4548-4';
export const LAB_TESTS = [
  { code: TREND_CODE, low: 4, high: 5.6, base: 5.2, spread: 1.6, step: 0.02 },
  { code: '2345-7', low: 70, high: 99, base: 88, spread: 40, step: 0.3 },
  { code: '2160-0', low: 0.7, high: 1.3, base: 0.8, spread: 0.5, step: 0.005 },
] as const;

export interface ClinicalSize {
  wards: number;
  roomsPerWard: number;
  bedsPerRoom: number;
  /** Beds of each ward held by a current stay; the rest are free (one ready, one being cleaned). */
  occupiedPerWard: number;
  nursesPerWard: number;
  pastStaysPerBed: number;
  /** Vital-sign sets of a current stay: every `setHours` over the last `(sets - 1) * setHours` hours. */
  sets: number;
  setHours: number;
  labOrdersPerPatient: number;
  labYears: number;
  /** Patients 1 … labPatients have a lab history: all up to 250,000, so a hospital group's stays generable. */
  labPatients: number;
  /** Orders younger than this many days are signed off but not yet reviewed by their doctor. */
  unreviewedDays: number;
  /** Orders collected and waiting for the lab's results (the result entry write's targets). */
  openLabOrders: number;
  /** Observations of the patient whose `$everything` the bench pages through. */
  bigPatientObservations: number;
}

/** The clinical part of a hospital of `size`: wards in proportion to the patients, one at least. */
export function clinicalSize(size: HospitalSize): ClinicalSize {
  const share = size.patients / 100_000;
  return {
    wards: Math.min(size.departments, Math.max(1, Math.round(size.departments * share))),
    roomsPerWard: size.roomsPerDepartment,
    bedsPerRoom: 5,
    occupiedPerWard: size.roomsPerDepartment * 5 - 2,
    nursesPerWard: 6,
    pastStaysPerBed: 10,
    sets: 19,
    setHours: 4,
    labOrdersPerPatient: 8,
    labYears: 5,
    labPatients: Math.min(size.patients, 250_000),
    unreviewedDays: 14,
    openLabOrders: Math.max(2_000, Math.round(20_000 * share)),
    bigPatientObservations: 1_000,
  };
}

/** Where the clinical rows start: the generated hospital's users, and the ids the reads and writes look up. */
export interface ClinicalIds {
  /** Nurse `k` (1-based) of ward `w` is user `firstUser + (w - 1) * nursesPerWard + k`; the lab user follows. */
  firstUser: number;
  labUserId: number;
  /** The patient with `bigPatientObservations` observations. */
  bigPatientId: number;
}

// Tables the bulk steps fill; their plain indexes are built once the rows are in (as dataset.ts does for visits).
const BULK_TABLES = [
  'observations',
  'observation_versions',
  'lab_orders',
  'lab_order_items',
  'lab_reports',
  'lab_specimens',
  'lab_report_reviews',
];
const CHECKED_TABLES = [
  ...BULK_TABLES,
  'vital_sign_sets',
  'vital_sign_set_versions',
  'news2_alerts',
  'medication_requests',
  'medication_doses',
];
const CLINICAL_SEQUENCES = [
  'users',
  'beds',
  'admissions',
  'bed_stays',
  'vital_sign_sets',
  'observations',
  'news2_alerts',
  'lab_orders',
  'lab_order_items',
  'lab_reports',
  'lab_specimens',
  'medication_requests',
  'medication_doses',
];

/**
 * Generates the clinical part into a hospital dataset.ts has just generated (its users, patients, doctors, rooms
 * and appointments in place). Times are relative to the database's `now()`: the bench reads right after.
 */
export async function generateClinical(
  db: Queryable,
  options: { size: HospitalSize; passwordHash: string; progress: (line: string) => void },
): Promise<Record<string, number>> {
  const { size, passwordHash, progress } = options;
  const c = clinicalSize(size);
  const { step, timed } = generationSteps(db, progress);
  const { max } = onlyRow(await db.query<{ max: number }>('select max(id)::int as max from users'));
  const ids = clinicalIds(size, max);
  const nurse = (ward: string, k: string) => `${ids.firstUser} + (${ward} - 1) * ${c.nursesPerWard} + ${k}`;
  const bedsPerWard = c.roomsPerWard * c.bedsPerRoom;
  const beds = c.wards * bedsPerWard;
  // Current stay of bed b (1-based, ward by ward) is admission b, for patient b·stride: distinct and spread out.
  const stride = Math.max(1, Math.floor(size.patients / beds));
  const wardOf = (bed: string) => `((${bed} - 1) / ${bedsPerWard} + 1)`;
  const indexInWard = (bed: string) => `((${bed} - 1) % ${bedsPerWard} + 1)`;
  // The ward's doctor: one of its department's, else any.
  const doctorOf = (ward: string) => `(1 + (${ward} - 1) % ${size.doctors})`;
  const counts: Record<string, number> = {};

  const deferred = await db.query<{ name: string; definition: string }>(
    `select i.indexname as name, i.indexdef as definition from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = any($1::text[])
       and not exists (select 1 from pg_constraint c where c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
    [BULK_TABLES],
  );
  await db.exec(deferred.map(({ name }) => `drop index ${name};`).join('\n'));
  // The rows refer to each other by arithmetic ids made to match: their foreign keys are not checked row by row, as
  // pg_restore --disable-triggers loads a dump (a superuser's right; without it, they are checked).
  const unchecked = await disableChecks(db, CHECKED_TABLES);

  counts.staff = await step(
    'ward staff',
    `insert into users (id, name, email, password_hash, role)
     select ${nurse('w', 'k')}, 'Nurse ' || w || '.' || k, 'nurse' || w || '.' || k || '@${NURSE_EMAIL_DOMAIN}', $1, 'nurse'
     from generate_series(1, ${c.wards}) w, generate_series(1, ${c.nursesPerWard}) k
     union all select ${ids.labUserId}, 'Bench Laboratory', '${LAB_EMAIL}', $1, 'lab'`,
    [passwordHash],
  );
  await step(
    'nurses',
    `insert into nurses (user_id, department_id)
     select ${nurse('w', 'k')}, w from generate_series(1, ${c.wards}) w, generate_series(1, ${c.nursesPerWard}) k`,
  );
  counts.beds = await step(
    'beds',
    `insert into beds (id, room_id, label, housekeeping, housekeeping_since)
     select b, (${wardOf('b')} - 1) * ${size.roomsPerDepartment} + (${indexInWard('b')} - 1) / ${c.bedsPerRoom} + 1,
            'Bed ' || ((${indexInWard('b')} - 1) % ${c.bedsPerRoom} + 1),
            case when ${indexInWard('b')} = ${bedsPerWard} then 'cleaning' else 'ready' end, now() - interval '4 days'
     from generate_series(1, ${beds}) b`,
  );
  await step(
    'bed classes',
    `insert into room_bed_classes (room_id, bed_class, nightly_rate_cents)
     select (w - 1) * ${size.roomsPerDepartment} + r, case when r = 1 then 'Private' else 'Ward' end,
            case when r = 1 then 45000 else 20000 end
     from generate_series(1, ${c.wards}) w, generate_series(1, ${c.roomsPerWard}) r`,
  );
  // Current stays: admission b holds bed b; earlier ones follow, each a week in the bed some weeks back.
  const current = `from generate_series(1, ${beds}) b where ${indexInWard('b')} <= ${c.occupiedPerWard}`;
  const pastId = (bed: string, n: string) => `${beds} + (${bed} - 1) * ${c.pastStaysPerBed} + ${n}`;
  const pastStart = (n: string) => `now() - (${n} * 12 + 7) * interval '1 day'`;
  counts.admissions = await step(
    'admissions',
    `insert into admissions (id, patient_id, department_id, requested_by, expected_nights, reason, status, bed_id,
                             requested_at, reserved_at, admitted_at, discharge_ordered_at, discharged_at)
     select b, b * ${stride}, ${wardOf('b')}, ${doctorOf(wardOf('b'))}, 5, 'Bench admission', 'admitted', b,
            now() - interval '80 hours', now() - interval '79 hours', now() - interval '78 hours', null, null
     ${current}
     union all
     select ${pastId('b', 'n')}, 1 + ${hash(pastId('b', 'n'), 91)} % ${size.patients}, ${wardOf('b')}, ${doctorOf(wardOf('b'))},
            5, 'Bench admission', 'discharged', b, ${pastStart('n')} - interval '2 hours', ${pastStart('n')} - interval '1 hour',
            ${pastStart('n')}, ${pastStart('n')} + interval '5 days', ${pastStart('n')} + interval '5 days 3 hours'
     from generate_series(1, ${beds}) b, generate_series(1, ${c.pastStaysPerBed}) n`,
  );
  await step(
    'bed stays',
    `insert into bed_stays (id, admission_id, bed_id, nightly_rate_cents, started_at, ended_at, ended_by)
     select id, id, bed_id, 20000, admitted_at, discharged_at, case when discharged_at is null then null else 'discharge' end
     from admissions where id <= ${beds + beds * c.pastStaysPerBed}`,
  );

  // Vital-sign sets: set k (0 the oldest) of stay b is id (b-1)·sets + k + 1. One stay per ward deteriorates.
  const profiles = VITAL_PROFILES.map(
    (p, i) =>
      `(${i}, ${p.respiratoryRate}, ${p.spo2}, ${p.onOxygen}, ${p.systolic}, ${p.diastolic}, ${p.pulse}, '${p.consciousness}', ` +
      `${p.temperature}, ${p.total}, '${p.risk}', '${p.frequency}', '${JSON.stringify(p.parameters)}'::jsonb, ${p.dueMinutes})`,
  );
  await db.exec(`create temporary table bench_vital_profiles (id int primary key, rr int, spo2 int, on_oxygen boolean,
    systolic int, diastolic int, pulse int, acvpu text, temperature numeric, total int, risk text, frequency text,
    parameters jsonb, due_minutes int);
    insert into bench_vital_profiles values ${profiles.join(',\n')};`);
  // The profile of set k of stay a, from the stay and k alone, so the sets and their observations agree on it.
  const profileOf = (a: string, k: string) => `case when ${indexInWard(a)} = 3
      then greatest(0, ${STABLE_PROFILES + DETERIORATING_STEPS} - ${c.sets} + ${k})
        * (${k} >= ${c.sets - DETERIORATING_STEPS})::int
      else ${hash(`${a} * 32 + ${k}`, 101)} % ${STABLE_PROFILES} end`;
  counts.vital_sign_sets = await step(
    'vital sets',
    `insert into vital_sign_sets (id, patient_id, admission_id, effective_at, recorded_at, recorded_by, news2_scale,
                                  news2_total, news2_risk, news2_frequency, news2_parameters, next_due_at)
     select s.id, s.patient_id, s.admission_id, s.at, s.at + interval '3 minutes', s.nurse, 1, p.total, p.risk, p.frequency,
            p.parameters, s.at + p.due_minutes * interval '1 minute'
     from (select (a.id - 1) * ${c.sets} + k + 1 as id, a.patient_id, a.id as admission_id,
                  date_trunc('minute', now()) - interval '10 minutes' - (${c.sets - 1} - k) * interval '${c.setHours} hours' as at,
                  ${nurse(wardOf('a.id'), `1 + k % ${c.nursesPerWard}`)} as nurse, ${profileOf('a.id', 'k')} as profile
           from admissions a, generate_series(0, ${c.sets - 1}) k where a.id <= ${beds} and a.status = 'admitted') s
     join bench_vital_profiles p on p.id = s.profile`,
  );
  await step(
    'set versions',
    `insert into vital_sign_set_versions (set_id, version, news2_total, news2_risk, recorded_at, recorded_by)
     select id, 1, news2_total, news2_risk, recorded_at, recorded_by from vital_sign_sets`,
  );
  await step(
    'NEWS2 alerts',
    `insert into news2_alerts (set_id, version, admission_id, patient_id, department_id, total, risk, raised_at)
     select s.id, 1, s.admission_id, s.patient_id, a.department_id, s.news2_total, s.news2_risk, s.recorded_at
     from vital_sign_sets s join admissions a on a.id = s.admission_id where s.news2_risk in ('medium', 'high')`,
  );
  counts.vital_observations = await step(
    'vital obs',
    `insert into observations (patient_id, category, code_system, code, display, value_type, value_quantity, value_unit,
                               value_code, status, effective_at, recorded_at, recorded_by, vital_set_id)
     select s.patient_id, 'vital-signs', m.system, m.code, m.display, m.type, m.quantity, m.unit, m.value_code, 'final',
            s.effective_at, s.recorded_at, s.recorded_by, s.id
     from vital_sign_sets s
     join bench_vital_profiles p on p.id = ${profileOf(`((s.id - 1) / ${c.sets} + 1)`, `((s.id - 1) % ${c.sets})`)}
     cross join lateral (values
       ('loinc', '8480-6', 'Systolic blood pressure', 'quantity', p.systolic::numeric, 'mm[Hg]', null),
       ('loinc', '8462-4', 'Diastolic blood pressure', 'quantity', p.diastolic::numeric, 'mm[Hg]', null),
       ('loinc', '8867-4', 'Heart rate', 'quantity', p.pulse::numeric, '/min', null),
       ('loinc', '9279-1', 'Respiratory rate', 'quantity', p.rr::numeric, '/min', null),
       ('loinc', '8310-5', 'Body temperature', 'quantity', p.temperature, 'Cel', null),
       ('loinc', '2708-6', 'Oxygen saturation in Arterial blood', 'quantity', p.spo2::numeric, '%', null),
       ('loinc', '67775-7', 'Level of responsiveness', 'coded', null, null, p.acvpu),
       ('local', 'inspired-oxygen', 'Breathing supplemental oxygen', 'coded', null, null,
        case when p.on_oxygen then 'oxygen' else 'air' end)
     ) as m(system, code, display, type, quantity, unit, value_code)`,
  );
  await db.exec('drop table bench_vital_profiles');

  counts.lab_observations = await generateLab(db, { size, c, ids, step });
  counts.medication_doses = await generateMedicines(db, { c, beds, step, nurse, wardOf });

  await step(
    'obs versions',
    `insert into observation_versions (observation_id, version, value_type, value_quantity, value_unit, value_code,
                                       interpretation, status, recorded_at, recorded_by)
     select id, 1, value_type, value_quantity, value_unit, value_code, interpretation, status, recorded_at, recorded_by
     from observations`,
  );
  for (const table of CLINICAL_SEQUENCES)
    await db.query(
      `select setval(pg_get_serial_sequence('${table}', 'id'), greatest(1, (select max(id) from ${table})))`,
    );
  if (unchecked) await db.exec(CHECKED_TABLES.map((table) => `alter table ${table} enable trigger all;`).join('\n'));
  await timed('clinical indexes', () => db.exec(deferred.map(({ definition }) => `${definition};`).join('\n')));
  counts.observations = onlyRow(await db.query<{ n: number }>('select count(*)::int as n from observations')).n;
  return counts;
}

/** The patient with `bigPatientObservations` observations: not a stay's (those are multiples of the stride), low
 * enough to exist at every scale. */
export const BIG_PATIENT_ID = 5;

/** The ids of a hospital of `size` whose users ran up to `lastHospitalUser` before the clinical part. */
export function clinicalIds(size: HospitalSize, lastHospitalUser: number): ClinicalIds {
  const c = clinicalSize(size);
  return {
    firstUser: lastHospitalUser,
    labUserId: lastHospitalUser + c.wards * c.nursesPerWard + 1,
    bigPatientId: BIG_PATIENT_ID,
  };
}

type Step = ReturnType<typeof generationSteps>['step'];

/** Switches the tables' triggers (their foreign keys' checks among them) off; false when the role may not. */
async function disableChecks(db: Queryable, tables: string[]): Promise<boolean> {
  try {
    await db.exec(tables.map((table) => `alter table ${table} disable trigger all;`).join('\n'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Lab orders of every patient with a visit, on their first visit not cancelled and by its doctor (in their care team): order k (0 the newest) of
 * patient p is id (p-1)·orders + k + 1, one test of LAB_TESTS per item, one report, one specimen and one result
 * per item. Then the orders waiting for results, and the big patient's history.
 */
async function generateLab(
  db: Queryable,
  { size, c, ids, step }: { size: HospitalSize; c: ClinicalSize; ids: ClinicalIds; step: Step },
): Promise<number> {
  const tests = await db.query<{ id: number; code: string; name: string; unit: string }>(
    `select id, code, name, unit from lab_tests where code_system = 'loinc' and code = any($1::text[])`,
    [LAB_TESTS.map((t) => t.code)],
  );
  const catalogue = LAB_TESTS.map((t, i) => {
    const found = tests.find((row) => row.code === t.code);
    if (!found) throw new Error(`the lab catalogue has no test ${t.code}`);
    return `(${i + 1}, ${found.id}, '${t.code}', '${found.name.replace(/'/g, "''")}', '${found.unit}', ${t.low}, ${t.high}, ${t.base}, ${t.spread}, ${t.step})`;
  });
  const perOrder = LAB_TESTS.length;
  const history = size.patients * c.labOrdersPerPatient;
  const bigOrders = Math.ceil((c.bigPatientObservations - c.labOrdersPerPatient * perOrder) / perOrder);
  const spacing = Math.floor((c.labYears * 365) / c.labOrdersPerPatient);
  await db.exec(`create temporary table bench_lab_tests (n int primary key, test_id int, code text, name text, unit text,
    low numeric, high numeric, base numeric, spread numeric, step numeric);
    insert into bench_lab_tests values ${catalogue.join(', ')};
    create temporary table bench_first_visits as
      select distinct on (patient_id) patient_id, id as appointment_id, doctor_id from appointments
      where status <> 'cancelled' order by patient_id, id;
    alter table bench_first_visits add primary key (patient_id);`);
  // History: orders spaced over the years, newest first; open: collected two hours ago; big: the big patient's.
  const orders = `
    select (v.patient_id - 1) * ${c.labOrdersPerPatient} + k + 1 as id, v.patient_id, v.doctor_id, v.appointment_id,
           now() - (k * ${spacing} + ${hash(`v.patient_id * 8 + k`, 111)} % ${spacing}) * interval '1 day'
                 - ${hash(`v.patient_id * 8 + k`, 112)} % 600 * interval '1 minute' as ordered_at, 'resulted' as status
    from bench_first_visits v, generate_series(0, ${c.labOrdersPerPatient - 1}) k where v.patient_id <= ${c.labPatients}
    union all
    select ${history} + n, v.patient_id, v.doctor_id, v.appointment_id, now() - interval '2 hours', 'collected'
    from generate_series(1, ${c.openLabOrders}) n
    join bench_first_visits v on v.patient_id = 1 + ${hash('n', 113)} % ${size.patients}
    union all
    select ${history + c.openLabOrders} + n, v.patient_id, v.doctor_id, v.appointment_id,
           now() - interval '2 hours' - n * interval '5 days' - ${hash('n', 114)} % 600 * interval '1 minute', 'resulted'
    from generate_series(1, ${bigOrders}) n join bench_first_visits v on v.patient_id = ${ids.bigPatientId}`;
  await step(
    'lab orders',
    `insert into lab_orders (id, order_number, patient_id, doctor_id, appointment_id, priority, status, ordered_at)
     select id, 'B' || id, patient_id, doctor_id, appointment_id, 'routine', status, ordered_at from (${orders}) o`,
  );
  await step(
    'lab items',
    `insert into lab_order_items (id, order_id, test_id, status)
     select (o.id - 1) * ${perOrder} + t.n, o.id, t.test_id, o.status from lab_orders o, bench_lab_tests t`,
  );
  // The specimens of the orders waiting for results (the history's are left out: its reads do not need them).
  await step(
    'lab specimens',
    `insert into lab_specimens (id, specimen_code, order_item_id, collected_by, collected_at)
     select i.id, 'S' || i.id, i.id, ${ids.labUserId}, o.ordered_at + interval '30 minutes'
     from lab_order_items i join lab_orders o on o.id = i.order_id where o.status = 'collected'`,
  );
  await step(
    'lab reports',
    `insert into lab_reports (id, order_id, status, signed_off_at, signed_off_by, released_at, released_by, updated_at)
     select id, id, case when status = 'resulted' then 'final' else 'registered' end,
            case when status = 'resulted' then ordered_at + interval '6 hours' end,
            case when status = 'resulted' then ${ids.labUserId} end,
            case when status = 'resulted' and ordered_at < now() - interval '${c.unreviewedDays} days' then ordered_at + interval '1 day' end,
            case when status = 'resulted' and ordered_at < now() - interval '${c.unreviewedDays} days' then ${ids.labUserId} end,
            ordered_at + interval '6 hours'
     from lab_orders`,
  );
  // A value drifts with the order's age around the test's base, so each patient's series is a trend.
  const n = await step(
    'lab results',
    `insert into observations (patient_id, category, code_system, code, display, value_type, value_quantity, value_unit,
                               interpretation, range_low, range_high, status, effective_at, recorded_at, recorded_by,
                               order_item_id, report_id)
     select o.patient_id, 'laboratory', 'loinc', t.code, t.name, 'quantity', v.value, t.unit,
            case when v.value < t.low then 'L' when v.value > t.high then 'H' else 'N' end, t.low, t.high, 'final',
            o.ordered_at + interval '30 minutes', o.ordered_at + interval '5 hours', ${ids.labUserId}, i.id, o.id
     from lab_orders o join lab_order_items i on i.order_id = o.id join bench_lab_tests t on t.test_id = i.test_id
     cross join lateral (select round(t.base + t.spread * (${hash('i.id', 115)} % 100) / 100.0
                                 - t.step * extract(epoch from now() - o.ordered_at) / 86400 / 30, 2) as value) v
     where o.status = 'resulted'`,
  );
  await step(
    'lab reviews',
    `insert into lab_report_reviews (report_id, doctor_id, reviewed_at)
     select r.id, o.doctor_id, r.signed_off_at + interval '1 day' from lab_reports r join lab_orders o on o.id = r.order_id
     where r.released_at is not null`,
  );
  // What migration 0061's triggers would mark, had they not been switched off: the orders whose report awaits review.
  await step(
    'awaiting review',
    `update lab_orders o set awaiting_review = true from lab_reports r
     where r.order_id = o.id and r.status = 'final' and r.released_at is null`,
  );
  await db.exec('drop table bench_lab_tests; drop table bench_first_visits;');
  return n;
}

/** Two medicines per current stay, every 6 and every 8 hours from admission to a day ahead; past doses given. */
async function generateMedicines(
  db: Queryable,
  {
    c,
    beds,
    step,
    nurse,
    wardOf,
  }: {
    c: ClinicalSize;
    beds: number;
    step: Step;
    nurse: (ward: string, k: string) => string;
    wardOf: (bed: string) => string;
  },
): Promise<number> {
  const medicines = await db.query<{ id: number; generic_name: string }>(
    `select min(id) as id, generic_name from formulary where generic_name in ('Paracetamol', 'Amoxicillin')
       and form in ('tablet', 'capsule') group by generic_name order by generic_name`,
  );
  const [amoxicillin, paracetamol] = medicines;
  if (!amoxicillin || !paracetamol) throw new Error('the formulary has no paracetamol or amoxicillin tablets');
  await step(
    'prescriptions',
    `insert into medication_requests (id, patient_id, doctor_id, admission_id, medicine_id, dose_amount, dose_unit, route,
                                      frequency_kind, every_hours, start_date, starts_at, requested_at, status)
     select (a.id - 1) * 2 + m.n, a.patient_id, a.requested_by, a.id, m.medicine, m.amount, 'mg', 'oral', 'every_hours',
            m.hours, a.admitted_at::date, a.admitted_at, a.admitted_at, 'active'
     from admissions a, (values (1, ${paracetamol.id}, 1000, 6), (2, ${amoxicillin.id}, 500, 8)) as m(n, medicine, amount, hours)
     where a.id <= ${beds} and a.status = 'admitted'`,
  );
  // One dose in 25 of the past was not given: a late dose on the board and the MAR.
  return step(
    'doses',
    `insert into medication_doses (request_id, due_at, status, given_at, dose_amount, dose_unit, recorded_by, recorded_at)
     select r.id, d.due_at, case when d.given then 'given' else 'due' end,
            case when d.given then d.due_at + interval '10 minutes' end, case when d.given then r.dose_amount end,
            case when d.given then r.dose_unit end, case when d.given then d.nurse end,
            case when d.given then d.due_at + interval '12 minutes' end
     from medication_requests r
     cross join lateral (
       select r.starts_at + k * r.every_hours * interval '1 hour' as due_at,
              ${nurse(wardOf('r.admission_id'), `1 + k % ${c.nursesPerWard}`)} as nurse,
              r.starts_at + k * r.every_hours * interval '1 hour' < now() - interval '1 hour'
                and ${hash('r.id * 64 + k', 121)} % 25 <> 0 as given
       from generate_series(0, (78 + 30) / r.every_hours) k) d
     where r.admission_id <= ${beds}`,
  );
}
