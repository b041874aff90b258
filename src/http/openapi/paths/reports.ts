import type { ModulePaths } from '../module-paths.ts';
import {
  AppointmentExportQuery,
  AppointmentListQuery,
  AppointmentsPerDayQuery,
  AppointmentsPerDayShape,
  BillingExportQuery,
  BillingListQuery,
  StatisticsShape,
  TopDoctorShape,
  VisitBillingShape,
} from '../../../domain/reports/reports-shapes.ts';
import { AppointmentShape } from '../../../domain/scheduling/scheduling-shapes.ts';
import { listOf, ref, string } from '../../../domain/shared/wire-schema.ts';

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
    Statistics: StatisticsShape,
    TopDoctor: TopDoctorShape,
    VisitBilling: VisitBillingShape,
  },
  operations: {
    'GET /api/admin/statistics': {
      summary: 'Clinic statistics',
      description:
        'Appointments (not cancelled), patients, active doctors and the average number of diseases per active doctor.',
      access: 'admin',
      answers: { 200: ref(StatisticsShape) },
    },
    'GET /api/admin/top-doctor': {
      summary: 'The top doctor',
      description:
        'The active doctor with the most completed appointments (ties: more distinct patients, then the lowest id); null when there is none.',
      access: 'admin',
      answers: { 200: ref(TopDoctorShape) },
    },
    'GET /api/admin/appointments-per-day': {
      summary: 'Appointments per day',
      description:
        'Not-cancelled appointments per clinic date over the last `days` days up to today, oldest first, zero-filled.',
      access: 'admin',
      query: AppointmentsPerDayQuery,
      answers: { 200: AppointmentsPerDayShape },
    },
    'GET /api/admin/appointments': {
      summary: 'List every appointment',
      description:
        'Newest first; `q` searches patient and doctor name and e-mail, department and room; filtered by date, doctor, department ' +
        'and status (a bad filter is 422 naming it). Each page read is audited.',
      access: 'admin',
      query: AppointmentListQuery,
      answers: { 200: listOf('appointments', ref(AppointmentShape)) },
    },
    'GET /api/admin/appointments.csv': {
      summary: 'Export appointments as CSV',
      description: `${csvDescription} Columns: id, date, start_time, end_time, status, patient_id, patient_name, patient_email, doctor_id, doctor_name, doctor_email, department, room.`,
      access: 'admin',
      query: AppointmentExportQuery,
      answers: csvAnswer('medora-appointments-<date>.csv'),
    },
    'GET /api/admin/billings': {
      summary: 'List every bill',
      description:
        'Newest first, each with the doctor and date of the visit billed; `q` searches patient name and e-mail and the service; ' +
        "filtered by the bill's date, the visit's doctor and department, and payment status. Each page read is audited.",
      access: 'admin',
      query: BillingListQuery,
      answers: { 200: listOf('billings', ref(VisitBillingShape)) },
    },
    'GET /api/admin/billings.csv': {
      summary: 'Export bills as CSV',
      description: `${csvDescription} Columns: id, billing_date, patient_id, patient_name, patient_email, doctor_name, visit_date, service, amount, currency, status.`,
      access: 'admin',
      query: BillingExportQuery,
      answers: csvAnswer('medora-billings-<date>.csv'),
    },
  },
};
