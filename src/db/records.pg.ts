import type { DiseaseLookup, DoctorPatientStore, RecordStore, VisitAppointmentStore } from '../domain/records/ports.ts';
import type { MedicalRecord, PatientProfile, RecordVersion } from '../domain/records/records.ts';
import type { Gender } from '../domain/shared/actor.ts';
import { invalid } from '../domain/shared/errors.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { namedOrNull, onlyRow, readBack } from './rows.ts';
import { appointmentStore } from './scheduling.pg.ts';
import { constraintName, isForeignKeyViolation } from './sql-errors.ts';

// The record's own key to its disease, and the per-doctor disease tally its trigger writes in the same statement.
const DISEASE_KEYS = new Set(['medical_records_disease_id_fkey', 'doctor_disease_records_disease_id_fkey']);

export function visitAppointmentStore(db: Queryable): VisitAppointmentStore {
  const { lock, find } = appointmentStore(db);
  return {
    lock,
    find,
    markCompleted: async (id, at) => {
      await db.query(`update appointments set status = 'completed', updated_at = $2 where id = $1`, [id, at]);
    },
  };
}

const RECORD_COLUMNS = `r.id, r.appointment_id, r.patient_id, r.disease_id, s.name as disease_name, r.diagnosis, r.lab_tests,
  r.prescriptions, r.service_type, r.cost_cents, r.record_date, r.doctor_id, du.name as doctor_name`;
const RECORD_JOINS = `left join diseases s on s.id = r.disease_id join doctors d on d.id = r.doctor_id join users du on du.id = d.user_id`;
const RECORD_FROM = `medical_records r ${RECORD_JOINS}`;

/** A row of RECORD_COLUMNS; the disease's name is null once the disease is gone. */
interface MedicalRecordRow {
  id: number;
  appointment_id: number;
  patient_id: number;
  disease_id: number;
  disease_name: string | null;
  diagnosis: string;
  lab_tests: string;
  prescriptions: string;
  service_type: string;
  cost_cents: number;
  record_date: string;
  doctor_id: number;
  doctor_name: string;
}

export function toMedicalRecord(row: MedicalRecordRow, history: RecordVersion[]): MedicalRecord {
  return {
    id: row.id,
    appointmentId: row.appointment_id,
    patientId: row.patient_id,
    disease: namedOrNull(row.disease_id, row.disease_name),
    diagnosis: row.diagnosis,
    labTests: row.lab_tests,
    prescriptions: row.prescriptions,
    serviceType: row.service_type,
    costCents: row.cost_cents,
    recordDate: row.record_date,
    doctor: { id: row.doctor_id, name: row.doctor_name },
    history,
  };
}

/** A row of medical_record_versions with the names of its disease and writer. */
interface VersionRow {
  medical_record_id: number;
  version: number;
  disease_id: number;
  disease_name: string | null;
  diagnosis: string;
  lab_tests: string;
  prescriptions: string;
  written_by: number;
  writer_name: string;
  written_at: Date;
  reason: string | null;
}

const toRecordVersion = (row: VersionRow): RecordVersion => ({
  version: row.version,
  disease: namedOrNull(row.disease_id, row.disease_name),
  diagnosis: row.diagnosis,
  labTests: row.lab_tests,
  prescriptions: row.prescriptions,
  writtenBy: { id: row.written_by, name: row.writer_name },
  writtenAt: row.written_at,
  reason: row.reason,
});

/** The versions of each of `recordIds`, oldest first, in one statement. */
export async function recordHistories(db: Queryable, recordIds: number[]): Promise<Map<number, RecordVersion[]>> {
  const rows = await db.query<VersionRow>(
    `select v.medical_record_id, v.version, v.disease_id, s.name as disease_name, v.diagnosis, v.lab_tests, v.prescriptions,
            v.written_by, u.name as writer_name, v.written_at, v.reason
       from medical_record_versions v left join diseases s on s.id = v.disease_id join users u on u.id = v.written_by
      where v.medical_record_id = any($1::int[])
      order by v.medical_record_id, v.version`,
    [recordIds],
  );
  const histories = new Map<number, RecordVersion[]>(recordIds.map((id) => [id, []]));
  for (const row of rows) histories.get(row.medical_record_id)?.push(toRecordVersion(row));
  return histories;
}

async function withHistories(db: Queryable, rows: MedicalRecordRow[]): Promise<MedicalRecord[]> {
  const histories = await recordHistories(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toMedicalRecord(row, histories.get(row.id) ?? []));
}

// Keeps record $1 as it now stands as its next version, by user $2 at $3 for reason $4. The first version is kept
// by the table's trigger (migration 0023).
const KEEP_AMENDED_VERSION = `insert into medical_record_versions
    (medical_record_id, version, disease_id, diagnosis, lab_tests, prescriptions, written_by, written_at, reason)
  select r.id, coalesce((select max(version) from medical_record_versions where medical_record_id = r.id), 0) + 1,
         r.disease_id, r.diagnosis, r.lab_tests, r.prescriptions, $2, $3, $4
    from medical_records r where r.id = $1`;

