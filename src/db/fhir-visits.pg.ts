import type { PaymentStatus } from '../domain/billing/billing.ts';
import type { VisitRow } from '../domain/fhir/appointment.ts';
import type { BillRow } from '../domain/fhir/invoice.ts';
import type { ConditionRow } from '../domain/fhir/condition.ts';
import type { AppointmentStatus } from '../domain/scheduling/scheduling.ts';
import { versioned, type FhirTable, type VersionedSql } from './fhir-search.pg.ts';
import { namedOrNull } from './rows.ts';

export interface VisitSql extends VersionedSql {
  patient_id: number;
  patient_name: string;
  doctor_id: number;
  doctor_name: string;
  room_id: number | null;
  room_name: string | null;
  schedule_id: number;
  date: string;
  start_at: Date;
  end_at: Date;
  status: AppointmentStatus;
  created_at: Date;
  record_id: number | null;
  service_type: string | null;
}

const PATIENT_NAME = 'join patients p on p.id = {row}.patient_id join users pu on pu.id = p.user_id';
const DOCTOR_NAME = 'join doctors d on d.id = {row}.doctor_id join users du on du.id = d.user_id';
const names = (row: string) => `${PATIENT_NAME} ${DOCTOR_NAME}`.replaceAll('{row}', row);

export const VISITS = `select a.id, a.updated_at, a.row_version as version, a.patient_id, pu.name as patient_name, a.doctor_id, du.name as doctor_name,
                       a.room_id, r.name as room_name, a.schedule_id, a.date,
                       ((a.date + a.start_time) at time zone {tz}) as start_at, ((a.date + a.end_time) at time zone {tz}) as end_at,
                       a.status, a.created_at, m.id as record_id, m.service_type
                from appointments a ${names('a')}
                left join rooms r on r.id = a.room_id
                left join medical_records m on m.appointment_id = a.id`;

export const VISIT_COLUMNS = {
  _id: 'id::int',
  _lastUpdated: 'updated_at::timestamptz',
  patient: 'patient_id::int',
  date: 'start_at::timestamptz',
  status: 'status::text',
};

export const visitRow = (raw: object): VisitRow => {
  const r = raw as VisitSql;
  return {
    ...versioned(r),
    patient: { id: r.patient_id, name: r.patient_name },
    doctor: { id: r.doctor_id, name: r.doctor_name },
    room: namedOrNull(r.room_id, r.room_name),
    scheduleId: r.schedule_id,
    date: r.date,
    start: r.start_at,
    end: r.end_at,
    status: r.status,
    created: r.created_at,
  };
};

export const appointmentTable: FhirTable<VisitRow> = {
  sql: VISITS,
  columns: { ...VISIT_COLUMNS, actor: 'doctor_id::int', practitioner: 'doctor_id::int' },
  patientColumn: 'patient_id',
  toRow: visitRow,
};

interface ConditionSql extends VersionedSql {
  patient_id: number;
  patient_name: string;
  doctor_id: number;
  doctor_name: string;
  appointment_id: number;
  disease_id: number;
  disease_name: string;
  diagnosis: string;
  prescriptions: string;
  lab_tests: string;
  record_date: string;
}

export const conditionTable: FhirTable<ConditionRow> = {
  sql: `select m.id, m.updated_at, m.row_version as version, m.patient_id, pu.name as patient_name, m.doctor_id, du.name as doctor_name,
               m.appointment_id, m.disease_id, dis.name as disease_name, m.diagnosis, m.prescriptions, m.lab_tests,
               m.record_date, (m.record_date::timestamp at time zone {tz}) as recorded_at
        from medical_records m ${names('m')} join diseases dis on dis.id = m.disease_id`,
  columns: {
    _id: 'id::int',
    _lastUpdated: 'updated_at::timestamptz',
    patient: 'patient_id::int',
    subject: 'patient_id::int',
    encounter: 'appointment_id::int',
    code: 'disease_id::int',
    'recorded-date': 'recorded_at::timestamptz',
  },
  patientColumn: 'patient_id',
  toRow: (raw) => {
    const r = raw as unknown as ConditionSql;
    return {
      ...versioned(r),
      patient: { id: r.patient_id, name: r.patient_name },
      doctor: { id: r.doctor_id, name: r.doctor_name },
      encounterId: r.appointment_id,
      disease: { id: r.disease_id, name: r.disease_name },
      diagnosis: r.diagnosis,
      prescriptions: r.prescriptions,
      labTests: r.lab_tests,
      recordDate: r.record_date,
    };
  },
};

interface BillSql extends VersionedSql {
  patient_id: number;
  patient_name: string;
  service_details: string;
  amount_cents: number;
  credited_cents: number;
  billing_date: string;
  payment_status: PaymentStatus;
}

export const invoiceTable: FhirTable<BillRow> = {
  sql: `select b.id, b.updated_at, b.row_version as version, b.patient_id, pu.name as patient_name, b.service_details, b.amount_cents,
               b.credited_cents, b.billing_date, (b.billing_date::timestamp at time zone {tz}) as billed_at, b.payment_status
        from billings b join patients p on p.id = b.patient_id join users pu on pu.id = p.user_id`,
  columns: {
    _id: 'id::int',
    _lastUpdated: 'updated_at::timestamptz',
    patient: 'patient_id::int',
    subject: 'patient_id::int',
    date: 'billed_at::timestamptz',
    status: 'payment_status::text',
  },
  patientColumn: 'patient_id',
  toRow: (raw) => {
    const r = raw as unknown as BillSql;
    return {
      ...versioned(r),
      patient: { id: r.patient_id, name: r.patient_name },
      serviceDetails: r.service_details,
      amountCents: Number(r.amount_cents),
      creditedCents: Number(r.credited_cents),
      date: r.billing_date,
      paid: r.payment_status === 'paid',
    };
  },
};
