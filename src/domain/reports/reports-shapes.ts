import { BillingShape } from '../billing/billing-shapes.ts';
import { PAYMENT_STATUSES } from '../billing/billing.ts';
import { APPOINTMENT_STATUSES } from '../scheduling/scheduling.ts';
import { PageQuery } from '../shared/pagination.ts';
import { ImageShape } from '../shared/shared-shapes.ts';
import {
  array,
  component,
  date,
  id,
  integer,
  nullable,
  number,
  object,
  oneOfValues,
  propertiesOf,
  queryOf,
  ref,
  string,
  type Static,
} from '../shared/wire-schema.ts';

// The admin's reports' requests and answers, written once (docs/architecture.md "The wire contract").

export const MAX_CHART_DAYS = 366;

// Requests

export const AppointmentsPerDayQuery = queryOf({
  days: integer({ minimum: 1, maximum: MAX_CHART_DAYS, default: 30 }),
});

/** The filters of the admin's appointment and bill lists; `to` before `from` is a rule beside them. */
const listFilters = <const Status extends string>(statuses: readonly Status[], dateOf: string) =>
  queryOf({
    from: date(`From this date (${dateOf}; included)`),
    to: date('To this date (included); before `from` → 422 naming `to`'),
    doctor_id: id(),
    department_id: id(),
    status: oneOfValues(statuses),
  });

export type ListFilterShape<Status extends string> = ReturnType<typeof listFilters<Status>>;

export const AppointmentFilters = listFilters(APPOINTMENT_STATUSES, "the appointment's date");
export const BillingFilters = listFilters(PAYMENT_STATUSES, "the bill's date");

const { q } = propertiesOf(PageQuery);
export const AppointmentListQuery = queryOf({ ...propertiesOf(PageQuery), ...propertiesOf(AppointmentFilters) });
export const AppointmentExportQuery = queryOf({ q, ...propertiesOf(AppointmentFilters) });
export const BillingListQuery = queryOf({ ...propertiesOf(PageQuery), ...propertiesOf(BillingFilters) });
export const BillingExportQuery = queryOf({ q, ...propertiesOf(BillingFilters) });

// Answers

export const StatisticsShape = component(
  'Statistics',
  object({
    appointment_count: integer({ minimum: 0, description: 'Appointments of any date, cancelled ones not counted' }),
    patient_count: integer({ minimum: 0 }),
    doctor_count: integer({ minimum: 0, description: 'Active doctors' }),
    average_diseases_per_doctor: number({
      minimum: 0,
      description: "Distinct doctor–disease pairs in active doctors' records ÷ active doctors, 2 decimals",
    }),
  }),
);
export type Statistics = Static<typeof StatisticsShape>;

export const TopDoctorShape = component(
  'TopDoctor',
  object({
    top_doctor: nullable(
      object({
        id: integer(),
        name: string(),
        specialization: nullable(string()),
        patient_img: ref(ImageShape),
        completed_appointments_count: integer({ minimum: 0 }),
        patient_count: integer({ minimum: 0 }),
      }),
    ),
  }),
);
export type TopDoctorJson = Static<typeof TopDoctorShape>;

const DayCountShape = object({ date: date(), count: integer({ minimum: 0 }) });
export type DayCount = Static<typeof DayCountShape>;

export const AppointmentsPerDayShape = object({ days: array(DayCountShape) });
export type AppointmentsPerDayJson = Static<typeof AppointmentsPerDayShape>;

/** A bill as the admin's list shows it: the patient's bill and the visit's doctor and date. */
export const VisitBillingShape = component(
  'VisitBilling',
  object({
    ...propertiesOf(BillingShape),
    doctor_name: nullable(
      string({ description: 'Who saw the patient at the visit billed; null for a bill without one' }),
    ),
    visit_date: nullable(date()),
  }),
);
export type VisitBillJson = Static<typeof VisitBillingShape>;
