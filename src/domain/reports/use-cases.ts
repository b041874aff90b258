import { listEntry } from '../audit/audit.ts';
import { CURRENCY, type PaymentStatus } from '../billing/billing.ts';
import { billingJson } from '../billing/billing-answers.ts';
import type { Actor } from '../shared/actor.ts';
import { addDays, clinicToday } from '../shared/clock.ts';
import { MAX_EXPORT_ROWS, checkExportSize, csvRecord } from '../shared/csv.ts';
import { centsToDecimal } from '../shared/money.ts';
import { pageRequest, type Page, type PageRequest } from '../shared/pagination.ts';
import { readFields, readInput } from '../shared/read-fields.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import type { Appointment, AppointmentStatus } from '../scheduling/scheduling.ts';
import type { ListFilter, ReportsDeps, VisitBill } from './ports.ts';
import {
  AppointmentFilters,
  AppointmentsPerDayQuery,
  BillingFilters,
  type AppointmentsPerDayJson,
  type ListFilterShape,
  type VisitBillJson,
} from './reports-shapes.ts';
import { statisticsOf, topDoctorJson, zeroFilledDays } from './statistics.ts';
import { appointmentJson } from '../scheduling/appointment-answers.ts';

export const statistics = async (deps: ReportsDeps) => statisticsOf(await deps.dashboard.counts());

export const topDoctor = async (deps: ReportsDeps) => topDoctorJson(await deps.dashboard.topDoctor());

/** Booked appointments per clinic date over the last `days` days (default 30) up to today, zero-filled. */
export async function appointmentsPerDay(
  deps: ReportsDeps,
  query: Record<string, unknown>,
): Promise<AppointmentsPerDayJson> {
  const { days = 30 } = readInput(AppointmentsPerDayQuery, query);
  const today = clinicToday(deps.clock, deps.timeZone);
  const first = addDays(today, 1 - days);
  return { days: zeroFilledDays(first, days, await deps.dashboard.appointmentsByDate(first, today)) };
}

/** Filters as the query names them (for the audit entry), and as the queries take them; a bad one is a 422 naming it. */
function readListFilter<S extends string>(query: Record<string, unknown>, filters: ListFilterShape<S>) {
  const v = new Validator(query);
  const read = readFields(v, filters);
  const filter: ListFilter<S> = {
    from: read.from,
    to: read.to,
    doctorId: read.doctor_id,
    departmentId: read.department_id,
    status: read.status,
  };
  if (filter.from && filter.to && filter.to < filter.from) v.fail('to', 'must not be before from');
  v.done();
  const given = {
    from: filter.from,
    to: filter.to,
    doctor_id: filter.doctorId,
    department_id: filter.departmentId,
    status: filter.status,
  };
  const asGiven = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return { filter, asGiven };
}

/** A list and its CSV export: how it is read, audited and written out. */
interface AdminList<S extends string, Row> {
  entity: string;
  filters: ListFilterShape<S>;
  page(deps: ReportsDeps, req: PageRequest, filter: ListFilter<S>): Promise<Page<Row>>;
  rows(deps: ReportsDeps, q: string, filter: ListFilter<S>, limit: number): Promise<Row[]>;
  csvHeader: string[];
  csvValues(row: Row): (string | number | null)[];
}

async function listFiltered<S extends string, Row>(
  list: AdminList<S, Row>,
  deps: ReportsDeps,
  query: Record<string, unknown>,
  actor: Actor,
) {
  const input = asRecord(query);
  const request = pageRequest(input);
  const { filter, asGiven } = readListFilter(input, list.filters);
  const page = await list.page(deps, request, filter);
  await deps.audit.record(listEntry(actor, list.entity, request, asGiven));
  return page;
}

/** Every row the filtered list shows, on all its pages, as a CSV file; the export is audited with its filters and size. */
async function exportFiltered<S extends string, Row>(
  list: AdminList<S, Row>,
  deps: ReportsDeps,
  query: Record<string, unknown>,
  actor: Actor,
) {
  const input = asRecord(query);
  const { q } = pageRequest(input);
  const { filter, asGiven } = readListFilter(input, list.filters);
  const rows = await list.rows(deps, q, filter, MAX_EXPORT_ROWS + 1);
  checkExportSize(rows.length, 'rows');
  await deps.audit.record({
    actor,
    action: 'export',
    entity: list.entity,
    details: { ...(q ? { q } : {}), ...asGiven, rows: rows.length },
  });
  const csv = csvRecord(list.csvHeader) + rows.map((row) => csvRecord(list.csvValues(row))).join('');
  return { filename: `medora-${list.entity}s-${clinicToday(deps.clock, deps.timeZone)}.csv`, csv };
}

const APPOINTMENTS: AdminList<AppointmentStatus, Appointment> = {
  entity: 'appointment',
  filters: AppointmentFilters,
  page: (deps, req, filter) => deps.dashboard.appointments(req, filter),
  rows: (deps, q, filter, limit) => deps.dashboard.appointmentRows(q, filter, limit),
  csvHeader: [
    'id',
    'date',
    'start_time',
    'end_time',
    'status',
    'patient_id',
    'patient_name',
    'patient_email',
    'doctor_id',
    'doctor_name',
    'doctor_email',
    'department',
    'room',
  ],
  csvValues: (a) => [
    a.id,
    a.date,
    a.startTime,
    a.endTime,
    a.status,
    a.patient.id,
    a.patient.name,
    a.patient.email,
    a.doctor.id,
    a.doctor.name,
    a.doctor.email,
    a.department?.name ?? null,
    a.room?.name ?? null,
  ],
};

const BILLINGS: AdminList<PaymentStatus, VisitBill> = {
  entity: 'billing',
  filters: BillingFilters,
  page: (deps, req, filter) => deps.dashboard.billings(req, filter),
  rows: (deps, q, filter, limit) => deps.dashboard.billingRows(q, filter, limit),
  csvHeader: [
    'id',
    'billing_date',
    'patient_id',
    'patient_name',
    'patient_email',
    'doctor_name',
    'visit_date',
    'service',
    'amount',
    'currency',
    'status',
  ],
  csvValues: (b) => [
    b.id,
    b.billingDate,
    b.patient.id,
    b.patient.name,
    b.patient.email,
    b.doctorName,
    b.visitDate,
    b.serviceDetails,
    centsToDecimal(b.amountCents),
    CURRENCY,
    b.paymentStatus,
  ],
};

/** Every appointment, for an admin, filtered; every page read is audited. */
export async function listAllAppointments(deps: ReportsDeps, query: Record<string, unknown>, actor: Actor) {
  const page = await listFiltered(APPOINTMENTS, deps, query, actor);
  return { ...page, items: page.items.map(appointmentJson) };
}

export const exportAppointmentsCsv = (deps: ReportsDeps, query: Record<string, unknown>, actor: Actor) =>
  exportFiltered(APPOINTMENTS, deps, query, actor);

/** Every bill, for an admin, filtered; every page read is audited. */
export async function listAllBillings(deps: ReportsDeps, query: Record<string, unknown>, actor: Actor) {
  const page = await listFiltered(BILLINGS, deps, query, actor);
  return { ...page, items: page.items.map(visitBillJson) };
}

/** A bill as the admin's list shows it: the patient's bill and the visit's doctor and date. */
const visitBillJson = (bill: VisitBill): VisitBillJson => ({
  ...billingJson(bill),
  doctor_name: bill.doctorName,
  visit_date: bill.visitDate,
});

export const exportBillingsCsv = (deps: ReportsDeps, query: Record<string, unknown>, actor: Actor) =>
  exportFiltered(BILLINGS, deps, query, actor);
