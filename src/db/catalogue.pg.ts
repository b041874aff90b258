import type {
  Department,
  Disease,
  Doctor,
  Room,
  Specialization,
  Usage,
  UsageKind,
} from '../domain/catalogue/catalogue.ts';
import type {
  CatalogueTable,
  DepartmentFields,
  DiseaseFields,
  DoctorStore,
  RoomFields,
  SpecializationFields,
} from '../domain/catalogue/ports.ts';
import type { Gender } from '../domain/shared/actor.ts';
import { conflict, invalid } from '../domain/shared/errors.ts';
import { fileUrl } from '../domain/shared/files.ts';
import type { Queryable } from './db.ts';
import { listPage } from './list-page.ts';
import { namedOrNull, onlyRow, readBack } from './rows.ts';
import { constraintName, isForeignKeyViolation, onUnique } from './sql-errors.ts';

const nameTaken = (message: string) => ({ code: 'name_taken', field: 'name', message });

/** A foreign key naming a row that does not exist becomes a 422 on the field that named it. */
async function onMissingReference<T>(run: () => Promise<T>, fieldByConstraint: Record<string, string>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const field = isForeignKeyViolation(error) ? fieldByConstraint[constraintName(error) ?? ''] : undefined;
    if (field) throw invalid({ [field]: ['does not exist'] });
    throw error;
  }
}

/** Deletes one row; a foreign key refusing it means something started using it after its usage was counted. */
async function deleteRow(db: Queryable, table: string, id: number): Promise<boolean> {
  try {
    return (await db.query(`delete from ${table} where id = $1 returning id`, [id])).length > 0;
  } catch (error) {
    if (isForeignKeyViolation(error))
      throw conflict('in_use', 'Something started using this row just now; it was not deleted');
    throw error;
  }
}

/** How many rows of each kind point at `id`: `{doctors: ['doctors', 'department_id']}` counts doctors.department_id = id. */
async function countUsage(
  db: Queryable,
  references: Partial<Record<UsageKind, [string, string]>>,
  id: number,
): Promise<Usage> {
  const select = Object.entries(references).map(
    ([kind, [table, column]]) => `(select count(*) from ${table} where ${column} = $1)::int as ${kind}`,
  );
  return onlyRow(await db.query<Usage>(`select ${select.join(', ')}`, [id]));
}

/** A row of departments or diseases, which are the same shape: a unique name and a description. */
interface DescribedRow {
  id: number;
  name: string;
  description: string;
}

function describedTable(
  db: Queryable,
  table: 'departments' | 'diseases',
  takenMessage: string,
  usedBy: Partial<Record<UsageKind, [string, string]>>,
): CatalogueTable<DescribedRow, DepartmentFields | DiseaseFields> {
  const unique = { [`${table}_name_key`]: nameTaken(takenMessage) };
  // Copies the columns, leaving out what else the statement selected (a list page's total).
  const toDescribed = (row: DescribedRow): DescribedRow => ({
    id: row.id,
    name: row.name,
    description: row.description,
  });
  return {
    list: (req) =>
      listPage(
        db,
        req,
        {
          columns: 'id, name, description',
          from: table,
          search: 'lower(name) like $1 or lower(description) like $1',
          orderBy: 'lower(name), id',
        },
        toDescribed,
      ),
    find: async (id) => {
      const [row] = await db.query<DescribedRow>(`select id, name, description from ${table} where id = $1`, [id]);
      return row && toDescribed(row);
    },
    create: async (f) => {
      const rows = await onUnique(
        () =>
          db.query<DescribedRow>(
            `insert into ${table} (name, description) values ($1, $2) returning id, name, description`,
            [f.name, f.description],
          ),
        unique,
      );
      return toDescribed(onlyRow(rows));
    },
    update: async (id, f) => {
      const [row] = await onUnique(
        () =>
          db.query<DescribedRow>(
            `update ${table} set name = $2, description = $3 where id = $1 returning id, name, description`,
            [id, f.name, f.description],
          ),
        unique,
      );
      return row && toDescribed(row);
    },
    usage: (id) => countUsage(db, usedBy, id),
    remove: (id) => deleteRow(db, table, id),
  };
}

