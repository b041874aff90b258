import type { AuditLog } from '../audit/audit.ts';
import type { Bill, PaymentStatus } from '../billing/billing.ts';
import type { Appointment, AppointmentStatus } from '../scheduling/scheduling.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { DayCount } from './reports-shapes.ts';
import type { ClinicCounts, TopDoctorRow } from './statistics.ts';

/** Whole-clinic figures for the admin dashboard, each one SQL statement over indexes. */
export interface DashboardQueries {
  counts(): Promise<ClinicCounts>;
  topDoctor(): Promise<TopDoctorRow | undefined>;
  /** Booked (not cancelled) appointments per date from `from` to `to` inclusive; dates without any are left out. */
  appointmentsByDate(from: string, to: string): Promise<DayCount[]>;
  /** Every appointment, newest first, searched by patient or doctor name or email, department or room, filtered. */
  appointments(req: PageRequest, filter: ListFilter<AppointmentStatus>): Promise<Page<Appointment>>;
  /** The same appointments as `appointments` lists, all pages together, at most `limit` of them. */
  appointmentRows(q: string, filter: ListFilter<AppointmentStatus>, limit: number): Promise<Appointment[]>;
  /** Every bill, newest first, searched by patient name or email, or service, filtered by the visit it charges. */
  billings(req: PageRequest, filter: ListFilter<PaymentStatus>): Promise<Page<VisitBill>>;
  /** The same bills as `billings` lists, all pages together, at most `limit` of them. */
  billingRows(q: string, filter: ListFilter<PaymentStatus>, limit: number): Promise<VisitBill[]>;
}

/** A bill with the visit it charges for: who saw the patient and on which day (null for a bill without a visit). */
export interface VisitBill extends Bill {
  doctorName: string | null;
  visitDate: string | null;
}

/**
 * What the admin's appointment and bill lists are narrowed to: clinic dates `from`–`to` (both included; the
 * appointment's date, the bill's date), the doctor and department of the visit, and the row's status.
 */
export interface ListFilter<Status extends string> {
  from?: string;
  to?: string;
  doctorId?: number;
  departmentId?: number;
  status?: Status;
}

export interface ReportsDeps {
  dashboard: DashboardQueries;
  audit: AuditLog;
  clock: Clock;
  timeZone: string;
}
