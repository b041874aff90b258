import type { AllergyIntoleranceRow } from '../domain/fhir/allergy-intolerance.ts';
import type { MedicationAdministrationRow } from '../domain/fhir/medication-administration.ts';
import type { MedicationRequestRow } from '../domain/fhir/medication-request.ts';
import type { MedicationRow } from '../domain/fhir/medication.ts';
import { medicineLabel } from '../domain/medicines/formulary.ts';
import type { DoseOutcome } from '../domain/medicines/mar.ts';
import type { FhirTable } from './fhir-search.pg.ts';
import {
  ALLERGY_SELECT,
  DOSE_SELECT,
  FORMULARY_COLUMNS,
  REQUEST_FROM,
  requestColumns,
  toAllergy,
  toDose,
  toFormularyEntry,
  toRequestView,
  type AllergyRow,
  type DoseRow,
  type FormularyRow,
  type RequestRow,
} from './medicines.pg.ts';

// The medicines' resources (issue 50), read through medicines.pg.ts's own selects and mappers.

export const medicationTable: FhirTable<MedicationRow> = {
  sql: `select ${FORMULARY_COLUMNS}, f.active::text as status, f.updated_at from formulary f`,
  columns: { _id: 'id::int', _lastUpdated: 'updated_at::timestamptz', status: 'status::text' },
  toRow: (raw) => ({ ...toFormularyEntry(raw as unknown as FormularyRow), updatedAt: raw.updated_at as Date }),
};

export const medicationRequestTable: FhirTable<MedicationRequestRow> = {
  sql: `select ${requestColumns('{now}')}, greatest(r.requested_at, r.discontinued_at) as updated_at,
               case when r.admission_id is null then 'outpatient' else 'inpatient' end as category
        from ${REQUEST_FROM}`,
  // `id` is the medicine's here (FORMULARY_COLUMNS), the request's is `request_id`.
  columns: {
    _id: 'request_id::int',
    _lastUpdated: 'updated_at::timestamptz',
    patient: 'patient_id::int',
    subject: 'patient_id::int',
    requester: 'doctor_id::int',
    medication: 'medicine_id::int',
    status: 'status::text',
    category: 'category::text',
    authoredon: 'requested_at::timestamptz',
  },
  patientColumn: 'patient_id',
  toRow: (raw) => ({ ...toRequestView(raw as unknown as RequestRow), updatedAt: raw.updated_at as Date }),
};

/** A recorded dose: the select leaves out those still due and those cancelled. */
interface AdministrationSql extends Omit<DoseRow, 'status'> {
  status: DoseOutcome;
  patient_id: number;
  patient_name: string;
  admission_id: number;
  medicine_id: number;
  generic_name: string;
  strength: string;
  form: MedicationRow['form'];
  route: MedicationRequestRow['route'];
}

export const medicationAdministrationTable: FhirTable<MedicationAdministrationRow> = {
  sql: `select x.*, mr.patient_id, pu.name as patient_name, mr.admission_id, mr.medicine_id, mr.route,
               f.generic_name, f.strength, f.form, x.recorded_at as updated_at,
               coalesce(x.given_at, x.due_at, x.recorded_at) as effective_at
        from (${DOSE_SELECT} where d.recorded_at is not null) x
        join medication_requests mr on mr.id = x.request_id join formulary f on f.id = mr.medicine_id
        join patients p on p.id = mr.patient_id join users pu on pu.id = p.user_id`,
  columns: {
    _id: 'id::int',
    _lastUpdated: 'updated_at::timestamptz',
    patient: 'patient_id::int',
    subject: 'patient_id::int',
    request: 'request_id::int',
    medication: 'medicine_id::int',
    status: 'status::text',
    'effective-time': 'effective_at::timestamptz',
  },
  patientColumn: 'patient_id',
  toRow: (raw) => {
    const r = raw as unknown as AdministrationSql;
    const dose = toDose(r);
    return {
      ...dose,
      status: r.status,
      recordedAt: raw.updated_at as Date,
      updatedAt: raw.updated_at as Date,
      patient: { id: r.patient_id, name: r.patient_name },
      admissionId: r.admission_id,
      medicine: {
        id: r.medicine_id,
        name: medicineLabel({ genericName: r.generic_name, strength: r.strength, form: r.form }),
      },
      route: r.route,
    };
  },
};

export const allergyIntoleranceTable: FhirTable<AllergyIntoleranceRow> = {
  sql: `select x.*, x.recorded_at as updated_at, pu.name as patient_name
        from (${ALLERGY_SELECT}) x join patients p on p.id = x.patient_id join users pu on pu.id = p.user_id`,
  columns: {
    _id: 'id::int',
    _lastUpdated: 'updated_at::timestamptz',
    patient: 'patient_id::int',
    'clinical-status': 'status::text',
    type: 'type::text',
    date: 'recorded_at::timestamptz',
  },
  patientColumn: 'patient_id',
  toRow: (raw) => {
    const r = raw as unknown as AllergyRow & { patient_name: string };
    const { patientId, ...allergy } = toAllergy(r);
    return { ...allergy, updatedAt: raw.updated_at as Date, patient: { id: patientId, name: r.patient_name } };
  },
};
