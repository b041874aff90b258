import type { DepartmentRow } from '../domain/fhir/healthcare-service.ts';
import type { LocationRow } from '../domain/fhir/location.ts';
import type { AdmissionStatus, Housekeeping } from '../domain/inpatient/inpatient.ts';
import type { SlotRow, SlotStatus } from '../domain/fhir/slot.ts';
import { versioned, type FhirTable, type VersionedSql } from './fhir-search.pg.ts';

interface DepartmentSql extends VersionedSql {
  name: string;
  description: string;
}

export const healthcareServiceTable: FhirTable<DepartmentRow> = {
  sql: `select id, updated_at, row_version as version, name, description from departments`,
  columns: { _id: 'id::int', _lastUpdated: 'updated_at::timestamptz', name: 'name::text' },
  toRow: (raw) => {
    const r = raw as unknown as DepartmentSql;
    return { ...versioned(r), name: r.name, description: r.description };
  },
};

interface RoomSql extends VersionedSql {
  name: string;
  department_id: number;
  department_name: string;
}

interface BedSql {
  id: number;
  updated_at: Date;
  name: string;
  department_id: number;
  department_name: string;
  label: string;
  room_id: number;
  room_name: string;
  housekeeping: Housekeeping;
  retired: boolean;
  holder: AdmissionStatus | null;
}

// Rooms and their beds, one select: `fhir_id` is the Location's id (a room's number, `bed-<id>`).
const LOCATIONS = `
  select 'room' as kind, r.id::text as fhir_id, r.id, r.updated_at, r.row_version as version, r.name, d.id as department_id, d.name as department_name,
         null::text as label, null::int as room_id, null::text as room_name, null::text as housekeeping, false as retired, null::text as holder
  from rooms r join departments d on d.id = r.department_id
  union all
  select 'bed', 'bed-' || b.id::text, b.id, greatest(b.updated_at, h.updated_at), null, r.name || ' ' || b.label, d.id, d.name,
         b.label, r.id, r.name, b.housekeeping, b.retired_at is not null, h.status
  from beds b join rooms r on r.id = b.room_id join departments d on d.id = r.department_id
  left join admissions h on h.bed_id = b.id and h.status in ('reserved', 'admitted', 'discharge_ordered')`;

export const locationTable: FhirTable<LocationRow> = {
  sql: LOCATIONS,
  columns: {
    _id: 'fhir_id::text',
    _lastUpdated: 'updated_at::timestamptz',
    name: 'name::text',
    partof: 'room_id::int',
  },
  // A patient's $everything brings the beds their stays were in.
  subqueries: {
    patient: `r.fhir_id in (select 'bed-' || s.bed_id::text from admissions a join bed_stays s on s.admission_id = a.id where a.patient_id = any({values}::int[]))`,
  },
  toRow: (raw) => {
    if (raw.kind === 'bed') {
      const b = raw as unknown as BedSql;
      return {
        kind: 'bed',
        id: b.id,
        updatedAt: b.updated_at,
        label: b.label,
        room: { id: b.room_id, name: b.room_name },
        ward: { id: b.department_id, name: b.department_name },
        housekeeping: b.housekeeping,
        retired: b.retired,
        holder: b.holder,
      };
    }
    const r = raw as unknown as RoomSql;
    return {
      kind: 'room',
      ...versioned(r),
      name: r.name,
      department: { id: r.department_id, name: r.department_name },
    };
  },
};

interface SlotSql {
  id: string;
  doctor_id: number;
  start_at: Date;
  end_at: Date;
  status: SlotStatus;
  updated_at: Date;
}

// Slots are the weekly pattern laid over the dates asked for, and every slot an appointment of those dates took,
// whatever became of it: one of a pattern row since retired, or of a row of another weekday (the desk fitting a
// visit in on a Saturday), is made for that appointment alone, so that every Appointment's slot can be read. A slot
// is busy while a booking that is not cancelled holds its doctor, date and start (appointments_slot_key).
// Read by id, only the pattern rows named are laid over the days: over all of them, 7 Slots took 2.4 s at 100 %.
export const slotTable: FhirTable<SlotRow> = {
  sql: `select k.schedule_id || '-' || k.day::text as id, s.doctor_id,
               ((k.day + s.start_time) at time zone {tz}) as start_at,
               ((k.day + s.end_time) at time zone {tz}) as end_at,
               case when a.id is not null then 'busy'
                    when s.retired_at is not null or extract(isodow from k.day) <> s.weekday then 'busy-unavailable'
                    else 'free' end as status,
               greatest(s.updated_at, a.updated_at) as updated_at
        from (
          select s.id as schedule_id, g.day::date as day
          from schedules s
          join generate_series({from}::timestamp, {to}::timestamp, interval '1 day') g(day) on extract(isodow from g.day) = s.weekday
          where s.retired_at is null and ({scheduleIds} is null or s.id = any({scheduleIds}))
          union
          select schedule_id, date from appointments
          where date between {from} and {to} and ({scheduleIds} is null or schedule_id = any({scheduleIds}))
        ) k
        join schedules s on s.id = k.schedule_id
        left join appointments a on a.doctor_id = s.doctor_id and a.date = k.day and a.start_time = s.start_time and a.status <> 'cancelled'`,
  columns: { _id: 'id::text', schedule: 'doctor_id::int', start: 'start_at::timestamptz', status: 'status::text' },
  toRow: (raw) => {
    const r = raw as unknown as SlotSql;
    return {
      id: r.id,
      doctorId: r.doctor_id,
      start: r.start_at,
      end: r.end_at,
      status: r.status,
      updatedAt: r.updated_at,
    };
  },
};
