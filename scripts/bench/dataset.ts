/**
 * Fills a freshly migrated database with a hospital of the given size, set-based: every table is one
 * `insert … select … from generate_series`, so a million appointments take seconds, not a million round trips.
 *
 * Ids are explicit and arithmetic (the admin is user 1, doctor d is user 1+d, patient p is user 1+doctors+p,
 * schedule rows are numbered by doctor, weekday and slot), so rows find each other without lookups; the
 * identity sequences are moved past them at the end so the application's own inserts carry on from there.
 * "Random" choices are `hashint4` of the row number: the same hospital on PostgreSQL 15 and PGlite, run after run.
 */
import type { Queryable } from '../../src/db/db.ts';
import { generateClinical } from './clinical-dataset.ts';
import { generationSteps, hash } from './generation.ts';
import { slotCapacity, slotStride, type HospitalSize } from './scale.ts';

export const BENCH_PASSWORD = 'bench-password';
export const ADMIN_EMAIL = 'admin@bench.medora.test';

export const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Daniel',
  'Lisa',
  'Matthew',
  'Nancy',
  'Anthony',
  'Sandra',
  'Mark',
  'Ashley',
  'Paul',
  'Emily',
  'Steven',
  'Donna',
  'Andrew',
  'Michelle',
  'Kenneth',
  'Carol',
  'Joshua',
  'Amanda',
  'Kevin',
  'Melissa',
  'Brian',
  'Deborah',
  'George',
  'Stephanie',
  'Omar',
  'Amina',
  'Wei',
  'Mei',
  'Carlos',
  'Lucia',
  'Hiroshi',
  'Yuki',
  'Ivan',
  'Olga',
  'Ahmed',
  'Fatima',
  'Raj',
  'Priya',
];
export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Kowalski',
  'Novak',
  'Schmidt',
  'Rossi',
  'Tanaka',
  'Khan',
];
// The spec gives these three their own icon and colour on the doctor's patient page.
const DISEASES = [
  'corona',
  'Heart Disease',
  'Cancer',
  'Diabetes',
  'Hypertension',
  'Asthma',
  'Influenza',
  'Pneumonia',
  'Migraine',
  'Arthritis',
  'Bronchitis',
  'Anemia',
  'Gastritis',
  'Hepatitis B',
  'Tuberculosis',
  'Malaria',
  'Eczema',
  'Psoriasis',
  'Osteoporosis',
  'Glaucoma',
  'Cataract',
  'Otitis Media',
  'Sinusitis',
  'Tonsillitis',
  'Appendicitis',
  'Kidney Stones',
  'Hypothyroidism',
  'Hyperthyroidism',
  'Epilepsy',
  'Depression',
  'Anxiety Disorder',
  'Dermatitis',
  'Gout',
  'Scoliosis',
  'Varicose Veins',
  'Celiac Disease',
  'Lyme Disease',
  'Sciatica',
  'Conjunctivitis',
  'Tendinitis',
];
const DEPARTMENTS = [
  'Cardiology',
  'Pharmacy',
  'Emergency Care',
  'Genetics',
  'Diagnostics',
  'Rehabilitation',
  'Preventive Health',
  'Neurology',
  'Oncology',
  'Pediatrics',
  'Orthopedics',
  'Dermatology',
  'Radiology',
  'Gastroenterology',
  'Pulmonology',
  'Nephrology',
  'Ophthalmology',
  'Psychiatry',
];
const SPECIALIZATIONS = [
  'Cardiologist',
  'Clinical Pharmacist',
  'Emergency Physician',
  'Geneticist',
  'Pathologist',
  'Physiotherapist',
  'General Practitioner',
  'Neurologist',
  'Oncologist',
  'Pediatrician',
  'Orthopedic Surgeon',
  'Dermatologist',
  'Radiologist',
  'Gastroenterologist',
  'Pulmonologist',
  'Nephrologist',
  'Ophthalmologist',
  'Psychiatrist',
  'Endocrinologist',
  'Rheumatologist',
  'Urologist',
  'Allergist',
  'Anesthesiologist',
  'Internist',
];
// Tables whose triggers keep the dashboard figures (migrations/0001_init.sql) and the patients' search text (0003).
const COUNTED_TABLES = ['patients', 'appointments', 'medical_records'];
/** The tables of the visits, millions of rows at the larger scales. */
const BULK_TABLES = ['appointments', 'medical_records', 'billings', 'payments'];
const APPOINTMENT_BATCH = 2_000_000;
const SERVICE_TYPES = ['Consultation', 'Follow-up', 'Lab work', 'Imaging', 'Minor procedure', 'Vaccination'];

export interface GenerateOptions {
  size: HospitalSize;
  /** The clinic's today (yyyy-MM-dd): appointments before it are history, from it on they are scheduled. */
  today: string;
  /** One argon2 hash of BENCH_PASSWORD, shared by every account so that any of them can sign in. */
  passwordHash: string;
  progress: (line: string) => void;
}