export const departmentTable = (db: Queryable): CatalogueTable<Department, DepartmentFields> =>
  describedTable(db, 'departments', 'A department with this name already exists', {
    doctors: ['doctors', 'department_id'],
    rooms: ['rooms', 'department_id'],
    appointments: ['appointments', 'department_id'],
  });

/** A row of specializations. */
interface SpecializationRow {
  id: number;
  name: string;
}

export const toSpecialization = (row: SpecializationRow): Specialization => ({ id: row.id, name: row.name });

export function specializationTable(db: Queryable): CatalogueTable<Specialization, SpecializationFields> {
  const unique = { specializations_name_key: nameTaken('A specialization with this name already exists') };
  return {
    list: (req) =>
      listPage(
        db,
        req,
        { columns: 'id, name', from: 'specializations', search: 'lower(name) like $1', orderBy: 'lower(name), id' },
        toSpecialization,
      ),
    find: async (id) => {
      const [row] = await db.query<SpecializationRow>('select id, name from specializations where id = $1', [id]);
      return row && toSpecialization(row);
    },
    create: async (f) => {
      const rows = await onUnique(
        () =>
          db.query<SpecializationRow>('insert into specializations (name) values ($1) returning id, name', [f.name]),
        unique,
      );
      return toSpecialization(onlyRow(rows));
    },
    update: async (id, f) => {
      const [row] = await onUnique(
        () =>
          db.query<SpecializationRow>('update specializations set name = $2 where id = $1 returning id, name', [
            id,
            f.name,
          ]),
        unique,
      );
      return row && toSpecialization(row);
    },
    usage: (id) => countUsage(db, { doctors: ['doctors', 'specialization_id'] }, id),
    remove: (id) => deleteRow(db, 'specializations', id),
  };
}

export const diseaseTable = (db: Queryable): CatalogueTable<Disease, DiseaseFields> =>
  describedTable(db, 'diseases', 'A disease with this name already exists', {
    medical_records: ['medical_records', 'disease_id'],
  });

const ROOM_COLUMNS = 'r.id, r.name, r.department_id, dep.name as department_name';
const ROOM_FROM = 'rooms r join departments dep on dep.id = r.department_id';

/** A row of ROOM_COLUMNS. */
interface RoomRow {
  id: number;
  name: string;
  department_id: number;
  department_name: string;
}

export const toRoom = (row: RoomRow): Room => ({
  id: row.id,
  name: row.name,
  department_id: row.department_id,
  department: { id: row.department_id, name: row.department_name },
});

export function roomTable(db: Queryable): CatalogueTable<Room, RoomFields> {
  const find = async (id: number) => {
    const [row] = await db.query<RoomRow>(`select ${ROOM_COLUMNS} from ${ROOM_FROM} where r.id = $1`, [id]);
    return row && toRoom(row);
  };
  // Both the unique name and the department's existence are the database's to enforce.
  const write = async (statement: () => Promise<{ id: number }[]>) => {
    const [row] = await onUnique(() => onMissingReference(statement, { rooms_department_id_fkey: 'department_id' }), {
      rooms_department_name_key: nameTaken('A room with this name already exists in this department'),
    });
    return row && find(row.id);
  };
  return {
    list: (req) =>
      listPage(
        db,
        req,
        {
          columns: ROOM_COLUMNS,
          from: ROOM_FROM,
          search: 'lower(r.name) like $1 or lower(dep.name) like $1',
          orderBy: 'lower(dep.name), lower(r.name), r.id',
        },
        toRoom,
      ),
    find,
    create: async (f) => {
      const room = await write(() =>
        db.query<{ id: number }>('insert into rooms (name, department_id) values ($1, $2) returning id', [
          f.name,
          f.departmentId,
        ]),
      );
      return readBack(room, 'A room');
    },
    update: (id, f) =>
      write(() =>
        db.query<{ id: number }>('update rooms set name = $2, department_id = $3 where id = $1 returning id', [
          id,
          f.name,
          f.departmentId,
        ]),
      ),
    // A room's beds go with it, but not while a stay (current or past) or a reservation names one of them.
    usage: async (id) => {
      const { stays } = onlyRow(
        await db.query<{ stays: number }>(
          `select (select count(*) from bed_stays s join beds b on b.id = s.bed_id where b.room_id = $1)
                + (select count(*) from admissions a join beds b on b.id = a.bed_id where b.room_id = $1 and a.status = 'reserved') as stays`,
          [id],
        ),
      );
      return {
        ...(await countUsage(
          db,
          { schedule_slots: ['schedules', 'room_id'], appointments: ['appointments', 'room_id'] },
          id,
        )),
        hospital_stays: Number(stays),
      };
    },
    remove: (id) => deleteRow(db, 'rooms', id),
  };
}

