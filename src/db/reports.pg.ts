import type { DashboardQueries } from '../domain/reports/ports.ts';
import type { Queryable } from './db.ts';
import { onlyRow } from './rows.ts';
import type { ListFilter, VisitBill } from '../domain/reports/ports.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import { BILL_COLUMNS, BILL_FROM, toBill, type BillRow } from './billing.pg.ts';
import { pageWithTotal, type PagedQuery } from './list-page.ts';
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
         from (select c.doctor_id, c.completed, c.patients from doctor_stats c join doctors d on d.id = c.doctor_id
               where d.active and c.completed > 0
               order by c.completed desc, c.patients desc, c.doctor_id
               limit 1) c
         join doctors d on d.id = c.doctor_id join users u on u.id = d.user_id
         left join specializations s on s.id = d.specialization_id`,
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
    appointments: (req, filter) => pageWithTotal(db, req, APPOINTMENT_LIST.paged(req.q, filter), toAppointment),
    appointmentRows: (q, filter, limit) => allRows(db, APPOINTMENT_LIST.paged(q, filter), limit, toAppointment),
    billings: (req, filter) => pageWithTotal(db, req, BILL_LIST.paged(req.q, filter), toVisitBill),
    billingRows: (q, filter, limit) => allRows(db, BILL_LIST.paged(q, filter), limit, toVisitBill),
  };
}

/** One of the admin's filtered lists: its rows, where each filter looks, and how it is searched. */
interface FilteredList {
  columns: string;
  from: string;
  /** The rows alone, enough to count them when nothing is searched and no filter needs `from`'s joins. */
  countFrom: string;
  date: string;
  /** The row's doctor, on the rows alone (`countFrom`). */
  doctor: string;
  department: string;
  status: string;
  /** The search on `$n`, the contains-pattern of q. */
  search: (n: number) => string;
  orderBy: string;
}

const filtered = (list: FilteredList) => ({
  paged: (q: string, filter: ListFilter<string>): PagedQuery & { orderBy: string } => {
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const conditions = [
      filter.from !== undefined && `${list.date} >= ${param(filter.from)}::date`,
      filter.to !== undefined && `${list.date} <= ${param(filter.to)}::date`,
      filter.doctorId !== undefined && `${list.doctor} = ${param(filter.doctorId)}`,
      filter.departmentId !== undefined && `${list.department} = ${param(filter.departmentId)}`,
      filter.status !== undefined && `${list.status} = ${param(filter.status)}`,
      q && list.search(params.push(containsPattern(q))),
    ].filter(Boolean);
    const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
    const needsJoins = q || filter.departmentId !== undefined;
    return {
      columns: list.columns,
      rowsOf: `from ${list.from} ${where}`,
      countOf: `from ${needsJoins ? list.from : list.countFrom} ${where}`,
      orderBy: list.orderBy,
      params,
    };
  },
});

const toVisitBill = (row: BillRow & { doctor_name: string | null; visit_date: string | null }): VisitBill => ({
  ...toBill(row),
  doctorName: row.doctor_name,
  visitDate: row.visit_date,
});

/** Every row of a paged query, in its order, at most `limit`. */
async function allRows<R extends object, T>(
  db: Queryable,
  query: PagedQuery & { orderBy: string },
  limit: number,
  toItem: (row: R) => T,
): Promise<T[]> {
  const rows = await db.query<R>(
    `select ${query.columns} ${query.rowsOf} order by ${query.orderBy} limit ${limit}`,
    query.params,
  );
  return rows.map(toItem);
}

const APPOINTMENT_LIST = filtered({
  columns: APPOINTMENT_COLUMNS,
  from: APPOINTMENT_FROM,
  countFrom: 'appointments a',
  date: 'a.date',
  doctor: 'a.doctor_id',
  department: 'a.department_id',
  status: 'a.status',
  search: appointmentSearch,
  orderBy: 'a.date desc, a.start_time desc, a.id desc',
});

// A bill's doctor and department are its visit's (a supplementary bill's, its original's): the department the visit was booked in, else the doctor's own.
const BILL_LIST = filtered({
  columns: `${BILL_COLUMNS}, du.name as doctor_name, a.date as visit_date`,
  from: `${BILL_FROM}
    left join billings ob on ob.id = b.supplements_id
    left join medical_records m on m.id = coalesce(b.medical_record_id, ob.medical_record_id)
    left join appointments a on a.id = m.appointment_id
    left join doctors doc on doc.id = m.doctor_id
    left join users du on du.id = doc.user_id`,
  countFrom: 'billings b',
  date: 'b.billing_date',
  doctor: 'b.doctor_id',
  department: 'coalesce(a.department_id, doc.department_id)',
  status: 'b.payment_status',
  search: (n) => `(lower(u.name) like $${n} or lower(u.email) like $${n} or lower(b.service_details) like $${n})`,
  orderBy: 'b.billing_date desc, b.id desc',
});
