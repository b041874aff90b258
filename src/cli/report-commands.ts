import type { Command } from 'commander';
import { BILLING_GROUPS } from '../domain/reports/billing-report.ts';
import { chosenFormat, formatOption, printRecord, printRows, type Column } from './format.ts';
import { writeLine, type Cli } from './context.ts';
import { cliActor } from '../domain/shared/actor.ts';

const BILLING_COLUMNS: Column[] = [
  { key: 'bills', header: 'Bills' },
  { key: 'billed_cents', header: 'Billed', money: true },
  { key: 'paid_cents', header: 'Paid', money: true },
  { key: 'unpaid_cents', header: 'Unpaid', money: true },
  { key: 'unpaid_0_30_cents', header: 'Unpaid 0–30 d', money: true },
  { key: 'unpaid_31_60_cents', header: '31–60 d', money: true },
  { key: 'unpaid_61_90_cents', header: '61–90 d', money: true },
  { key: 'unpaid_over_90_cents', header: 'Over 90 d', money: true },
];

const WARD_COLUMNS: Column[] = [
  { key: 'department', header: 'Ward' },
  { key: 'patient_nights', header: 'Patient nights' },
  { key: 'admissions', header: 'Admissions' },
  { key: 'discharges', header: 'Discharges' },
  { key: 'transfers', header: 'Transfers' },
  { key: 'occupancy_percent', header: 'Occupancy %' },
  { key: 'average_length_of_stay', header: 'Average stay (nights)' },
];

const TAKINGS_COLUMNS: Column[] = [
  { key: 'method', header: 'Method' },
  { key: 'payments', header: 'Payments' },
  { key: 'amount_cents', header: 'Amount', money: true },
];

const GROUP_HEADERS = { department: 'Department', doctor: 'Doctor', day: 'Day' } as const;

const APPOINTMENT_COLUMNS: Column[] = [
  { key: 'doctor', header: 'Doctor' },
  { key: 'start_time', header: 'From' },
  { key: 'end_time', header: 'To' },
  { key: 'patient', header: 'Patient' },
  { key: 'patient_phone', header: 'Phone' },
  { key: 'department', header: 'Department' },
  { key: 'room', header: 'Room' },
  { key: 'status', header: 'Status' },
  { key: 'id', header: 'Appointment' },
];

const STATS_COLUMNS: Column[] = [
  { key: 'appointment_count', header: 'Appointments' },
  { key: 'patient_count', header: 'Patients' },
  { key: 'doctor_count', header: 'Doctors' },
  { key: 'average_diseases_per_doctor', header: 'Diseases per doctor' },
  { key: 'top_doctor', header: 'Top doctor' },
  { key: 'top_doctor_specialization', header: 'Top doctor: specialization' },
  { key: 'top_doctor_completed_appointments', header: 'Top doctor: completed appointments' },
  { key: 'top_doctor_patients', header: 'Top doctor: patients' },
];

const CENSUS_COLUMNS: Column[] = [
  { key: 'date', header: 'Day' },
  { key: 'department', header: 'Ward' },
  { key: 'beds', header: 'Beds' },
  { key: 'in_bed_at_midnight', header: 'In bed at midnight' },
  { key: 'admissions', header: 'Admissions' },
  { key: 'discharges', header: 'Discharges' },
  { key: 'transfers', header: 'Transfers' },
  { key: 'occupancy_percent', header: 'Occupancy %' },
];