const DOCTOR_COLUMNS = `d.id, d.phone, d.gender, d.bio, d.birthdate, d.address, d.photo_id,
  u.id as user_id, u.name, u.email, u.profile_image_id,
  d.specialization_id, s.name as specialization_name, d.department_id, dep.name as department_name`;
// Every doctor's account has the doctor role; saying so lets the list's order come from users_doctor_name_idx.
const DOCTOR_ACCOUNTS = `doctors d join users u on u.id = d.user_id and u.role = 'doctor'`;
const DOCTOR_FROM = `${DOCTOR_ACCOUNTS}
  left join specializations s on s.id = d.specialization_id
  left join departments dep on dep.id = d.department_id`;

/** A row of DOCTOR_COLUMNS. */
interface DoctorRow {
  id: number;
  phone: string;
  gender: Gender | null;
  bio: string;
  birthdate: string | null;
  address: string;
  photo_id: number | null;
  user_id: number;
  name: string;
  email: string;
  profile_image_id: number | null;
  specialization_id: number | null;
  specialization_name: string | null;
  department_id: number | null;
  department_name: string | null;
}

export function toDoctor(row: DoctorRow): Doctor {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    user: { id: row.user_id, name: row.name, email: row.email, profile_image: fileUrl(row.profile_image_id) },
    phone: row.phone,
    gender: row.gender,
    specialization: namedOrNull(row.specialization_id, row.specialization_name),
    department: namedOrNull(row.department_id, row.department_name),
    bio: row.bio,
    birthdate: row.birthdate,
    address: row.address,
    image: fileUrl(row.photo_id),
  };
}

const DOCTOR_WRITE_ERRORS = {
  unique: { users_email_key: { code: 'email_taken', field: 'email', message: 'This email is already registered' } },
  missing: { doctors_specialization_id_fkey: 'specialization_id', doctors_department_id_fkey: 'department_id' },
};
const writeDoctor = <T>(statement: () => Promise<T>) =>
  onUnique(() => onMissingReference(statement, DOCTOR_WRITE_ERRORS.missing), DOCTOR_WRITE_ERRORS.unique);