export function recordStore(db: Queryable): RecordStore {
  const findOne = async (id: number, locking = '') => {
    const rows = await db.query<MedicalRecordRow>(
      `select ${RECORD_COLUMNS} from ${RECORD_FROM} where r.id = $1 ${locking}`,
      [id],
    );
    const [record] = await withHistories(db, rows);
    return record;
  };
  return {
    create: async (r) => {
      let inserted: (MedicalRecordRow & { written_by: number; written_at: Date })[];
      try {
        inserted = await db.query(
          `with r as (insert into medical_records
                        (appointment_id, patient_id, doctor_id, disease_id, diagnosis, lab_tests, prescriptions, service_type, cost_cents, record_date)
                      values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *)
           select ${RECORD_COLUMNS}, d.user_id as written_by, r.created_at as written_at from r ${RECORD_JOINS}`,
          [
            r.appointmentId,
            r.patientId,
            r.doctorId,
            r.diseaseId,
            r.diagnosis,
            r.labTests,
            r.prescriptions,
            r.serviceType,
            r.costCents,
            r.recordDate,
          ],
        );
      } catch (error) {
        // The disease was checked before the transaction; it can only vanish if an admin deleted it meanwhile.
        if (isForeignKeyViolation(error) && DISEASE_KEYS.has(constraintName(error) ?? ''))
          throw invalid({ disease_id: ['does not exist'] });
        throw error;
      }
      // Its one version is the record as written, which the table's trigger keeps (migration 0023).
      const row = onlyRow(inserted);
      const first = { ...row, medical_record_id: row.id, version: 1, writer_name: row.doctor_name, reason: null };
      return toMedicalRecord(row, [toRecordVersion(first)]);
    },
    lock: async (id) => findOne(id, 'for update of r'),
    amend: async (id, c, by) => {
      try {
        await db.query(
          `update medical_records set disease_id = $2, diagnosis = $3, lab_tests = $4, prescriptions = $5, updated_at = $6 where id = $1`,
          [id, c.diseaseId, c.diagnosis, c.labTests, c.prescriptions, by.at],
        );
      } catch (error) {
        if (isForeignKeyViolation(error) && DISEASE_KEYS.has(constraintName(error) ?? ''))
          throw invalid({ disease_id: ['does not exist'] });
        throw error;
      }
      await db.query(KEEP_AMENDED_VERSION, [id, by.userId, by.at, by.reason]);
      return readBack(await findOne(id), 'A medical record');
    },
    listForPatient: async (patientId) => {
      const rows = await db.query<MedicalRecordRow>(
        `select ${RECORD_COLUMNS} from ${RECORD_FROM} where r.patient_id = $1 order by r.record_date desc, r.id desc`,
        [patientId],
      );
      return withHistories(db, rows);
    },
  };
}

export function diseaseLookup(db: Queryable): DiseaseLookup {
  return {
    exists: async (id) => (await db.query('select 1 from diseases where id = $1', [id])).length > 0,
  };
}

const PATIENT_COLUMNS = `p.id, p.user_id, u.name, u.email, p.phone, p.photo_id, p.birthdate, p.gender, p.description`;
const PATIENT_FROM = `patients p join users u on u.id = p.user_id`;
// Cancelled bookings do not make someone a doctor's patient.
const SEEN_BY_DOCTOR = `exists (select 1 from appointments a where a.doctor_id = $1 and a.patient_id = p.id and a.status <> 'cancelled')`;

/** A row of PATIENT_COLUMNS. */
export interface PatientProfileRow {
  id: number;
  user_id: number;
  name: string;
  email: string;
  phone: string;
  photo_id: number | null;
  birthdate: string | null;
  gender: Gender | null;
  description: string;
}

export function toPatientProfile(row: PatientProfileRow): PatientProfile {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    photoId: row.photo_id,
    birthdate: row.birthdate,
    gender: row.gender,
    description: row.description,
  };
}

export function doctorPatientStore(db: Queryable): DoctorPatientStore {
  return {
    list: async (doctorId, page) => {
      const filter = [doctorId, containsPattern(page.q)];
      const where = `${SEEN_BY_DOCTOR} and (lower(u.name) like $2 or lower(u.email) like $2 or lower(p.phone) like $2)`;
      return pageWithTotal(
        db,
        page,
        {
          columns: PATIENT_COLUMNS,
          rowsOf: `from ${PATIENT_FROM} where ${where}`,
          orderBy: 'lower(u.name), p.id',
          params: filter,
        },
        toPatientProfile,
      );
    },
    find: async (doctorId, patientId) => {
      const [row] = await db.query<PatientProfileRow>(
        `select ${PATIENT_COLUMNS} from ${PATIENT_FROM} where p.id = $2 and ${SEEN_BY_DOCTOR}`,
        [doctorId, patientId],
      );
      return row ? toPatientProfile(row) : undefined;
    },
  };
}
