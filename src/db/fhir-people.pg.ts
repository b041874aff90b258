import type { PatientRow } from '../domain/fhir/patient.ts';
import type { PractitionerRoleRow } from '../domain/fhir/practitioner-role.ts';
import type { PractitionerRow } from '../domain/fhir/practitioner.ts';
import type { ScheduleRow } from '../domain/fhir/schedule.ts';
import type { Gender } from '../domain/shared/actor.ts';
import { versioned, type FhirTable, type VersionedSql } from './fhir-search.pg.ts';
import { namedOrNull } from './rows.ts';

// A person is two rows, the account and the patient's or doctor's: a change to either is a new version, and both
// counters only grow, so their sum does too.
const PERSON_VERSION = (row: string) =>
  `greatest(${row}.updated_at, u.updated_at) as updated_at, ${row}.row_version + u.row_version - 1 as version`;

interface PatientSql extends VersionedSql {
  name: string;
  email: string | null;
  phone: string;
  birthdate: string | null;
  gender: Gender | null;
  active: boolean;
}

export const patientTable: FhirTable<PatientRow> = {
  sql: `select p.id, ${PERSON_VERSION('p')}, u.name, u.email, p.phone, p.birthdate, p.gender, u.active,
               p.id as patient_id, (p.birthdate::timestamp at time zone {tz}) as birthdate_at
        from patients p join users u on u.id = p.user_id`,
  columns: {
    _id: 'id::int',
    _lastUpdated: 'updated_at::timestamptz',
    identifier: 'id::int',
    name: 'name::text',
    gender: 'gender::text',
    birthdate: 'birthdate_at::timestamptz',
  },
  patientColumn: 'patient_id',
  toRow: (raw) => {
    const r = raw as unknown as PatientSql;
    return {
      ...versioned(r),
      name: r.name,
      email: r.email,
      phone: r.phone,
      birthdate: r.birthdate,
      gender: r.gender,
      active: r.active,
    };
  },
};

interface DoctorSql extends VersionedSql {
  name: string;
  email: string | null;
  phone: string;
  gender: Gender | null;
  birthdate: string | null;
  address: string;
  active: boolean;
  specialization_id: number | null;
  specialization_name: string | null;
  department_id: number | null;
  department_name: string | null;
}

const DOCTORS = `select d.id, ${PERSON_VERSION('d')}, u.name, u.email, d.phone, d.gender, d.birthdate, d.address, d.active and u.active as active,
                        s.id as specialization_id, s.name as specialization_name, dep.id as department_id, dep.name as department_name
                 from doctors d join users u on u.id = d.user_id
                 left join specializations s on s.id = d.specialization_id left join departments dep on dep.id = d.department_id`;
const doctor = (raw: object) => raw as DoctorSql;

export const practitionerTable: FhirTable<PractitionerRow> = {
  sql: DOCTORS,
  columns: { _id: 'id::int', _lastUpdated: 'updated_at::timestamptz', identifier: 'id::int', name: 'name::text' },
  toRow: (raw) => {
    const r = doctor(raw);
    return {
      ...versioned(r),
      name: r.name,
      email: r.email,
      phone: r.phone,
      gender: r.gender,
      birthdate: r.birthdate,
      address: r.address,
      active: r.active,
    };
  },
};

export const practitionerRoleTable: FhirTable<PractitionerRoleRow> = {
  sql: DOCTORS,
  columns: {
    _id: 'id::int',
    _lastUpdated: 'updated_at::timestamptz',
    practitioner: 'id::int',
    specialty: 'specialization_id::int',
  },
  toRow: (raw) => {
    const r = doctor(raw);
    return {
      ...versioned(r),
      name: r.name,
      active: r.active,
      specialization: namedOrNull(r.specialization_id, r.specialization_name),
      department: namedOrNull(r.department_id, r.department_name),
    };
  },
};

export const scheduleTable: FhirTable<ScheduleRow> = {
  sql: DOCTORS,
  columns: { _id: 'id::int', _lastUpdated: 'updated_at::timestamptz', actor: 'id::int', active: 'active::boolean' },
  toRow: (raw) => {
    const r = doctor(raw);
    return { ...versioned(r), name: r.name, active: r.active };
  },
};
