import type { PatientDirectory, PatientVisitStore } from '../domain/patients/ports.ts';
import type { PatientRow } from '../domain/patients/patients-shapes.ts';
import type { PatientVisit } from '../domain/patients/visits.ts';
import type { PaymentStatus } from '../domain/billing/billing.ts';
import type { RecordVersion } from '../domain/records/records.ts';
import { namedOrNull } from './rows.ts';
import type { Queryable } from './db.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import { pageWithTotal } from './list-page.ts';
import { recordHistories, toPatientProfile, type PatientProfileRow } from './records.pg.ts';
import { onUnique } from './sql-errors.ts';
import { conflict } from '../domain/shared/errors.ts';

const PATIENT_FROM = 'patients p join users u on u.id = p.user_id';

// The list's columns are PatientRow's fields by name; copying them leaves out the page's list_total.
export const toPatientRow = (row: PatientRow): PatientRow => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  gender: row.gender,
  birthdate: row.birthdate,
  no_shows: row.no_shows,
});

const CARD_COLUMNS = `p.id, u.name, u.email, p.phone, p.gender, p.birthdate,
  (select count(*)::int from appointments a where a.patient_id = p.id and a.status = 'no_show') as no_shows`;

/** A patient's profile with what their account adds, for the patient's own page. */
interface PatientAccountRow extends PatientProfileRow {
  profile_image_id: number | null;
  email_verified_at: Date | null;
  pending_email: string | null;
  reminders: boolean;
}

/** `u.name` is `$1`, letter case and runs of spaces aside. */
const SAME_NAME = `lower(regexp_replace(trim(u.name), '\\s+', ' ', 'g')) = lower(regexp_replace(trim($1::text), '\\s+', ' ', 'g'))`;

const EMAIL_TAKEN = { code: 'email_taken', field: 'email', message: 'This email is already registered' };

export function patientDirectory(db: Queryable): PatientDirectory {
  return {
    list: (req) => {
      // search_text holds name, e-mail and phone (migration 0003). The page's ids come from an index that
      // carries it (0005), so finding the first matches in id order reads no table rows; names are then
      // joined for those rows only.
      const where = req.q ? 'where search_text like $1' : '';
      return pageWithTotal(
        db,
        req,
        {
          columns: CARD_COLUMNS,
          rowsOf: `from patients ${where}`,
          pageOf: (limit, offset) =>
            `from (select id from patients ${where} order by id limit ${limit} offset ${offset}) page
             join ${PATIENT_FROM} on p.id = page.id`,
          orderBy: 'p.id',
          params: req.q ? [containsPattern(req.q)] : [],
        },
        toPatientRow,
      );
    },
    possibleDuplicates: async ({ nameAndBirthdate, phoneDigits }, limit) => {
      // Each arm can use its own index (0024): birthdate, and the phone's digits.
      const rows = await db.query<{
        id: number;
        name: string;
        phone: string;
        birthdate: string | null;
        same_name: boolean;
        same_phone: boolean;
      }>(
        `select p.id, u.name, p.phone, p.birthdate,
                p.birthdate = $2::date and ${SAME_NAME} as same_name,
                regexp_replace(p.phone, '\\D', '', 'g') = $3 as same_phone
         from ${PATIENT_FROM}
         where p.id in (
           select p.id from ${PATIENT_FROM} where p.birthdate = $2::date and ${SAME_NAME}
           union
           select id from patients where phone <> '' and regexp_replace(phone, '\\D', '', 'g') = $3)
         order by p.id limit $4`,
        [nameAndBirthdate?.name ?? null, nameAndBirthdate?.birthdate ?? null, phoneDigits ?? null, limit],
      );
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        phone: row.phone,
        birthdate: row.birthdate,
        matched_on: [
          ...(row.same_name ? (['name_and_birthdate'] as const) : []),
          ...(row.same_phone ? (['phone'] as const) : []),
        ],
      }));
    },
    card: async (id) => {
      const [row] = await db.query<PatientRow & { pending_email: string | null }>(
        `select ${CARD_COLUMNS}, u.pending_email from ${PATIENT_FROM} where p.id = $1`,
        [id],
      );
      return row && { ...toPatientRow(row), pending_email: row.pending_email };
    },
    find: async (id) => {
      const [row] = await db.query<PatientAccountRow>(
        `select p.id, p.user_id, u.name, u.email, u.profile_image_id, u.email_verified_at, u.pending_email, p.phone, p.photo_id, p.birthdate,
                p.gender, p.description, p.reminders
         from ${PATIENT_FROM} where p.id = $1`,
        [id],
      );
      return (
        row && {
          ...toPatientProfile(row),
          profileImageId: row.profile_image_id,
          reminders: row.reminders,
          emailVerified: row.email_verified_at !== null,
          pendingEmail: row.pending_email,
        }
      );
    },
    update: async (id, f) => {
      await onUnique(
        () =>
          db.query(
            `with p as (update patients set phone = $2, birthdate = $3, gender = $4, reminders = $7 where id = $1 returning user_id)
             update users set name = $5, email = $6, updated_at = now(),
               email_verified_at = case when lower(users.email) = lower($6) then users.email_verified_at end,
               pending_email = case when lower(users.email) = lower($6) then users.pending_email end
             from p where users.id = p.user_id`,
            [id, f.phone, f.birthdate, f.gender, f.name, f.email, f.reminders],
          ),
        { users_email_key: EMAIL_TAKEN },
      );
    },
    requestEmailChange: async (id, email) => {
      const rows = await onUnique(
        () =>
          db.query(
            `update users set pending_email = $2, updated_at = now() from patients p
             where p.id = $1 and users.id = p.user_id
               and not exists (select 1 from users o where lower(o.email) = lower($2))
             returning users.id`,
            [id, email],
          ),
        { users_pending_email_key: EMAIL_TAKEN },
      );
      if (rows.length === 0) throw conflict(EMAIL_TAKEN.code, EMAIL_TAKEN.message, { email: [EMAIL_TAKEN.message] });
    },
  };
}

