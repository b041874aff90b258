/**
 * Who works and comes in on the hospital day, and what there is for them to do, read from the generated hospital
 * before the servers start: the accounts each role signs in with (the desk's receptionists are added if the
 * hospital has none), and the work that gets used up — visits of the past week waiting for their doctor's record,
 * today's visits to check in, unpaid bills, the wards' patients and their doses due. Reads and the doctors' own
 * lists come from the servers' answers during the day.
 */
import type { Queryable } from '../../src/db/db.ts';
import { onlyRow } from '../../src/db/rows.ts';
import { ADMIN_EMAIL, LAST_NAMES } from './dataset.ts';
import { visitsToRecord } from './fixtures.ts';

export interface WardWork {
  departmentId: number;
  nurseEmails: string[];
  /** Stays in the ward now. */
  admissionIds: number[];
  /** Doses of the ward's orders still due, the earliest first, with the order's amount and unit. */
  dueDoses: { id: number; dose: number; unit: string }[];
}

export interface DayFixtures {
  today: string;
  patients: { email: string; patientId: number }[];
  doctors: { email: string; doctorId: number; treated: number[]; toRecord: number[] }[];
  receptionEmails: string[];
  adminEmail: string;
  doctorIds: number[];
  /** Patients whose FHIR records and searches the FHIR clients read. */
  fhirPatientIds: number[];
  lastNames: string[];
  diseaseId: number;
  medicineId: number;
  /** Today's scheduled visits, for the desk to check in. */
  toCheckIn: number[];
  unpaidBills: number[];
  wards: WardWork[];
}

const RECEPTION_DOMAIN = '@reception.bench.medora.test';
const TREATED_PER_DOCTOR = 10;

/**
 * The day's fixtures for `users` users: at most that many of each account kind are taken, and `work` of each
 * target that gets used up (visits to record, check-ins, bills, doses).
 */
export async function loadDayFixtures(
  db: Queryable,
  today: string,
  counts: { patients: number; doctors: number; reception: number; work: number },
): Promise<DayFixtures> {
  const patients = await db.query<{ email: string; id: number }>(
    `select u.email, p.id from patients p join users u on u.id = p.user_id
     where u.email is not null and p.id % greatest(1, (select count(*) from patients) / $1) = 0 order by p.id limit $1`,
    [counts.patients],
  );
  const doctorRows = await db.query<{ id: number; user_id: number; email: string; treated: number[] }>(
    `select d.id, d.user_id, u.email,
            array(select distinct r.patient_id from medical_records r where r.doctor_id = d.id limit $2) as treated
     from doctors d join users u on u.id = d.user_id where d.active order by d.id limit $1`,
    [counts.doctors, TREATED_PER_DOCTOR],
  );
  const visits = await visitsToRecord(db, today, counts.work);
  const toRecordBy = new Map<number, number[]>();
  for (const visit of visits) toRecordBy.set(visit.user_id, [...(toRecordBy.get(visit.user_id) ?? []), visit.id]);
  const doctors = doctorRows.map((d) => ({
    email: d.email,
    doctorId: d.id,
    treated: d.treated,
    toRecord: toRecordBy.get(d.user_id) ?? [],
  }));
  const receptionEmails = await receptionists(db, counts.reception);
  const toCheckIn = (
    await db.query<{ id: number }>(
      `select id from appointments where date = $1::date and status = 'scheduled' order by start_time, id limit $2`,
      [today, counts.work],
    )
  ).map((row) => row.id);
  const unpaidBills = (
    await db.query<{ id: number }>(
      `select id from billings where payment_status = 'unpaid' order by id desc limit $1`,
      [counts.work],
    )
  ).map((row) => row.id);
  const { disease_id } = onlyRow(await db.query<{ disease_id: number }>('select min(id) as disease_id from diseases'));
  const { medicine_id } = onlyRow(
    await db.query<{ medicine_id: number }>(
      `select min(id) as medicine_id from formulary where generic_name = 'Paracetamol' and form = 'tablet'`,
    ),
  );
  return {
    today,
    patients: patients.map((p) => ({ email: p.email, patientId: p.id })),
    doctors,
    receptionEmails,
    adminEmail: ADMIN_EMAIL,
    doctorIds: doctors.map((d) => d.doctorId),
    fhirPatientIds: patients.map((p) => p.id),
    lastNames: LAST_NAMES,
    diseaseId: disease_id,
    medicineId: medicine_id,
    toCheckIn,
    unpaidBills,
    wards: await wardWork(db, counts.work),
  };
}

/** `n` reception accounts, added (with the admin's password) where the hospital has fewer. */
async function receptionists(db: Queryable, n: number): Promise<string[]> {
  await db.query(
    `insert into users (name, email, password_hash, role)
     select 'Desk ' || g, 'desk' || g || '${RECEPTION_DOMAIN}', (select password_hash from users where id = 1), 'reception'
     from generate_series(1, $1::int) g
     where not exists (select 1 from users u where lower(u.email) = 'desk' || g || '${RECEPTION_DOMAIN}')`,
    [n],
  );
  return (
    await db.query<{ email: string }>(
      `select email from users where role = 'reception' and email like '%${RECEPTION_DOMAIN}' order by id limit $1`,
      [n],
    )
  ).map((row) => row.email);
}

/** Each ward with nurses and patients: its nurses, the stays in it, and its doses still due. */
async function wardWork(db: Queryable, doses: number): Promise<WardWork[]> {
  const rows = await db.query<{
    department_id: number;
    nurse_emails: string[];
    admission_ids: number[];
    due_doses: { id: number; dose: string; unit: string }[];
  }>(
    `select n.department_id,
            array_agg(u.email order by u.id) as nurse_emails,
            array(select a.id from admissions a where a.department_id = n.department_id and a.status = 'admitted' order by a.id) as admission_ids,
            (select coalesce(json_agg(due order by due.due_at), '[]') from (
               select d.id, d.due_at, r.dose_amount as dose, r.dose_unit as unit from medication_doses d
               join medication_requests r on r.id = d.request_id
               join admissions a on a.id = r.admission_id
               where a.department_id = n.department_id and a.status = 'admitted' and d.status = 'due'
                 and d.due_at <= now() + interval '12 hours'
               order by d.due_at limit $1) due) as due_doses
     from nurses n join users u on u.id = n.user_id
     group by n.department_id order by n.department_id`,
    [doses],
  );
  return rows
    .filter((row) => row.admission_ids.length > 0)
    .map((row) => ({
      departmentId: row.department_id,
      nurseEmails: row.nurse_emails,
      admissionIds: row.admission_ids,
      dueDoses: row.due_doses.map(({ id, dose, unit }) => ({ id, dose: Number(dose), unit })),
    }));
}
