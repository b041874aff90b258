import type { Measurement } from '../domain/vitals/vital-signs.ts';
import { CODED_VITALS, QUANTITY_VITALS, isAcvpu, vitalOfCode } from '../domain/vitals/vital-signs.ts';
import type { MonitoringFrequency, News2Parameter, News2Risk, SpO2Scale } from '../domain/vitals/news2.ts';
import type { FluidKind } from '../domain/vitals/fluid-balance.ts';
import type { StoredNews2, VitalSet, VitalsStore } from '../domain/vitals/ports.ts';
import type { Queryable } from './db.ts';
import { inCareTeamSql } from './care.pg.ts';
import { onUnique } from './sql-errors.ts';

const ALREADY_CORRECTED = {
  code: 'already_corrected',
  field: 'corrects',
  message: 'This note is already corrected: correct the correction',
};

/** A measurement as an observation row's code and value columns. */
function observationOf(m: Measurement) {
  if (m.vital === 'consciousness' || m.vital === 'on_oxygen') {
    const def = CODED_VITALS[m.vital];
    return {
      system: def.system,
      code: def.code,
      display: def.display,
      type: 'coded',
      quantity: null,
      unit: null,
      valueCode: m.code,
    };
  }
  const def = QUANTITY_VITALS[m.vital];
  return {
    system: 'loinc',
    code: def.code,
    display: def.display,
    type: 'quantity',
    quantity: m.value,
    unit: def.unit,
    valueCode: null,
  };
}

function measurementOf(row: {
  code: string;
  value_quantity: string | null;
  value_unit: string | null;
  value_code: string | null;
}): Measurement | undefined {
  const vital = vitalOfCode(row.code);
  if (vital === undefined) return undefined;
  if (vital === 'consciousness')
    return row.value_code && isAcvpu(row.value_code) ? { vital, code: row.value_code } : undefined;
  if (vital === 'on_oxygen') return { vital, code: row.value_code === 'oxygen' ? 'oxygen' : 'air' };
  return row.value_quantity === null
    ? undefined
    : { vital, value: Number(row.value_quantity), unit: row.value_unit ?? '' };
}

interface SetRow {
  id: number;
  patient_id: number;
  patient_name: string;
  admission_id: number | null;
  appointment_id: number | null;
  effective_at: Date;
  recorded_at: Date;
  recorded_by: number;
  recorder_name: string;
  version: number;
  news2_scale: SpO2Scale;
  news2_total: number | null;
  news2_risk: News2Risk | null;
  news2_frequency: MonitoringFrequency | null;
  news2_parameters: Record<News2Parameter, number> | null;
  next_due_at: Date | null;
  observations: { code: string; value_quantity: string | null; value_unit: string | null; value_code: string | null }[];
}

const SET_SELECT = `select s.id, s.patient_id, pu.name as patient_name, s.admission_id, s.appointment_id, s.effective_at,
    s.recorded_at, s.recorded_by, ru.name as recorder_name, s.version, s.news2_scale, s.news2_total, s.news2_risk,
    s.news2_frequency, s.news2_parameters, s.next_due_at,
    coalesce((select json_agg(json_build_object('code', o.code, 'value_quantity', o.value_quantity::text,
               'value_unit', o.value_unit, 'value_code', o.value_code) order by o.id)
              from observations o where o.vital_set_id = s.id), '[]') as observations
  from vital_sign_sets s join patients p on p.id = s.patient_id join users pu on pu.id = p.user_id
  join users ru on ru.id = s.recorded_by`;

function toSet(r: SetRow): VitalSet {
  const news2: StoredNews2 | null =
    r.news2_total === null ||
    r.news2_risk === null ||
    r.news2_frequency === null ||
    r.news2_parameters === null ||
    r.next_due_at === null
      ? null
      : {
          total: r.news2_total,
          scale: r.news2_scale,
          risk: r.news2_risk,
          frequency: r.news2_frequency,
          parameters: r.news2_parameters,
          nextDueAt: r.next_due_at,
        };
  return {
    id: r.id,
    patient: { id: r.patient_id, name: r.patient_name },
    admissionId: r.admission_id,
    appointmentId: r.appointment_id,
    effectiveAt: r.effective_at,
    recordedAt: r.recorded_at,
    recordedBy: { id: r.recorded_by, name: r.recorder_name },
    version: r.version,
    measurements: r.observations.flatMap((o) => measurementOf(o) ?? []),
    news2,
  };
}