export function doctorStore(db: Queryable): DoctorStore {
  return {
    list: (req) =>
      listPage(
        db,
        req,
        {
          columns: DOCTOR_COLUMNS,
          from: DOCTOR_FROM,
          countFrom: 'doctors d',
          where: 'd.active',
          search: 'lower(u.name) like $1 or lower(u.email) like $1 or lower(s.name) like $1 or lower(dep.name) like $1',
          orderBy: 'lower(u.name), u.id',
          keys: { from: DOCTOR_ACCOUNTS, id: 'd.id' },
        },
        toDoctor,
      ),
    find: async (id) => {
      const [row] = await db.query<DoctorRow>(
        `select ${DOCTOR_COLUMNS} from ${DOCTOR_FROM} where d.id = $1 and d.active`,
        [id],
      );
      return row ? toDoctor(row) : undefined;
    },
    findByEmail: async (email) => {
      const [row] = await db.query<DoctorRow>(
        `select ${DOCTOR_COLUMNS} from ${DOCTOR_FROM} where lower(u.email) = lower($1) and d.active`,
        [email],
      );
      return row ? toDoctor(row) : undefined;
    },
    create: async (f) => {
      // One statement, so the account never exists without its doctor row.
      const rows = await writeDoctor(() =>
        db.query<{ id: number }>(
          `with u as (
             insert into users (name, email, password_hash, role, profile_image_id, email_verified_at) values ($1, $2, $3, 'doctor', $4, now()) returning id
           )
           insert into doctors (user_id, phone, gender, specialization_id, department_id, bio, birthdate, address, photo_id)
           select id, $5, $6, $7, $8, $9, $10, $11, $4 from u
           returning id`,
          [
            f.name,
            f.email,
            f.passwordHash,
            f.photoId,
            f.phone,
            f.gender,
            f.specializationId,
            f.departmentId,
            f.bio,
            f.birthdate,
            f.address,
          ],
        ),
      );
      return onlyRow(rows).id;
    },
    update: async (id, f) => {
      const [row] = await writeDoctor(() =>
        db.query<{ replaced_photo_id: number | null }>(
          `with old as (select id, user_id, photo_id from doctors where id = $1 and active),
           d as (
             update doctors set phone = $2, gender = $3, specialization_id = $4, department_id = $5, bio = $6, birthdate = $7,
               address = $8, photo_id = coalesce($9::integer, doctors.photo_id)
             from old where doctors.id = old.id
             returning old.photo_id as replaced_photo_id, old.user_id
           ),
           u as (
             update users set name = $10, email = $11, password_hash = coalesce($12::text, password_hash),
               profile_image_id = coalesce($9::integer, profile_image_id), updated_at = now()
             from d where users.id = d.user_id
           )
           select replaced_photo_id from d`,
          [
            id,
            f.phone,
            f.gender,
            f.specializationId,
            f.departmentId,
            f.bio,
            f.birthdate,
            f.address,
            f.photoId ?? null,
            f.name,
            f.email,
            f.passwordHash ?? null,
          ],
        ),
      );
      if (f.photoId && row?.replaced_photo_id)
        await db.query('delete from files where id = $1', [row.replaced_photo_id]);
    },
    lockAttachments: async (id, today) => {
      // FOR UPDATE conflicts with the KEY SHARE lock a new appointment's foreign key check takes on the doctor,
      // so no booking can slip in between these counts and the removal or deactivation that follows.
      const [row] = await db.query<{ upcoming: number; has_history: boolean }>(
        `select
           (select count(*) from appointments a where a.doctor_id = d.id and a.status = 'scheduled' and a.date >= $2)::int as upcoming,
           exists (select 1 from appointments a where a.doctor_id = d.id)
             or exists (select 1 from medical_records m where m.doctor_id = d.id) as has_history
         from doctors d where d.id = $1 and d.active
         for update of d`,
        [id, today],
      );
      return row && { upcoming: row.upcoming, hasHistory: row.has_history };
    },
    remove: async (id) => {
      await db.query('delete from schedules where doctor_id = $1', [id]);
      // lockAttachments found the doctor and locked it in this transaction, so the row is there to delete.
      const gone = onlyRow(
        await db.query<{ user_id: number; photo_id: number | null }>(
          'delete from doctors where id = $1 returning user_id, photo_id',
          [id],
        ),
      );
      await db.query('delete from users where id = $1', [gone.user_id]);
      if (gone.photo_id) await db.query('delete from files where id = $1', [gone.photo_id]);
    },
    deactivate: async (id, at) => {
      // Retiring the weekly pattern takes the doctor out of booking; the rows stay for the appointments they hold.
      await db.query(
        `with d as (update doctors set active = false where id = $1 returning user_id),
         u as (update users set active = false, updated_at = $2 where id in (select user_id from d)),
         s as (update sessions set revoked_at = $2 where user_id in (select user_id from d) and revoked_at is null)
         update schedules set retired_at = $2 where doctor_id = $1 and retired_at is null`,
        [id, at],
      );
    },
  };
}