/** `pick(list, expr)`: the SQL for the element of `list` chosen by the integer expression `expr`. */
function pick(list: string[], expr: string): string {
  return `(${textArray(list)})[(1 + ${expr} % ${list.length})::int]`;
}
function textArray(list: string[]): string {
  return `array[${list.map((item) => `'${item.replace(/'/g, "''")}'`).join(', ')}]::text[]`;
}
export async function generateHospital(db: Queryable, options: GenerateOptions): Promise<Record<string, number>> {
  const { size, today, passwordHash, progress } = options;
  const days = size.pastDays + size.futureDays;
  const firstDay = `(date '${today}' - ${size.pastDays})`;
  const capacity = slotCapacity(size);
  const slotsPerDoctor = 7 * size.slotsPerDay;

  const { step, timed } = generationSteps(db, progress);

  // The dashboard counters are rebuilt once at the end instead of by a trigger call per generated row.
  await db.exec(COUNTED_TABLES.map((table) => `alter table ${table} disable trigger user;`).join('\n'));
  // The visits' secondary indexes are built once the rows are in, as a restore builds them: kept up row by row,
  // ten million appointments took longer than a statement may. Those behind a constraint stay.
  const deferred = await db.query<{ name: string; definition: string }>(
    `select i.indexname as name, i.indexdef as definition from pg_indexes i
     where i.schemaname = current_schema() and i.tablename = any($1::text[])
       and not exists (select 1 from pg_constraint c where c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
    [BULK_TABLES],
  );
  await db.exec(deferred.map(({ name }) => `drop index ${name};`).join('\n'));
  const counts: Record<string, number> = {};
  counts.departments = await step(
    'departments',
    `
    insert into departments (id, name, description)
    select g, name, name || ' department' from unnest(${textArray(DEPARTMENTS)}) with ordinality as t(name, g)
    where g <= ${size.departments}`,
  );
  counts.specializations = await step(
    'specializations',
    `
    insert into specializations (id, name)
    select g, name from unnest(${textArray(SPECIALIZATIONS)}) with ordinality as t(name, g) where g <= ${size.specializations}`,
  );
  counts.diseases = await step(
    'diseases',
    `
    insert into diseases (id, name, description)
    select g, name, 'Bench catalogue: ' || name from unnest(${textArray(DISEASES)}) with ordinality as t(name, g)
    where g <= ${size.diseases}`,
  );
  counts.rooms = await step(
    'rooms',
    `
    insert into rooms (id, name, department_id)
    select (d - 1) * ${size.roomsPerDepartment} + k, 'Room ' || d || '.' || k, d
    from generate_series(1, ${size.departments}) d, generate_series(1, ${size.roomsPerDepartment}) k`,
  );

  counts.users = await step(
    'users',
    `
    insert into users (id, name, email, password_hash, role)
    select 1, 'Bench Admin', '${ADMIN_EMAIL}', $1, 'admin'
    union all
    select 1 + g, 'Dr. ' || ${pick(FIRST_NAMES, hash('g', 11))} || ' ' || ${pick(LAST_NAMES, hash('g', 12))},
           'doctor' || g || '@bench.medora.test', $1, 'doctor'
    from generate_series(1, ${size.doctors}) g
    union all
    select 1 + ${size.doctors} + g, f || ' ' || l, lower(f) || '.' || lower(l) || '.' || g || '@bench.medora.test', $1, 'patient'
    from generate_series(1, ${size.patients}) g,
         lateral (select ${pick(FIRST_NAMES, hash('g', 21))} as f, ${pick(LAST_NAMES, hash('g', 22))} as l) n`,
    [passwordHash],
  );
  counts.doctors = await step(
    'doctors',
    `
    insert into doctors (id, user_id, phone, gender, specialization_id, department_id, bio, birthdate, address)
    select g, 1 + g, '+1 555 1' || lpad(g::text, 6, '0'), ${pick(['male', 'female'], hash('g', 31))},
           1 + (g * 7) % ${size.specializations}, 1 + (g - 1) % ${size.departments},
           'Fifteen years of clinical practice.', date '1960-01-01' + ${hash('g', 32)} % 12000, g || ' Hospital Road'
    from generate_series(1, ${size.doctors}) g`,
  );
  counts.patients = await step(
    'patients',
    `
    insert into patients (id, user_id, phone, birthdate, gender, search_text)
    select g, u.id, phone, date '1935-01-01' + ${hash('g', 41)} % 30000,
           case when ${hash('g', 42)} % 100 < 48 then 'male' when ${hash('g', 42)} % 100 < 96 then 'female' else 'other' end,
           patient_search_text(u.name, u.email, phone)
    from generate_series(1, ${size.patients}) g join users u on u.id = 1 + ${size.doctors} + g,
         lateral (select '+1 555 2' || lpad(g::text, 7, '0') as phone) ph`,
  );
  // Schedule row of (doctor d, weekday w, slot k) has id (d-1)*7*slots + (w-1)*slots + k + 1.
  counts.schedules = await step(
    'schedules',
    `
    insert into schedules (id, doctor_id, weekday, start_time, end_time, room_id)
    select (d - 1) * ${slotsPerDoctor} + (w - 1) * ${size.slotsPerDay} + k + 1, d, w,
           time '08:00' + k * interval '${size.slotMinutes} minutes', time '08:00' + (k + 1) * interval '${size.slotMinutes} minutes',
           ((d - 1) % ${size.departments}) * ${size.roomsPerDepartment} + 1 + (d / ${size.departments}) % ${size.roomsPerDepartment}
    from generate_series(1, ${size.doctors}) d, generate_series(1, 7) w, generate_series(0, ${size.slotsPerDay - 1}) k`,
  );

  // Appointment n sits on slot s = (n-1)·stride mod capacity, which no other appointment takes (see slotStride).
  // In batches, each one statement well within the timeout at any scale.
  counts.appointments = 0;
  for (let first = 1; first <= size.appointments; first += APPOINTMENT_BATCH) {
    const last = Math.min(size.appointments, first + APPOINTMENT_BATCH - 1);
    counts.appointments += await step(
      last === size.appointments && first === 1 ? 'appointments' : `appointments ≤ ${last}`,
      `
    insert into appointments (id, patient_id, doctor_id, schedule_id, department_id, room_id, date, start_time, end_time, status)
    select a.n, 1 + ${hash('a.n', 51)} % ${size.patients}, a.doctor_id, s.id, d.department_id, s.room_id, a.date,
           s.start_time, s.end_time,
           case when a.date < date '${today}'
                then case when ${hash('a.n', 52)} % 100 < 80 then 'completed' else 'cancelled' end
                else case when ${hash('a.n', 52)} % 100 < 5 then 'cancelled' else 'scheduled' end end
    from (
      select n, 1 + slot % ${size.doctors} as doctor_id,
             ${firstDay} + ((slot / ${size.doctors}) % ${days})::int as date,
             slot / ${size.doctors} / ${days} as k
      from (select n, ((n - 1) * ${slotStride(capacity)}::bigint) % ${capacity} as slot
            from generate_series(${first}, ${last}) n) numbered
    ) a
    join doctors d on d.id = a.doctor_id
    join schedules s on s.id = (a.doctor_id - 1) * ${slotsPerDoctor} + (extract(isodow from a.date)::int - 1) * ${size.slotsPerDay} + a.k + 1
    on conflict do nothing`,
    );
  }

  // Every completed appointment has its record and its bill, as saving a record does in the product.
  counts.medical_records = await step(
    'medical records',
    `
    insert into medical_records (id, appointment_id, patient_id, doctor_id, disease_id, diagnosis, lab_tests, prescriptions,
                                 service_type, cost_cents, record_date)
    select a.id, a.id, a.patient_id, a.doctor_id, 1 + ${hash('a.id', 61)} % ${size.diseases},
           'Examined; findings consistent with the working diagnosis.', 'Blood panel', 'As discussed, 7 days',
           ${pick(SERVICE_TYPES, hash('a.id', 62))}, 100 * (50 + ${hash('a.id', 63)} % 450), a.date
    from appointments a where a.status = 'completed'`,
  );
  // Bills older than a month are mostly settled; recent ones mostly still open.
  counts.billings = await step(
    'billings',
    `
    insert into billings (id, patient_id, medical_record_id, doctor_id, service_details, amount_cents, billing_date, payment_status, paid_cents)
    select id, patient_id, id, doctor_id, service_type, cost_cents, record_date, case when settled then 'paid' else 'unpaid' end, case when settled then cost_cents else 0 end
    from (select r.*, ${hash('r.id', 71)} % 100 < (case when r.record_date < date '${today}' - 30 then 90 else 30 end) as settled
          from medical_records r) r`,
  );
  counts.payments = await step(
    'payments',
    `
    insert into payments (id, billing_id, patient_id, amount_cents, method, paid_at)
    select b.id, b.id, b.patient_id, b.amount_cents, 'card', b.billing_date + time '12:00' + (${hash('b.id', 81)} % 20) * interval '1 day'
    from billings b where b.payment_status = 'paid'`,
  );

  for (const table of [
    'departments',
    'specializations',
    'diseases',
    'rooms',
    'users',
    'doctors',
    'patients',
    'schedules',
    'appointments',
    'medical_records',
    'billings',
    'payments',
  ]) {
    await db.query(
      `select setval(pg_get_serial_sequence('${table}', 'id'), greatest(1, (select max(id) from ${table})))`,
    );
  }
  await timed('indexes', () => db.exec(deferred.map(({ definition }) => `${definition};`).join('\n')));
  await timed('dashboard', async () => {
    await db.query('select recount_dashboard()');
    await db.exec(COUNTED_TABLES.map((table) => `alter table ${table} enable trigger user;`).join('\n'));
  });
  Object.assign(counts, await generateClinical(db, { size, passwordHash, progress }));
  // A live database has been vacuumed by now; without it every index-only scan would still visit the heap.
  await timed('vacuum analyze', () => db.exec('vacuum analyze'));
  return counts;
}