const news2Params = (n: StoredNews2 | null) => [
  n?.total ?? null,
  n?.risk ?? null,
  n?.frequency ?? null,
  n ? JSON.stringify(n.parameters) : null,
  n?.nextDueAt ?? null,
];

export function vitalsStore(db: Queryable): VitalsStore {
  const insertObservation = async (
    setId: number,
    patientId: number,
    m: Measurement,
    at: { effective: Date; recorded: Date; by: number },
  ) => {
    const o = observationOf(m);
    await db.query(
      `with obs as (
         insert into observations (patient_id, category, code_system, code, display, value_type, value_quantity, value_unit,
           value_code, status, effective_at, recorded_at, recorded_by, vital_set_id)
         values ($1, 'vital-signs', $2, $3, $4, $5, $6, $7, $8, 'final', $9, $10, $11, $12) returning id)
       insert into observation_versions (observation_id, version, value_type, value_quantity, value_unit, value_code, status,
         recorded_at, recorded_by)
       select id, 1, $5, $6, $7, $8, 'final', $10, $11 from obs`,
      [
        patientId,
        o.system,
        o.code,
        o.display,
        o.type,
        o.quantity,
        o.unit,
        o.valueCode,
        at.effective,
        at.recorded,
        at.by,
        setId,
      ],
    );
  };
  return {
    sourceOf: async (source) => {
      const [row] =
        source.kind === 'stay'
          ? await db.query<{
              patient_id: number;
              patient_name: string;
              birth_date: string | null;
              doctor_id: number;
              doctor_name: string;
              doctor_user_id: number;
              doctor_email: string | null;
              department_id: number;
              scale: SpO2Scale | null;
              open: boolean;
            }>(
              `select a.patient_id, pu.name as patient_name, p.birthdate as birth_date, d.id as doctor_id, du.name as doctor_name, du.id as doctor_user_id,
                 du.email as doctor_email, r.department_id, sc.scale, a.status in ('admitted', 'discharge_ordered') as open
               from admissions a join patients p on p.id = a.patient_id join users pu on pu.id = p.user_id
               join doctors d on d.id = a.requested_by join users du on du.id = d.user_id
               join beds b on b.id = a.bed_id join rooms r on r.id = b.room_id
               left join stay_spo2_scales sc on sc.admission_id = a.id
               where a.id = $1 and a.status in ('admitted', 'discharge_ordered', 'discharged')`,
              [source.admissionId],
            )
          : await db.query<{
              patient_id: number;
              patient_name: string;
              birth_date: string | null;
              doctor_id: number;
              doctor_name: string;
              doctor_user_id: number;
              doctor_email: string | null;
              department_id: null;
              scale: null;
              open: boolean;
            }>(
              `select ap.patient_id, pu.name as patient_name, p.birthdate as birth_date, d.id as doctor_id, du.name as doctor_name, du.id as doctor_user_id,
                 du.email as doctor_email, null as department_id, null as scale, true as open
               from appointments ap join patients p on p.id = ap.patient_id join users pu on pu.id = p.user_id
               join doctors d on d.id = ap.doctor_id join users du on du.id = d.user_id
               where ap.id = $1 and ap.status <> 'cancelled'`,
              [source.appointmentId],
            );
      if (!row) return undefined;
      return {
        patientId: row.patient_id,
        patientName: row.patient_name,
        patientBirthDate: row.birth_date,
        doctor: { id: row.doctor_id, name: row.doctor_name, userId: row.doctor_user_id, email: row.doctor_email },
        ...(row.department_id === null
          ? {}
          : { stay: { departmentId: row.department_id, scale: row.scale ?? 1, open: row.open } }),
      };
    },
    recordSet: async (set) => {
      const [made] = await db.query<{ id: number }>(
        `insert into vital_sign_sets (patient_id, admission_id, appointment_id, effective_at, recorded_at, recorded_by,
           idempotency_key, news2_scale, news2_total, news2_risk, news2_frequency, news2_parameters, next_due_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         on conflict (recorded_by, idempotency_key) do nothing returning id`,
        [
          set.patientId,
          set.source.kind === 'stay' ? set.source.admissionId : null,
          set.source.kind === 'visit' ? set.source.appointmentId : null,
          set.effectiveAt,
          set.recordedAt,
          set.recordedBy,
          set.idempotencyKey,
          set.news2?.scale ?? 1,
          ...news2Params(set.news2),
        ],
      );
      if (!made) {
        const [earlier] = await db.query<{ id: number }>(
          'select id from vital_sign_sets where recorded_by = $1 and idempotency_key = $2',
          [set.recordedBy, set.idempotencyKey],
        );
        if (!earlier) throw new Error('an idempotent set neither stored nor found');
        return { id: earlier.id, created: false };
      }
      await db.query(
        `insert into vital_sign_set_versions (set_id, version, news2_total, news2_risk, recorded_at, recorded_by)
         values ($1, 1, $2, $3, $4, $5)`,
        [made.id, set.news2?.total ?? null, set.news2?.risk ?? null, set.recordedAt, set.recordedBy],
      );
      for (const m of set.measurements)
        await insertObservation(made.id, set.patientId, m, {
          effective: set.effectiveAt,
          recorded: set.recordedAt,
          by: set.recordedBy,
        });
      return { id: made.id, created: true };
    },
    findSet: async (id) => {
      const [row] = await db.query<SetRow>(`${SET_SELECT} where s.id = $1`, [id]);
      return row && toSet(row);
    },
    lockSet: async (id) => {
      const [row] = await db.query<{ version: number; patient_id: number; admission_id: number | null }>(
        'select version, patient_id, admission_id from vital_sign_sets where id = $1 for update',
        [id],
      );
      return row && { version: row.version, patientId: row.patient_id, admissionId: row.admission_id };
    },
    correctSet: async (c) => {
      const [set] = await db.query<{ patient_id: number; effective_at: Date }>(
        `update vital_sign_sets set version = $2, news2_total = $3, news2_risk = $4, news2_frequency = $5,
           news2_parameters = $6, next_due_at = $7, news2_scale = coalesce($8, news2_scale)
         where id = $1 returning patient_id, effective_at`,
        [c.id, c.version, ...news2Params(c.news2), c.news2?.scale ?? null],
      );
      if (!set) throw new Error(`vital sign set ${c.id} vanished under its lock`);
      await db.query(
        `insert into vital_sign_set_versions (set_id, version, news2_total, news2_risk, recorded_at, recorded_by, reason)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [c.id, c.version, c.news2?.total ?? null, c.news2?.risk ?? null, c.recordedAt, c.recordedBy, c.reason],
      );
      for (const m of c.measurements) {
        const o = observationOf(m);
        const [updated] = await db.query<{ id: number; version: number }>(
          `update observations set value_quantity = $3, value_unit = $4, value_code = $5, status = 'corrected',
             version = version + 1, recorded_at = $6, recorded_by = $7
           where vital_set_id = $1 and code = $2 returning id, version`,
          [c.id, o.code, o.quantity, o.unit, o.valueCode, c.recordedAt, c.recordedBy],
        );
        if (!updated) {
          await insertObservation(c.id, set.patient_id, m, {
            effective: set.effective_at,
            recorded: c.recordedAt,
            by: c.recordedBy,
          });
          continue;
        }
        await db.query(
          `insert into observation_versions (observation_id, version, value_type, value_quantity, value_unit, value_code,
             status, recorded_at, recorded_by, reason)
           values ($1, $2, $3, $4, $5, $6, 'corrected', $7, $8, $9)`,
          [updated.id, updated.version, o.type, o.quantity, o.unit, o.valueCode, c.recordedAt, c.recordedBy, c.reason],
        );
      }
    },
    setsOfStay: async (admissionId) =>
      (
        await db.query<SetRow>(`${SET_SELECT} where s.admission_id = $1 order by s.effective_at, s.id`, [admissionId])
      ).map(toSet),
    setScale: async (admissionId, scale, doctorId, at) => {
      await db.query(
        `insert into stay_spo2_scales (admission_id, scale, set_by, set_at) values ($1, $2, $3, $4)
         on conflict (admission_id) do update set scale = excluded.scale, set_by = excluded.set_by, set_at = excluded.set_at`,
        [admissionId, scale, doctorId, at],
      );
    },
    raiseAlert: async (a) => {
      const rows = await db.query(
        `insert into news2_alerts (set_id, version, admission_id, patient_id, department_id, total, risk, raised_at)
         select $1, $2, a.id, a.patient_id, r.department_id, $4, $5, $6
         from admissions a join beds b on b.id = a.bed_id join rooms r on r.id = b.room_id where a.id = $3
         on conflict (set_id, version) do nothing returning id`,
        [a.setId, a.version, a.admissionId, a.total, a.risk, a.raisedAt],
      );
      return rows.length > 0;
    },
    alertsFor: async (doctorId) => {
      const rows = await db.query<{
        id: number;
        set_id: number;
        admission_id: number;
        patient_id: number;
        patient_name: string;
        bed_id: number;
        bed_label: string;
        room_name: string;
        ward_name: string;
        total: number;
        risk: 'medium' | 'high';
        raised_at: Date;
      }>(
        `select al.id, al.set_id, al.admission_id, a.patient_id, pu.name as patient_name, b.id as bed_id, b.label as bed_label,
           r.name as room_name, dep.name as ward_name, al.total, al.risk, al.raised_at
         from admissions a
         join lateral (select s.id, s.version, s.news2_risk from vital_sign_sets s where s.admission_id = a.id and s.news2_total is not null
                       order by s.effective_at desc, s.id desc limit 1) latest on latest.news2_risk in ('medium', 'high')
         join news2_alerts al on al.set_id = latest.id and al.version = latest.version
         join patients p on p.id = a.patient_id join users pu on pu.id = p.user_id
         join beds b on b.id = a.bed_id join rooms r on r.id = b.room_id join departments dep on dep.id = r.department_id
         where a.status in ('admitted', 'discharge_ordered') and ${inCareTeamSql('$1::int', 'a.patient_id')}
         order by al.total desc, al.raised_at`,
        [doctorId],
      );
      return rows.map((r) => ({
        id: r.id,
        setId: r.set_id,
        admissionId: r.admission_id,
        patient: { id: r.patient_id, name: r.patient_name },
        bed: { id: r.bed_id, label: r.bed_label, room: r.room_name, ward: r.ward_name },
        total: r.total,
        risk: r.risk,
        raisedAt: r.raised_at,
      }));
    },
    addFluid: async (e) => {
      const [made] = await db.query<{ id: number }>(
        `insert into fluid_events (admission_id, patient_id, kind, route, volume_ml, effective_at, recorded_at, recorded_by, idempotency_key)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (recorded_by, idempotency_key) do nothing returning id`,
        [
          e.admissionId,
          e.patientId,
          e.kind,
          e.route,
          e.volumeMl,
          e.effectiveAt,
          e.recordedAt,
          e.recordedBy,
          e.idempotencyKey,
        ],
      );
      if (made) return made.id;
      const [earlier] = await db.query<{ id: number }>(
        'select id from fluid_events where recorded_by = $1 and idempotency_key = $2',
        [e.recordedBy, e.idempotencyKey],
      );
      if (!earlier) throw new Error('an idempotent fluid event neither stored nor found');
      return earlier.id;
    },
    fluidsOfStay: async (admissionId) =>
      (
        await db.query<{
          id: number;
          kind: FluidKind;
          route: string;
          volume_ml: number;
          effective_at: Date;
          recorded_by: number;
          name: string;
        }>(
          `select f.id, f.kind, f.route, f.volume_ml, f.effective_at, f.recorded_by, u.name
           from fluid_events f join users u on u.id = f.recorded_by where f.admission_id = $1 order by f.effective_at, f.id`,
          [admissionId],
        )
      ).map((r) => ({
        id: r.id,
        kind: r.kind,
        route: r.route,
        volumeMl: r.volume_ml,
        effectiveAt: r.effective_at,
        recordedBy: { id: r.recorded_by, name: r.name },
      })),
    addNote: async (n) => {
      const [made] = await onUnique(
        () =>
          db.query<{ id: number }>(
            `insert into nursing_notes (admission_id, patient_id, body, written_at, written_by, corrects)
             values ($1, $2, $3, $4, $5, $6) returning id`,
            [n.admissionId, n.patientId, n.body, n.writtenAt, n.writtenBy, n.corrects],
          ),
        { nursing_notes_corrects_key: ALREADY_CORRECTED },
      );
      if (!made) throw new Error('a nursing note not stored');
      return made.id;
    },
    notesOfStay: async (admissionId) =>
      (
        await db.query<{
          id: number;
          body: string;
          written_at: Date;
          written_by: number;
          name: string;
          role: string;
          corrects: number | null;
        }>(
          `select n.id, n.body, n.written_at, n.written_by, u.name, u.role, n.corrects
           from nursing_notes n join users u on u.id = n.written_by where n.admission_id = $1 order by n.written_at, n.id`,
          [admissionId],
        )
      ).map((r) => ({
        id: r.id,
        body: r.body,
        writtenAt: r.written_at,
        writtenBy: { id: r.written_by, name: r.name, role: r.role },
        corrects: r.corrects,
      })),
  };
}
