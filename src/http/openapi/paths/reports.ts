import type { ModulePaths } from '../module-paths.ts';
import { pageQuery } from '../components.ts';
import { PAYMENT_STATUSES } from '../../../domain/billing/billing.ts';
import {
  array,
  date,
  id,
  integer,
  listOf,
  nullable,
  number,
  object,
  oneOfValues,
  ref,
  string,
  type Schema,
} from '../../../domain/shared/wire-schema.ts';

/** The filters of the admin's appointment and bill lists (src/domain/reports/use-cases.ts readListFilter). */
function listFilters(statuses: readonly string[], dateOf: string): Record<string, Schema> {
  return {
    from: date(`From this date (${dateOf}; included)`),
    to: date('To this date (included); before `from` → 422 naming `to`'),
    doctor_id: id(),
    department_id: id(),
    status: oneOfValues(statuses),
  };
}

const APPOINTMENT_STATUSES = ['scheduled', 'checked_in', 'completed', 'no_show', 'cancelled'];
const appointmentFilters = listFilters(APPOINTMENT_STATUSES, "the appointment's date");
const billingFilters = listFilters(PAYMENT_STATUSES, "the bill's date");

const csvAnswer = (filename: string) => ({
  200: {
    description: 'The CSV file',
    content: { 'text/csv': string() },
    headers: { 'Content-Disposition': string({ description: `attachment; filename="${filename}"` }) },
  },
});

const csvDescription =
  'The filtered rows of every page as an RFC 4180 CSV attachment (CRLF, a header row; text a spreadsheet would run as a formula ' +
  "is prefixed with `'`). At most 100,000 rows: more → 422 naming `from`. The export is audited with its filters and row count.";

/** The operations of src/http/routes/reports.ts. */
export const reportsPaths: ModulePaths = {
  tag: 'Reports',
  description:
    "The admin dashboard's figures (statistics, the top doctor, appointments per day) and the clinic-wide appointment and bill " +
    'lists with their CSV exports. Admins only; every list page read and every export is audited with its filters.',
  schemas: {
    Statistics: object({
      appointment_count: integer({ minimum: 0, description: 'Appointments of any date, cancelled ones not counted' }),
      patient_count: integer({ minimum: 0 }),
      doctor_count: integer({ minimum: 0, description: 'Active doctors' }),
      average_diseases_per_doctor: number({
        minimum: 0,
        description: "Distinct doctor–disease pairs in active doctors' records ÷ active doctors, 2 decimals",
      }),
    }),
    TopDoctor: object({
      top_doctor: nullable(
        object({
          id: integer(),
          name: string(),
          specialization: nullable(string()),
          patient_img: ref('Image'),
          completed_appointments_count: integer({ minimum: 0 }),
          patient_count: integer({ minimum: 0 }),
        }),
      ),
    }),
    VisitBilling: object({
      id: integer(),
      bill_number: string({ pattern: '^B-[0-9]{6,}$' }),
      patient: ref('Person'),
      service_details: string(),
      amount: ref('Money'),
      amount_cents: integer(),
      credited: ref('Money'),
      credited_cents: integer({ minimum: 0 }),
      adjusted_amount: ref('Money'),
      adjusted_amount_cents: integer({ minimum: 0, description: 'The amount less its credit notes' }),
      paid: ref('Money'),
      paid_cents: integer({ minimum: 0 }),
      balance: ref('Money'),
      balance_cents: integer({ minimum: 0 }),
      refund_due: ref('Money'),
      refund_due_cents: integer({
        minimum: 0,
        description: 'Paid beyond the adjusted amount: owed back to the patient',
      }),
      billing_date: date(),
      payment_status: oneOfValues(PAYMENT_STATUSES),
      supplements_bill_id: nullable(id("A supplementary bill's original")),
      adjustments: array(ref('BillAdjustment'), {
        description: 'Credit notes and supplementary bills against it, oldest first',
      }),
      doctor_name: nullable(
        string({ description: 'Who saw the patient at the visit billed; null for a bill without one' }),
      ),
      visit_date: nullable(date()),
    }),
  },
  operations: {
    'GET /api/admin/statistics': {
      summary: 'Clinic statistics',
      description:
        'Appointments (not cancelled), patients, active doctors and the average number of diseases per active doctor.',
      access: 'admin',
      answers: { 200: ref('Statistics') },
    },
    'GET /api/admin/top-doctor': {
      summary: 'The top doctor',
      description:
        'The active doctor with the most completed appointments (ties: more distinct patients, then the lowest id); null when there is none.',
      access: 'admin',
      answers: { 200: ref('TopDoctor') },
    },
    'GET /api/admin/appointments-per-day': {
      summary: 'Appointments per day',
      description:
        'Not-cancelled appointments per clinic date over the last `days` days up to today, oldest first, zero-filled.',
      access: 'admin',
      query: { days: integer({ minimum: 1, maximum: 366, default: 30 }) },
      answers: {
        200: object({ days: { type: 'array', items: object({ date: date(), count: integer({ minimum: 0 }) }) } }),
      },
    },
    'GET /api/admin/appointments': {
      summary: 'List every appointment',
      description:
        'Newest first; `q` searches patient and doctor name and e-mail, department and room; filtered by date, doctor, department ' +
        'and status (a bad filter is 422 naming it). Each page read is audited.',
      access: 'admin',
      query: { ...pageQuery, ...appointmentFilters },
      answers: { 200: listOf('appointments', ref('Appointment')) },
    },
    'GET /api/admin/appointments.csv': {
      summary: 'Export appointments as CSV',
      description: `${csvDescription} Columns: id, date, start_time, end_time, status, patient_id, patient_name, patient_email, doctor_id, doctor_name, doctor_email, department, room.`,
      access: 'admin',
      query: { q: pageQuery.q, ...appointmentFilters },
      answers: csvAnswer('medora-appointments-<date>.csv'),
    },
    'GET /api/admin/billings': {
      summary: 'List every bill',
      description:
        'Newest first, each with the doctor and date of the visit billed; `q` searches patient name and e-mail and the service; ' +
        "filtered by the bill's date, the visit's doctor and department, and payment status. Each page read is audited.",
      access: 'admin',
      query: { ...pageQuery, ...billingFilters },
      answers: { 200: listOf('billings', ref('VisitBilling')) },
    },
    'GET /api/admin/billings.csv': {
      summary: 'Export bills as CSV',
      description: `${csvDescription} Columns: id, billing_date, patient_id, patient_name, patient_email, doctor_name, visit_date, service, amount, currency, status.`,
      access: 'admin',
      query: { q: pageQuery.q, ...billingFilters },
      answers: csvAnswer('medora-billings-<date>.csv'),
    },
  },
};
