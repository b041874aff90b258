import type { Queryable } from './db.ts';

/** A demo account as the seed acts for it. */
export interface DemoPerson {
  userId: number;
  name: string;
  /** The patient's or doctor's row. */
  id: number;
}

export interface DemoVisit {
  id: number;
  date: string;
  doctor: DemoPerson;
}

/**
 * What loading the demo clinic needs beyond the use cases: finding the accounts it made by e-mail, and writing
 * past appointments as history (booking refuses past dates, rightly).
 */
export function demoStore(db: Queryable) {
  return {
    async hasUsers(): Promise<boolean> {
      const rows = await db.query<{ one: number }>('select 1 as one from users limit 1');
      return rows.length > 0;
    },

    /** The demo's addresses count as confirmed, so its patients get reminders as real ones would. */
    async markVerified(emails: string[]): Promise<void> {
      await db.query(
        'update users set email_verified_at = now() where lower(email) = any($1) and email_verified_at is null',
        [emails.map((e) => e.toLowerCase())],
      );
    },

    /** Patients by e-mail, in the order given. */
    async patients(emails: string[]): Promise<DemoPerson[]> {
      return db.query<DemoPerson>(
        `select u.id as "userId", u.name, p.id from users u join patients p on p.user_id = u.id
         where u.email = any($1) order by array_position($1, u.email::text)`,
        [emails],
      );
    },

    /** Doctors' ids by e-mail, in the order given. */
    async doctorIds(emails: string[]): Promise<number[]> {
      const rows = await db.query<{ id: number }>(
        `select d.id from doctors d join users u on u.id = d.user_id where u.email = any($1) order by array_position($1, u.email::text)`,
        [emails],
      );
      return rows.map((row) => row.id);
    },

    async diseaseIds(names: string[]): Promise<Map<string, number>> {
      const rows = await db.query<{ id: number; name: string }>('select id, name from diseases where name = any($1)', [
        names,
      ]);
      return new Map(rows.map((row) => [row.name, row.id]));
    },

    /**
     * One appointment per (doctor, date), in that doctor's third slot of the date's weekday, or of `slotWeekday`
     * (a visit today on a weekend, when the demo doctors have no slot); answers their ids in the visits' order.
     */
    async insertPastAppointments(
      patientId: number,
      visits: { doctorId: number; date: string; slotWeekday?: number }[],
    ): Promise<number[]> {
      const rows = await db.query<{ id: number }>(
        `insert into appointments (patient_id, doctor_id, schedule_id, department_id, room_id, date, start_time, end_time)
         select $1, s.doctor_id, s.id, d.department_id, s.room_id, v.date, s.start_time, s.end_time
         from unnest($2::integer[], $3::date[], $4::integer[]) with ordinality as v(doctor_id, date, weekday, n)
         join doctors d on d.id = v.doctor_id
         join lateral (
           select id, doctor_id, room_id, start_time, end_time from schedules
           where doctor_id = v.doctor_id and weekday = coalesce(v.weekday, extract(isodow from v.date)) and retired_at is null
           order by start_time offset 2 limit 1
         ) s on true
         order by v.n
         returning id`,
        [patientId, visits.map((v) => v.doctorId), visits.map((v) => v.date), visits.map((v) => v.slotWeekday ?? null)],
      );
      return rows.map((row) => row.id);
    },

    /** The patient's appointments before `today` still scheduled, oldest first, with their doctors. */
    async unrecordedVisits(patientId: number, today: string): Promise<DemoVisit[]> {
      const rows = await db.query<{ id: number; date: string; doctor_id: number; user_id: number; name: string }>(
        `select a.id, a.date, a.doctor_id, d.user_id, u.name
         from appointments a join doctors d on d.id = a.doctor_id join users u on u.id = d.user_id
         where a.patient_id = $1 and a.status = 'scheduled' and a.date < $2
         order by a.date, a.start_time`,
        [patientId, today],
      );
      return rows.map((row) => ({
        id: row.id,
        date: row.date,
        doctor: { userId: row.user_id, name: row.name, id: row.doctor_id },
      }));
    },

    /**
     * A lab order written today through the use cases, moved back to `at` as history (ordering refuses the past,
     * rightly): its number, order, collection, results, sign-off, review, release and bills, each at its usual
     * distance after `at`.
     */
    async backdateLabOrder(orderId: number, at: Date, timeZone: string): Promise<void> {
      await db.query(
        `with old as (select order_number from lab_orders where id = $1),
              o as (update lab_orders set ordered_at = $2,
                      order_number = 'L' || to_char(($2::timestamptz at time zone $3::text), 'YYYYMMDD') || substr(order_number, 10)
                    where id = $1 returning id, order_number),
              s as (update lab_specimens s set collected_at = $2::timestamptz + interval '20 minutes'
                    from lab_order_items i where i.id = s.order_item_id and i.order_id = $1),
              rep as (select id from lab_reports where order_id = $1),
              ob as (update observations set effective_at = $2::timestamptz + interval '20 minutes',
                       recorded_at = $2::timestamptz + interval '3 hours'
                     where report_id = (select id from rep) returning id),
              v as (update observation_versions set recorded_at = $2::timestamptz + interval '3 hours'
                    where observation_id in (select id from ob) and version = 1),
              r as (update lab_reports set updated_at = $2::timestamptz + interval '4 hours',
                      signed_off_at = case when signed_off_at is not null then $2::timestamptz + interval '4 hours' end,
                      released_at = case when released_at is not null then $2::timestamptz + interval '1 day' end
                    where order_id = $1),
              rv as (update lab_report_reviews set reviewed_at = $2::timestamptz + interval '1 day'
                     where report_id = (select id from rep)),
              b as (update billings set billing_date = ($2::timestamptz at time zone $3::text)::date,
                      service_details = replace(service_details, (select order_number from old), (select order_number from o))
                    where id in (select billing_id from lab_order_charges where order_id = $1))
         select 1`,
        [orderId, at, timeZone],
      );
    },

    /** A stay admitted today through the use cases, moved back to `at` as history: its request, admission and bed. */
    async backdateStay(admissionId: number, at: Date): Promise<void> {
      await db.query(
        `with a as (update admissions set requested_at = $2::timestamptz - interval '1 hour',
                      reserved_at = case when reserved_at is not null then $2::timestamptz - interval '30 minutes' end,
                      admitted_at = $2 where id = $1)
         update bed_stays set started_at = $2 where admission_id = $1`,
        [admissionId, at],
      );
    },
  };
}

export type DemoStore = ReturnType<typeof demoStore>;
