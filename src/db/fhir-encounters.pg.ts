import type { EncounterRow } from '../domain/fhir/encounter.ts';
import type { BedStay, StayRow } from '../domain/fhir/stay-encounter.ts';
import { versioned, type FhirTable, type VersionedSql } from './fhir-search.pg.ts';
import { VISITS, VISIT_COLUMNS, visitRow, type VisitSql } from './fhir-visits.pg.ts';

/** The stay branch's columns under the visits' names (start_at is when the patient was admitted, end_at discharged). */
interface StaySql extends VersionedSql {
  patient_id: number;
  patient_name: string;
  doctor_id: number;
  doctor_name: string;
  start_at: Date;
  end_at: Date | null;
  status: StayRow['status'];
  ward_id: number;
  ward_name: string;
  reason: string;
  bed_stays: { bed_id: number; label: string; started_at: string; ended_at: string | null }[] | null;
}

// Visits that took place and stays that put the patient in a bed, one select: `fhir_id` is the Encounter's id
// (a visit's number, `stay-<admission>`), indexed by migration 0025 for reading and paging by it.
const ENCOUNTERS = `
  select 'visit' as kind, v.id::text as fhir_id, v.id, v.updated_at, v.version, v.patient_id, v.patient_name, v.doctor_id, v.doctor_name,
         v.room_id, v.room_name, v.schedule_id, v.date, v.start_at, v.end_at, v.status, v.created_at, v.record_id, v.service_type,
         'AMB' as class, v.id as appointment_id, null::int as ward_id, null::text as ward_name, null::text as reason, null::json as bed_stays
  from (${VISITS} where a.status in ('checked_in', 'completed')) v
  union all
  select 'stay', 'stay-' || ad.id::text, ad.id, ad.updated_at, ad.row_version, ad.patient_id, pu.name, ad.requested_by, du.name,
         null, null, null, null, ad.admitted_at, ad.discharged_at, ad.status, null, null, null,
         'IMP', null, w.id, w.name, ad.reason,
         (select json_agg(json_build_object('bed_id', s.bed_id, 'label', b.label, 'started_at', s.started_at, 'ended_at', s.ended_at) order by s.started_at, s.id)
          from bed_stays s join beds b on b.id = s.bed_id where s.admission_id = ad.id)
  from admissions ad join patients p on p.id = ad.patient_id join users pu on pu.id = p.user_id
  join doctors d on d.id = ad.requested_by join users du on du.id = d.user_id join departments w on w.id = ad.department_id
  where ad.status in ('admitted', 'discharge_ordered', 'discharged')`;

const bedStay = (s: NonNullable<StaySql['bed_stays']>[number]): BedStay => ({
  bedId: s.bed_id,
  label: s.label,
  startedAt: new Date(s.started_at),
  endedAt: s.ended_at === null ? null : new Date(s.ended_at),
});

function stayRow(r: StaySql): StayRow {
  return {
    kind: 'stay',
    ...versioned(r),
    patient: { id: r.patient_id, name: r.patient_name },
    doctor: { id: r.doctor_id, name: r.doctor_name },
    ward: { id: r.ward_id, name: r.ward_name },
    reason: r.reason,
    status: r.status,
    admittedAt: r.start_at,
    dischargedAt: r.end_at,
    beds: (r.bed_stays ?? []).map(bedStay),
  };
}

export const encounterTable: FhirTable<EncounterRow> = {
  sql: ENCOUNTERS,
  columns: {
    ...VISIT_COLUMNS,
    _id: 'fhir_id::text',
    subject: 'patient_id::int',
    practitioner: 'doctor_id::int',
    appointment: 'appointment_id::int',
    class: 'class::text',
  },
  patientColumn: 'patient_id',
  toRow: (raw) => {
    if (raw.kind === 'stay') return stayRow(raw as unknown as StaySql);
    const r = raw as unknown as VisitSql;
    return {
      ...visitRow(r),
      kind: 'visit',
      status: r.status === 'completed' ? 'completed' : 'checked_in',
      record: r.record_id === null ? null : { id: r.record_id, serviceType: r.service_type ?? '' },
    };
  },
};
