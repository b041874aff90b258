import type { DayAppointment, DayAppointmentQueries } from '../domain/reports/appointments-report.ts';
import type { BillingFigures, BillingGroup, BillingReportQueries } from '../domain/reports/billing-report.ts';
import type { Queryable } from './db.ts';
import { onlyRow } from './rows.ts';

// What each grouping groups by (an id, so two doctors of one name stay apart), labels with and sorts by.
const GROUPINGS: Record<BillingGroup, { key: string; label: string; order: string }> = {
  department: { key: 'dep.id', label: 'dep.name', order: 'lower(dep.name), dep.id' },
  doctor: { key: 'm.doctor_id', label: 'du.name', order: 'lower(du.name), m.doctor_id' },
  day: { key: 'b.billing_date', label: "to_char(b.billing_date, 'YYYY-MM-DD')", order: 'b.billing_date' },
};

/** A row of the billing report: one group's figures, or the grand total's. */
interface BillingFiguresRow extends BillingFigures {
  is_total: boolean;
  label: string | null;
}

const toFigures = (row: BillingFiguresRow): BillingFigures => ({
  bills: row.bills,
  billed_cents: row.billed_cents,
  paid_cents: row.paid_cents,
  unpaid_cents: row.unpaid_cents,
  unpaid_0_30_cents: row.unpaid_0_30_cents,
  unpaid_31_60_cents: row.unpaid_31_60_cents,
  unpaid_61_90_cents: row.unpaid_61_90_cents,
  unpaid_over_90_cents: row.unpaid_over_90_cents,
});

// Billed is what the bills ask for after their credit notes, and a bill paid beyond that (a refund due) owes nothing.
const OWED = 'greatest(b.amount_cents - b.credited_cents - b.paid_cents, 0)';

export function billingReportQueries(db: Queryable): BillingReportQueries {
  return {
    billingFigures: async ({ from, to, asOf }, by) => {
      const grouping = by && GROUPINGS[by];
      // grouping sets: each group and the grand total come from one pass over the period's bills. An empty
      // grouping set yields its row even when there are no bills, so the total is always there.
      const groupBy = grouping ? `grouping sets ((${grouping.key}, ${grouping.label}), ())` : '()';
      const unpaidAged = (condition: string) =>
        `coalesce(sum(${OWED}) filter (where $3::date - b.billing_date ${condition}), 0)`;
      const rows = await db.query<BillingFiguresRow>(
        `select ${grouping ? `grouping(${grouping.key}) = 1` : 'true'} as is_total,
                ${grouping ? grouping.label : 'null'} as label,
                count(b.id)::int as bills,
                coalesce(sum(b.amount_cents - b.credited_cents), 0) as billed_cents,
                coalesce(sum(b.paid_cents), 0) as paid_cents,
                coalesce(sum(${OWED}), 0) as unpaid_cents,
                ${unpaidAged('<= 30')} as unpaid_0_30_cents,
                ${unpaidAged('between 31 and 60')} as unpaid_31_60_cents,
                ${unpaidAged('between 61 and 90')} as unpaid_61_90_cents,
                ${unpaidAged('> 90')} as unpaid_over_90_cents
         from billings b
           left join billings ob on ob.id = b.supplements_id
           left join medical_records m on m.id = coalesce(b.medical_record_id, ob.medical_record_id)
           left join appointments a on a.id = m.appointment_id
           left join doctors doc on doc.id = m.doctor_id
           left join users du on du.id = doc.user_id
           -- the department the visit was booked in; the doctor's own when the appointment names none
           left join departments dep on dep.id = coalesce(a.department_id, doc.department_id)
         where b.billing_date between $1::date and $2::date
         group by ${groupBy}
         order by is_total${grouping ? `, ${grouping.order}` : ''}`,
        [from, to, asOf],
      );
      return {
        groups: rows.filter((row) => !row.is_total).map((row) => ({ label: row.label, ...toFigures(row) })),
        total: toFigures(onlyRow(rows.filter((row) => row.is_total))),
      };
    },
  };
}

export function dayAppointmentQueries(db: Queryable): DayAppointmentQueries {
  return {
    appointmentsOn: async (date) => {
      // DayAppointment's fields, but times as the time column gives them (HH:mm:ss).
      const rows = await db.query<DayAppointment>(
        `select a.id, du.name as doctor, a.start_time, a.end_time, pu.name as patient, p.phone as patient_phone,
                dep.name as department, r.name as room, a.status
         from appointments a
           join doctors d on d.id = a.doctor_id
           join users du on du.id = d.user_id
           join patients p on p.id = a.patient_id
           join users pu on pu.id = p.user_id
           left join departments dep on dep.id = a.department_id
           left join rooms r on r.id = a.room_id
         where a.date = $1::date and a.status <> 'cancelled'
         order by lower(du.name), a.doctor_id, a.start_time`,
        [date],
      );
      return rows.map((row) => ({
        id: row.id,
        doctor: row.doctor,
        start_time: row.start_time.slice(0, 5),
        end_time: row.end_time.slice(0, 5),
        patient: row.patient,
        patient_phone: row.patient_phone,
        department: row.department,
        room: row.room,
        status: row.status,
      }));
    },
  };
}
