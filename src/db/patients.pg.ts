import type { PatientDirectory, PatientRow } from '../domain/patients/ports.ts';
import type { Queryable, Row } from './db.ts';
import { listPage } from './list-page.ts';
import { toPatientProfile } from './records.pg.ts';
import { onUnique } from './sql-errors.ts';

const PATIENT_FROM = 'patients p join users u on u.id = p.user_id';

export const toPatientRow = (row: Row): PatientRow => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  gender: row.gender,
  birthdate: row.birthdate,
});

export function patientDirectory(db: Queryable): PatientDirectory {
  return {
    list: (req) =>
      listPage(
        db,
        req,
        {
          // Names come from users by subqueries, which PostgreSQL runs only for the rows of the page. A join
          // would run for every match whenever the planner sorts the matches, as it does when it expects few
          // (a long name): 1,800 lookups for one page of "rodriguez".
          columns: `p.id, (select u.name from users u where u.id = p.user_id) as name,
            (select u.email from users u where u.id = p.user_id) as email, p.phone, p.gender, p.birthdate`,
          from: 'patients p',
          // patients.search_text holds name, e-mail and phone, with a trigram index (migration 0003).
          search: 'p.search_text like $1',
          orderBy: 'p.id',
        },
        toPatientRow,
      ),
    find: async (id) => {
      const [row] = await db.query(
        `select p.id, p.user_id, u.name, u.email, u.profile_image_id, p.phone, p.photo_id, p.birthdate, p.gender, p.description
         from ${PATIENT_FROM} where p.id = $1`,
        [id],
      );
      return row && { ...toPatientProfile(row), profileImageId: row.profile_image_id };
    },
    update: async (id, f) => {
      await onUnique(
        () =>
          db.query(
            `with p as (update patients set phone = $2, birthdate = $3, gender = $4 where id = $1 returning user_id)
             update users set name = $5, email = $6, updated_at = now() from p where users.id = p.user_id`,
            [id, f.phone, f.birthdate, f.gender, f.name, f.email],
          ),
        { users_email_key: { code: 'email_taken', field: 'email', message: 'This email is already registered' } },
      );
    },
  };
}