export function register(program: Command, { getApp, io }: Cli): void {
  const report = program.command('report').description('reports for the office and for cron jobs');

  report
    .command('stats')
    .description("the dashboard's statistics and top doctor (most completed appointments)")
    .addOption(formatOption())
    .action(async (opts: { format?: string }) => {
      const app = await getApp();
      const statistics = await app.reports.statistics();
      const { top_doctor } = await app.reports.topDoctor();
      const flat = {
        ...statistics,
        top_doctor: top_doctor?.name ?? null,
        top_doctor_specialization: top_doctor?.specialization ?? null,
        top_doctor_completed_appointments: top_doctor?.completed_appointments_count ?? null,
        top_doctor_patients: top_doctor?.patient_count ?? null,
      };
      printRecord(io.stdout, flat, STATS_COLUMNS, chosenFormat(opts.format, io.stdout), { ...statistics, top_doctor });
    });

  report
    .command('billing')
    .description(
      'bills issued, amount billed (less credit notes), paid and unpaid, and unpaid amounts by age (0–30, 31–60, 61–90, over 90 days as of today)',
    )
    .option('--from <date>', 'first billing date, yyyy-MM-dd (default: the first of this month)')
    .option('--to <date>', 'last billing date, yyyy-MM-dd (default: today)')
    .option('--by <group>', `one row per ${BILLING_GROUPS.join(', ')} (default: one row for the whole period)`)
    .addOption(formatOption())
    .action(async (opts: { from?: string; to?: string; by?: string; format?: string }) => {
      const app = await getApp();
      const result = await app.adminReports.billingReport({ from: opts.from, to: opts.to, by: opts.by });
      const columns = result.by
        ? [{ key: result.by, header: GROUP_HEADERS[result.by] }, ...BILLING_COLUMNS]
        : BILLING_COLUMNS;
      const format = chosenFormat(opts.format, io.stdout);
      if (format === 'table')
        writeLine(io.stdout, `Billing from ${result.from} to ${result.to}, unpaid amounts aged as of ${result.as_of}`);
      printRows(io.stdout, result.rows, columns, format, { json: result, total: result.by ? result.total : undefined });
    });

  report
    .command('census')
    .description(
      "the midnight census per ward and day: who was in a bed at midnight in the clinic's zone, admissions, discharges, transfers, occupancy",
    )
    .option('--from <date>', 'first day, yyyy-MM-dd (default: the first of this month)')
    .option('--to <date>', 'last day, yyyy-MM-dd (default: today)')
    .option('--ward <id>', 'one ward (department id) only')
    .addOption(formatOption())
    .action(async (opts: { from?: string; to?: string; ward?: string; format?: string }) => {
      const app = await getApp();
      const query = { from: opts.from, to: opts.to, department_id: opts.ward };
      const format = chosenFormat(opts.format, io.stdout);
      // The CSV is the API's, byte for byte: one writer for both.
      if (format === 'csv') return void io.stdout.write((await app.inpatient.censusCsv(query, cliActor())).csv);
      const result = await app.inpatient.census(query, cliActor());
      if (format === 'table')
        writeLine(io.stdout, `Midnight census from ${result.from} to ${result.to} (${result.time_zone})`);
      printRows(io.stdout, result.days, CENSUS_COLUMNS, format, { json: result });
      if (format === 'table') printRows(io.stdout, result.wards, WARD_COLUMNS, format);
    });

  report
    .command('takings')
    .description(
      "the front desk's end-of-day takings: the day's payments per method (card, cash, bank transfer, insurance) and their total",
    )
    .option('--date <date>', "the day, yyyy-MM-dd, in the clinic's zone (default: today)")
    .addOption(formatOption())
    .action(async (opts: { date?: string; format?: string }) => {
      const app = await getApp();
      const query = { date: opts.date };
      const format = chosenFormat(opts.format, io.stdout);
      // The CSV is the API's, byte for byte: one writer for both.
      if (format === 'csv') return void io.stdout.write((await app.billing.takingsCsv(query, cliActor())).csv);
      const result = await app.billing.takings(query, cliActor());
      if (format === 'table') writeLine(io.stdout, `Takings on ${result.date} (${result.time_zone})`);
      printRows(io.stdout, result.methods, TAKINGS_COLUMNS, format, {
        json: result,
        total: { payments: result.payments, amount_cents: result.total_cents },
      });
    });

  report
    .command('appointments')
    .description("the day's appointments per doctor, cancelled ones left out (for the morning print-out)")
    .option('--date <date>', 'the day, yyyy-MM-dd (default: today)')
    .addOption(formatOption())
    .action(async (opts: { date?: string; format?: string }) => {
      const app = await getApp();
      const result = await app.adminReports.appointmentsReport({ date: opts.date });
      const format = chosenFormat(opts.format, io.stdout);
      if (format === 'table') writeLine(io.stdout, `Appointments on ${result.date}`);
      printRows(io.stdout, result.appointments, APPOINTMENT_COLUMNS, format, { json: result });
    });
}
