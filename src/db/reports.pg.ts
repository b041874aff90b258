import type { DashboardQueries } from '../domain/reports/ports.ts';
import type { Queryable } from './db.ts';
import { onlyRow } from './rows.ts';
import { toBill } from './billing.pg.ts';
import { listPage } from './list-page.ts';
import { APPOINTMENT_COLUMNS, APPOINTMENT_FROM, appointmentSearch, toAppointment } from './scheduling.pg.ts';

interface ClinicCountsRow {
  appointments: number;
  patients: number;
  active_doctors: number;
  doctor_disease_pairs: number;
}

/** The doctor with the most completed appointments, with the figures their doctor_stats row keeps. */
interface TopDoctorStatsRow {
  id: number;
  name: string;
  specialization: string | null;
  image_id: number | null;
  appointments: number;
  patients: number;
}

// Statistics and the top doctor read the figures the schema's triggers keep per doctor (doctor_stats, clinic_stats)
// instead of counting a million appointments per request; recount_dashboard() rebuilds them from the rows.
export function dashboardQueries(db: Queryable): DashboardQueries {
  return {
    counts: async () => {
      const rows = await db.query<ClinicCountsRow>(
        `select
           (select coalesce(sum(booked), 0) from doctor_stats)::int as appointments,
           (select patients from clinic_stats) as patients,
           (select count(*) from doctors where active)::int as active_doctors,
           (select coalesce(sum(s.diseases), 0) from doctor_stats s join doctors d on d.id = s.doctor_id where d.active)::int
             as doctor_disease_pairs`,
      );
      const row = onlyRow(rows);
      return {
        appointments: row.appointments,
        patients: row.patients,
        activeDoctors: row.active_doctors,
        doctorDiseasePairs: row.doctor_disease_pairs,
      };
    },
    topDoctor: async () => {
      const [row] = await db.query<TopDoctorStatsRow>(
        `select d.id, u.name, s.name as specialization, coalesce(d.photo_id, u.profile_image_id) as image_id,
                c.completed as appointments, c.patients
         from doctor_stats c join doctors d on d.id = c.doctor_id join users u on u.id = d.user_id
         left join specializations s on s.id = d.specialization_id
         where d.active and c.completed > 0
         order by c.completed desc, c.patients desc, d.id
         limit 1`,
      );
      return (
        row && {
          id: row.id,
          name: row.name,
          specialization: row.specialization,
          imageId: row.image_id,
          completedAppointments: row.appointments,
          patients: row.patients,
        }
      );
    },
    appointmentsByDate: (from, to) =>
      db.query<{ date: string; count: number }>(
        `select date, count(*)::int as count from appointments
         where date between $1 and $2 and status <> 'cancelled'
         group by date order by date`,
        [from, to],
      ),
    appointments: (req) =>
      listPage(
        db,
        req,
        {
          columns: APPOINTMENT_COLUMNS,
          from: APPOINTMENT_FROM,
          countFrom: 'appointments a',
          search: appointmentSearch(1),
          orderBy: 'a.date desc, a.start_time desc, a.id desc',
        },
        toAppointment,
      ),
    billings: (req) =>
      listPage(
        db,
        req,
        {
          columns: `b.id, b.patient_id, u.name as patient_name, u.email as patient_email, b.service_details,
            b.amount_cents, b.billing_date, b.payment_status`,
          from: 'billings b join patients p on p.id = b.patient_id join users u on u.id = p.user_id',
          countFrom: 'billings b',
          search: 'lower(u.name) like $1 or lower(u.email) like $1 or lower(b.service_details) like $1',
          orderBy: 'b.billing_date desc, b.id desc',
        },
        toBill,
      ),
  };
}