interface PatientVisitRow {
  id: number;
  visit_date: string;
  start_time: string;
  doctor_id: number;
  doctor_name: string;
  disease_id: number | null;
  disease_name: string | null;
  diagnosis: string;
  prescriptions: string;
  lab_tests: string;
  service_type: string;
  bill_id: number | null;
  amount_cents: number | null;
  payment_status: PaymentStatus | null;
}

function toPatientVisit(row: PatientVisitRow, history: RecordVersion[]): PatientVisit {
  return {
    recordId: row.id,
    visitDate: row.visit_date,
    startTime: row.start_time.slice(0, 5),
    doctor: { id: row.doctor_id, name: row.doctor_name },
    disease: namedOrNull(row.disease_id, row.disease_name),
    diagnosis: row.diagnosis,
    prescriptions: row.prescriptions,
    labTests: row.lab_tests,
    serviceType: row.service_type,
    bill:
      row.bill_id === null
        ? null
        : { id: row.bill_id, amountCents: row.amount_cents ?? 0, status: row.payment_status ?? 'unpaid' },
    history,
  };
}

export function patientVisitStore(db: Queryable): PatientVisitStore {
  return {
    listForPatient: async (patientId) => {
      const rows = await db.query<PatientVisitRow>(
        `select r.id, a.date as visit_date, a.start_time, r.doctor_id, du.name as doctor_name, r.disease_id, s.name as disease_name,
                r.diagnosis, r.prescriptions, r.lab_tests, r.service_type, b.id as bill_id, b.amount_cents, b.payment_status
           from medical_records r
           join appointments a on a.id = r.appointment_id
           join doctors d on d.id = r.doctor_id join users du on du.id = d.user_id
           left join diseases s on s.id = r.disease_id
           left join billings b on b.medical_record_id = r.id
          where r.patient_id = $1
          order by a.date desc, a.start_time desc, r.id desc`,
        [patientId],
      );
      const histories = await recordHistories(
        db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => toPatientVisit(row, histories.get(row.id) ?? []));
    },
  };
}
