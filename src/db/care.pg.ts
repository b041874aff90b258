import type { Reach } from '../domain/care/care.ts';
import { OPENING_ROLES, type OpeningRole, RECORD_OPENINGS, type RecordOpeningAction } from '../domain/care/care.ts';
import type {
  BreakGlassAccess,
  BreakGlassStore,
  CareTeam,
  RecordOpening,
  RecordOpenings,
} from '../domain/care/ports.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';

/**
 * Whether doctor `doctor` is in patient `patient`'s care team (domain/care/care.ts, CARE_TEAM_TIES), as SQL over
 * three expressions: a visit not cancelled; an admission they requested, not cancelled (the admitting doctor); a stay
 * whose discharge they ordered (the attending doctor); the department of the ward the patient's bed is in while they
 * are in it. The one definition: the care-team port, the FHIR search's doctor scope and the doctor's patient list
 * all use it.
 */
export function inCareTeamSql(doctor: string, patient: string): string {
  return `(exists (select 1 from appointments ct_a where ct_a.patient_id = ${patient} and ct_a.doctor_id = ${doctor} and ct_a.status <> 'cancelled')
    or exists (select 1 from admissions ct_s left join discharge_summaries ct_d on ct_d.admission_id = ct_s.id
               where ct_s.patient_id = ${patient} and ct_s.status <> 'cancelled' and (ct_s.requested_by = ${doctor} or ct_d.doctor_id = ${doctor}))
    or exists (select 1 from admissions ct_w join beds ct_b on ct_b.id = ct_w.bed_id join rooms ct_r on ct_r.id = ct_b.room_id
               join doctors ct_doc on ct_doc.department_id = ct_r.department_id
               where ct_w.patient_id = ${patient} and ct_w.status in ('admitted', 'discharge_ordered') and ct_doc.id = ${doctor}))`;
}

/** Whether patient `patient` occupies a bed in a room of department `department` (a nurse's ward: `NURSE_REACH`). */
export function onWardSql(department: string, patient: string): string {
  return `exists (select 1 from admissions nw_a join beds nw_b on nw_b.id = nw_a.bed_id join rooms nw_r on nw_r.id = nw_b.room_id
    where nw_a.patient_id = ${patient} and nw_a.status in ('admitted', 'discharge_ordered') and nw_r.department_id = ${department})`;
}

/** The reason of the break-the-glass access `doctor` holds to `patient`, open at `at` (the latest opened), or null. */
function breakGlassReasonSql(doctor: string, patient: string, at: string): string {
  return `(select g.reason from break_glass_accesses g
           where g.doctor_id = ${doctor} and g.patient_id = ${patient} and g.expires_at > ${at} and g.opened_at <= ${at}
           order by g.opened_at desc, g.id desc limit 1)`;
}

/** In the care team, or holding a break-the-glass access open at `at`: what lets a doctor read a patient's record. */
export function reachesSql(doctor: string, patient: string, at: string): string {
  return `(${inCareTeamSql(doctor, patient)} or ${breakGlassReasonSql(doctor, patient, at)} is not null)`;
}

export function careTeam(db: Queryable): CareTeam {
  return {
    reach: async (doctorId, patientIds, at) => {
      const rows = await db.query<{ patient_id: number; in_team: boolean; reason: string | null }>(
        `select p.id as patient_id, ${inCareTeamSql('$1::int', 'p.id')} as in_team, ${breakGlassReasonSql('$1::int', 'p.id', '$3::timestamptz')} as reason
         from unnest($2::int[]) as p(id)`,
        [doctorId, [...patientIds], at],
      );
      const reach = new Map<number, Reach>();
      for (const row of rows) {
        if (row.in_team) reach.set(row.patient_id, { via: 'care_team' });
        else if (row.reason !== null) reach.set(row.patient_id, { via: 'break_glass', reason: row.reason });
      }
      return reach;
    },
    onWard: async (departmentId, patientIds) => {
      const rows = await db.query<{ id: number }>(
        `select p.id from unnest($2::int[]) as p(id) where ${onWardSql('$1::int', 'p.id')}`,
        [departmentId, [...patientIds]],
      );
      return new Set(rows.map((row) => row.id));
    },
  };
}

