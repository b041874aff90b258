import type { AuditLog } from '../audit/audit.ts';
import type { Bill } from '../billing/billing.ts';
import type { Appointment } from '../scheduling/scheduling.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { ClinicCounts, DayCount, TopDoctorRow } from './statistics.ts';

/** Whole-clinic figures for the admin dashboard, each one SQL statement over indexes. */
export interface DashboardQueries {
  counts(): Promise<ClinicCounts>;
  topDoctor(): Promise<TopDoctorRow | undefined>;
  /** Booked (not cancelled) appointments per date from `from` to `to` inclusive; dates without any are left out. */
  appointmentsByDate(from: string, to: string): Promise<DayCount[]>;
  /** Every appointment, newest first, searched by patient or doctor name or email, department or room. */
  appointments(req: PageRequest): Promise<Page<Appointment>>;
  /** Every bill, newest first, searched by patient name or email, or service. */
  billings(req: PageRequest): Promise<Page<Bill>>;
}

export interface ReportsDeps {
  dashboard: DashboardQueries;
  audit: AuditLog;
  clock: Clock;
  timeZone: string;
}