interface BreakGlassRow {
  id: number;
  doctor_id: number;
  doctor_name: string;
  patient_id: number;
  patient_name: string;
  reason: string;
  opened_at: Date;
  expires_at: Date;
}

const toBreakGlass = (r: BreakGlassRow): BreakGlassAccess => ({
  id: r.id,
  doctor: { id: r.doctor_id, name: r.doctor_name },
  patient: { id: r.patient_id, name: r.patient_name },
  reason: r.reason,
  openedAt: r.opened_at,
  expiresAt: r.expires_at,
});

const BREAK_GLASS_COLUMNS = `g.id, g.doctor_id, du.name as doctor_name, g.patient_id, pu.name as patient_name, g.reason, g.opened_at, g.expires_at`;
const BREAK_GLASS_FROM = `break_glass_accesses g join doctors d on d.id = g.doctor_id join users du on du.id = d.user_id
  join patients p on p.id = g.patient_id join users pu on pu.id = p.user_id`;

export function breakGlassStore(db: Queryable): BreakGlassStore {
  return {
    open: async ({ doctorId, patientId, reason, openedAt, expiresAt }) => {
      const [row] = await db.query<BreakGlassRow>(
        `with g as (insert into break_glass_accesses (doctor_id, patient_id, reason, opened_at, expires_at)
                    select $1, p.id, $3, $4, $5 from patients p where p.id = $2
                    returning id, doctor_id, patient_id, reason, opened_at, expires_at)
         select g.id, g.doctor_id, du.name as doctor_name, g.patient_id, pu.name as patient_name, g.reason, g.opened_at, g.expires_at
         from g join doctors d on d.id = g.doctor_id join users du on du.id = d.user_id join patients p on p.id = g.patient_id join users pu on pu.id = p.user_id`,
        [doctorId, patientId, reason, openedAt, expiresAt],
      );
      return row ? toBreakGlass(row) : undefined;
    },
    list: async (page) =>
      pageWithTotal(
        db,
        page,
        {
          columns: BREAK_GLASS_COLUMNS,
          rowsOf: `from ${BREAK_GLASS_FROM} where ($1 = '%%' or lower(du.name) like $1 or lower(pu.name) like $1)`,
          orderBy: 'g.opened_at desc, g.id desc',
          params: [containsPattern(page.q)],
        },
        toBreakGlass,
      ),
  };
}

interface OpeningRow {
  id: number;
  at: Date;
  actor_name: string | null;
  actor_role: OpeningRole;
  action: RecordOpeningAction;
  entity: string;
  entity_id: string | null;
  reason: string | null;
}

export function recordOpenings(db: Queryable): RecordOpenings {
  return {
    list: async (patientId, page) =>
      pageWithTotal(
        db,
        page,
        {
          columns: `a.id, a.at, u.name as actor_name, a.actor_role, a.action, a.entity, a.entity_id, a.details ->> 'break_glass_reason' as reason`,
          rowsOf: `from audit_log a left join users u on u.id = a.actor_user_id
                   where a.patient_id = $1 and a.actor_role = any($2::text[]) and a.action = any($3::text[])`,
          countOf: `from audit_log a where a.patient_id = $1 and a.actor_role = any($2::text[]) and a.action = any($3::text[])`,
          orderBy: 'a.at desc, a.id desc',
          params: [patientId, [...OPENING_ROLES], [...RECORD_OPENINGS]],
        },
        (r: OpeningRow): RecordOpening => ({
          id: Number(r.id),
          at: r.at,
          by: { name: r.actor_name, role: r.actor_role },
          action: r.action,
          entity: r.entity,
          entityId: r.entity_id,
          reason: r.reason,
        }),
      ),
  };
}
