import { LATE_AFTER_MINUTES } from '../domain/medicines/mar.ts';
import type { Gender } from '../domain/shared/actor.ts';
import { continuedOnDischarge, lateDosesByAdmission } from './medicines.pg.ts';
import type { Segment, WardBed } from '../domain/inpatient/census.ts';
import type { RatedSegment } from '../domain/inpatient/charges.ts';
import type {
  Admission,
  AdmissionDetail,
  AdmissionStatus,
  Bed,
  DischargeSummary,
  Housekeeping,
  Location,
  StayCharge,
} from '../domain/inpatient/inpatient.ts';
import type {
  AdmissionStore,
  BedNews2,
  BedStore,
  BoardRoom,
  CensusQueries,
  ChargeStore,
} from '../domain/inpatient/ports.ts';
import { conflict, invalid } from '../domain/shared/errors.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { onlyRow } from './rows.ts';
import { UNIQUE_VIOLATION, constraintName, isForeignKeyViolation, sqlState } from './sql-errors.ts';

const HOLDING = `('reserved', 'admitted', 'discharge_ordered')`;

/** The database's word on a race: its indexes decide who holds a bed and whose stay is open. */
async function translated<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const constraint = constraintName(error) ?? '';
    if (sqlState(error) === UNIQUE_VIOLATION) {
      if (constraint === 'admissions_open_patient_key')
        throw conflict('already_admitted', 'This patient already has an open admission', {
          patient_id: ['already has an open admission'],
        });
      if (constraint === 'admissions_held_bed_key' || constraint === 'bed_stays_current_bed_key')
        throw conflict('bed_taken', 'This bed is taken', { bed_id: ['is taken'] });
      if (constraint === 'beds_room_label_key')
        throw conflict('label_taken', 'A bed with this label is already in this room', {
          label: ['is already in this room'],
        });
    }
    if (isForeignKeyViolation(error)) {
      const field = {
        admissions_patient_id_fkey: 'patient_id',
        admissions_department_id_fkey: 'department_id',
        admissions_appointment_id_fkey: 'appointment_id',
      }[constraint];
      if (field) throw invalid({ [field]: ['does not exist'] });
    }
    throw error;
  }
}

const BED_COLUMNS = `b.id, b.label, b.room_id, r.name as room_name, r.department_id as ward_id, d.name as ward_name,
  b.housekeeping, b.blocked_reason, b.housekeeping_since, b.retired_at,
  a.id as holder_id, a.status as holder_status, a.patient_id as holder_patient_id, pu.name as holder_patient_name,
  extract(year from age(current_date, p.birthdate))::int as holder_age, p.gender as holder_sex,
  a.requested_by as holder_doctor_id, du.name as holder_doctor_name, a.expected_nights as holder_expected_nights,
  coalesce(s.started_at, a.reserved_at) as holder_since,
  (select count(*)::int from lab_critical_alerts ca where ca.patient_id = a.patient_id
      and not exists (select 1 from lab_critical_acknowledgements k where k.alert_id = ca.id)) as holder_critical`;
const BED_FROM = `beds b join rooms r on r.id = b.room_id join departments d on d.id = r.department_id
  left join admissions a on a.bed_id = b.id and a.status in ${HOLDING}
  left join patients p on p.id = a.patient_id left join users pu on pu.id = p.user_id
  left join doctors hd on hd.id = a.requested_by left join users du on du.id = hd.user_id
  left join bed_stays s on s.admission_id = a.id and s.ended_at is null`;

/** A row of BED_COLUMNS. */
interface BedRow {
  id: number;
  label: string;
  room_id: number;
  room_name: string;
  ward_id: number;
  ward_name: string;
  housekeeping: Housekeeping;
  blocked_reason: string | null;
  housekeeping_since: Date;
  retired_at: Date | null;
  holder_id: number | null;
  holder_status: AdmissionStatus | null;
  holder_patient_id: number | null;
  holder_patient_name: string | null;
  holder_age: number | null;
  holder_sex: Gender | null;
  holder_doctor_id: number | null;
  holder_doctor_name: string | null;
  holder_expected_nights: number | null;
  holder_since: Date | null;
  holder_critical: number;
}

function toBed(row: BedRow): Bed {
  const holder =
    row.holder_id !== null && row.holder_status !== null && row.holder_patient_id !== null
      ? {
          admissionId: row.holder_id,
          status: row.holder_status,
          patient: { id: row.holder_patient_id, name: row.holder_patient_name ?? '' },
          age: row.holder_age,
          sex: row.holder_sex,
          doctor: { id: row.holder_doctor_id ?? 0, name: row.holder_doctor_name ?? '' },
          expectedNights: row.holder_expected_nights ?? 1,
          since: row.holder_since ?? row.housekeeping_since,
          criticalResults: row.holder_critical,
        }
      : null;
  return {
    id: row.id,
    label: row.label,
    room: { id: row.room_id, name: row.room_name },
    ward: { id: row.ward_id, name: row.ward_name },
    housekeeping: row.housekeeping,
    blockedReason: row.blocked_reason,
    housekeepingSince: row.housekeeping_since,
    retiredAt: row.retired_at,
    holder,
  };
}

export function bedStore(db: Queryable): BedStore {
  const find = async (id: number) => {
    const [row] = await db.query<BedRow>(`select ${BED_COLUMNS} from ${BED_FROM} where b.id = $1`, [id]);
    return row && toBed(row);
  };
  return {
    create: async (roomId, label, at) => {
      const [row] = await translated(() =>
        db.query<{ id: number }>(
          `insert into beds (room_id, label, housekeeping_since, created_at) select id, $2, $3, $3 from rooms where id = $1 returning id`,
          [roomId, label, at],
        ),
      );
      return row && find(row.id);
    },
    rename: async (id, label) => {
      const [row] = await translated(() =>
        db.query<{ id: number }>(`update beds set label = $2 where id = $1 and retired_at is null returning id`, [
          id,
          label,
        ]),
      );
      return row && find(row.id);
    },
    find,
    // Locked first, read after: under READ COMMITTED the read then sees whatever the lock's last holder committed.
    // One `select … for update of b` would not: after waiting it returns the bed's newest row but the joined holder
    // as it was before the wait (inpatient.pg.int.test.ts).
    lock: async (id) => {
      const [locked] = await db.query<{ id: number }>(`select id from beds where id = $1 for update`, [id]);
      return locked && find(locked.id);
    },
    retire: async (id, at) => {
      await db.query(`update beds set retired_at = $2 where id = $1`, [id, at]);
    },
    setHousekeeping: async (id, state, reason, at) => {
      await db.query(`update beds set housekeeping = $2, blocked_reason = $3, housekeeping_since = $4 where id = $1`, [
        id,
        state,
        reason,
        at,
      ]);
    },
    setRoomClass: async (roomId, bedClass, rate, at) => {
      const [row] = await db.query<{ room_id: number; bed_class: string; nightly_rate_cents: number }>(
        `insert into room_bed_classes (room_id, bed_class, nightly_rate_cents, updated_at) select id, $2, $3, $4 from rooms where id = $1
         on conflict (room_id) do update set bed_class = excluded.bed_class, nightly_rate_cents = excluded.nightly_rate_cents, updated_at = excluded.updated_at
         returning room_id, bed_class, nightly_rate_cents`,
        [roomId, bedClass, rate, at],
      );
      return row && { roomId: row.room_id, bedClass: row.bed_class, nightlyRateCents: row.nightly_rate_cents };
    },
    rateOf: async (bedId) => {
      const row = onlyRow(
        await db.query<{ rate: number }>(
          `select coalesce(c.nightly_rate_cents, 0) as rate from beds b left join room_bed_classes c on c.room_id = b.room_id where b.id = $1`,
          [bedId],
        ),
        'The bed',
      );
      return row.rate;
    },
    board: async (departmentId) => {
      const rooms = await db.query<{
        id: number;
        name: string;
        ward_id: number;
        ward_name: string;
        bed_class: string | null;
        nightly_rate_cents: number | null;
      }>(
        `select r.id, r.name, r.department_id as ward_id, d.name as ward_name, c.bed_class, c.nightly_rate_cents
           from rooms r join departments d on d.id = r.department_id left join room_bed_classes c on c.room_id = r.id
          where (c.room_id is not null or exists (select 1 from beds b where b.room_id = r.id and b.retired_at is null))
            and ($1::int is null or r.department_id = $1)
          order by lower(d.name), d.id, lower(r.name), r.id`,
        [departmentId ?? null],
      );
      const beds = await db.query<BedRow>(
        `select ${BED_COLUMNS} from ${BED_FROM} where b.retired_at is null and b.room_id = any($1::int[]) order by lower(b.label), b.id`,
        [rooms.map((room) => room.id)],
      );
      const scores = await db.query<{
        admission_id: number;
        total: number;
        risk: BedNews2['risk'];
        taken_at: Date;
        next_due_at: Date;
        alert: boolean;
      }>(
        `select h.id as admission_id, vs.news2_total as total, vs.news2_risk as risk, vs.effective_at as taken_at,
           vs.next_due_at, exists (select 1 from news2_alerts al where al.set_id = vs.id and al.version = vs.version) as alert
         from unnest($1::int[]) as h(id)
         join lateral (select s.id, s.version, s.news2_total, s.news2_risk, s.effective_at, s.next_due_at from vital_sign_sets s
                       where s.admission_id = h.id and s.news2_total is not null
                       order by s.effective_at desc, s.id desc limit 1) vs on true`,
        [beds.flatMap((bed) => (bed.holder_id === null ? [] : [bed.holder_id]))],
      );
      const news2Of = new Map(
        scores.map((s) => [
          s.admission_id,
          { total: s.total, risk: s.risk, takenAt: s.taken_at, nextDueAt: s.next_due_at, alert: s.alert },
        ]),
      );
      return rooms.map(
        (room): BoardRoom => ({
          id: room.id,
          name: room.name,
          ward: { id: room.ward_id, name: room.ward_name },
          bedClass: room.bed_class,
          nightlyRateCents: room.nightly_rate_cents,
          beds: beds
            .filter((bed) => bed.room_id === room.id)
            .map((bed) => ({ ...toBed(bed), news2: (bed.holder_id !== null && news2Of.get(bed.holder_id)) || null })),
        }),
      );
    },
    lateDoses: (admissionIds, at) => lateDosesByAdmission(db, admissionIds, at, LATE_AFTER_MINUTES),
  };
}

const ADMISSION_COLUMNS = `a.id, a.patient_id, pu.name as patient_name, p.birthdate as patient_birth_date, a.department_id, d.name as ward_name, a.requested_by,
  du.name as doctor_name, a.appointment_id, a.expected_nights, a.reason, a.status, a.bed_id, b.label as bed_label,
  b.room_id, r.name as room_name, a.requested_at, a.reserved_at, a.admitted_at, a.discharge_ordered_at, a.discharged_at, a.cancelled_at`;
const ADMISSION_FROM = `admissions a join patients p on p.id = a.patient_id join users pu on pu.id = p.user_id
  join departments d on d.id = a.department_id
  join doctors doc on doc.id = a.requested_by join users du on du.id = doc.user_id
  left join beds b on b.id = a.bed_id left join rooms r on r.id = b.room_id`;

/** A row of ADMISSION_COLUMNS. */
interface AdmissionRow {
  id: number;
  patient_id: number;
  patient_name: string;
  patient_birth_date: string | null;
  department_id: number;
  ward_name: string;
  requested_by: number;
  doctor_name: string;
  appointment_id: number | null;
  expected_nights: number;
  reason: string;
  status: AdmissionStatus;
  bed_id: number | null;
  bed_label: string | null;
  room_id: number | null;
  room_name: string | null;
  requested_at: Date;
  reserved_at: Date | null;
  admitted_at: Date | null;
  discharge_ordered_at: Date | null;
  discharged_at: Date | null;
  cancelled_at: Date | null;
}

function toAdmission(row: AdmissionRow): Admission {
  return {
    id: row.id,
    patient: { id: row.patient_id, name: row.patient_name },
    patientBirthDate: row.patient_birth_date,
    ward: { id: row.department_id, name: row.ward_name },
    requestedBy: { id: row.requested_by, name: row.doctor_name },
    appointmentId: row.appointment_id,
    expectedNights: row.expected_nights,
    reason: row.reason,
    status: row.status,
    bed:
      row.bed_id !== null && row.room_id !== null
        ? { id: row.bed_id, label: row.bed_label ?? '', room: { id: row.room_id, name: row.room_name ?? '' } }
        : null,
    requestedAt: row.requested_at,
    reservedAt: row.reserved_at,
    admittedAt: row.admitted_at,
    dischargeOrderedAt: row.discharge_ordered_at,
    dischargedAt: row.discharged_at,
    cancelledAt: row.cancelled_at,
  };
}

/** A row of the locations query. */
interface LocationRow {
  admission_id: number;
  bed_id: number;
  label: string;
  room_id: number;
  room_name: string;
  ward_id: number;
  ward_name: string;
  nightly_rate_cents: number;
  started_at: Date;
  ended_at: Date | null;
}

/** A row of the summaries query. */
interface SummaryRow {
  admission_id: number;
  doctor_id: number;
  doctor_name: string;
  diagnosis: string;
  treatment: string;
  medication: string;
  instructions: string;
  follow_up: string;
  written_at: Date;
}

/** A row of the charges query, its lines as json. */
interface ChargeRow {
  admission_id: number;
  billing_id: number;
  kind: StayCharge['kind'];
  first_night: string;
  last_night: string;
  payment_status: StayCharge['paymentStatus'];
  lines: {
    bed_id: number;
    bed: string;
    room: string;
    first_night: string;
    last_night: string;
    nights: number;
    rate: number;
    amount: number;
  }[];
}

/** The admissions of `rows` with their locations, summaries and charges: three statements for any number. */
async function withDetails(db: Queryable, rows: AdmissionRow[]): Promise<AdmissionDetail[]> {
  const ids = rows.map((row) => row.id);
  const [locations, summaries, charges] = await Promise.all([
    db.query<LocationRow>(
      `select s.admission_id, s.bed_id, b.label, b.room_id, r.name as room_name, r.department_id as ward_id, d.name as ward_name,
              s.nightly_rate_cents, s.started_at, s.ended_at
         from bed_stays s join beds b on b.id = s.bed_id join rooms r on r.id = b.room_id join departments d on d.id = r.department_id
        where s.admission_id = any($1::int[]) order by s.started_at, s.id`,
      [ids],
    ),
    db.query<SummaryRow>(
      `select s.admission_id, s.doctor_id, u.name as doctor_name, s.diagnosis, s.treatment, s.medication, s.instructions, s.follow_up, s.written_at
         from discharge_summaries s join doctors doc on doc.id = s.doctor_id join users u on u.id = doc.user_id
        where s.admission_id = any($1::int[])`,
      [ids],
    ),
    db.query<ChargeRow>(
      `select c.admission_id, c.billing_id, c.kind, c.first_night::text, c.last_night::text, bl.payment_status,
              coalesce((select json_agg(json_build_object('bed_id', l.bed_id, 'bed', b.label, 'room', r.name, 'first_night', l.first_night,
                          'last_night', l.last_night, 'nights', l.nights, 'rate', l.nightly_rate_cents, 'amount', l.amount_cents) order by l.first_night, l.id)
                          from stay_charge_lines l join beds b on b.id = l.bed_id join rooms r on r.id = b.room_id where l.charge_id = c.id), '[]') as lines
         from stay_charges c join billings bl on bl.id = c.billing_id
        where c.admission_id = any($1::int[]) order by c.first_night`,
      [ids],
    ),
  ]);
  return rows.map((row) => {
    const summary = summaries.find((s) => s.admission_id === row.id);
    return {
      ...toAdmission(row),
      locations: locations.filter((l) => l.admission_id === row.id).map(toLocation),
      summary: summary ? toSummary(summary) : null,
      charges: charges.filter((c) => c.admission_id === row.id).map(toCharge),
    };
  });
}

const toLocation = (l: LocationRow): Location => ({
  bedId: l.bed_id,
  bed: l.label,
  room: { id: l.room_id, name: l.room_name },
  ward: { id: l.ward_id, name: l.ward_name },
  rateCents: l.nightly_rate_cents,
  startedAt: l.started_at,
  endedAt: l.ended_at,
});

const toSummary = (s: SummaryRow): DischargeSummary => ({
  doctor: { id: s.doctor_id, name: s.doctor_name },
  diagnosis: s.diagnosis,
  treatment: s.treatment,
  medication: s.medication,
  instructions: s.instructions,
  followUp: s.follow_up,
  writtenAt: s.written_at,
});

const toCharge = (c: ChargeRow): StayCharge => ({
  billingId: c.billing_id,
  kind: c.kind,
  firstNight: c.first_night,
  lastNight: c.last_night,
  paymentStatus: c.payment_status,
  lines: c.lines.map((l) => ({
    bedId: l.bed_id,
    bed: l.bed,
    room: l.room,
    firstNight: l.first_night,
    lastNight: l.last_night,
    nights: l.nights,
    rateCents: l.rate,
    amountCents: l.amount,
  })),
});

export function admissionStore(db: Queryable): AdmissionStore {
  const rowOf = async (id: number) => {
    const [row] = await db.query<AdmissionRow>(`select ${ADMISSION_COLUMNS} from ${ADMISSION_FROM} where a.id = $1`, [
      id,
    ]);
    return row;
  };
  // Locked first, read after, like a bed: a transfer that commits while the lock waits changes the bed joined to it.
  const lockAdmission = async (id: number, wait: '' | 'skip locked') => {
    const [locked] = await db.query<{ id: number }>(`select id from admissions where id = $1 for update ${wait}`, [id]);
    const row = locked && (await rowOf(locked.id));
    return row && toAdmission(row);
  };
  const endStay = (id: number, at: Date, by: 'transfer' | 'discharge') =>
    db.query(`update bed_stays set ended_at = $2, ended_by = $3 where admission_id = $1 and ended_at is null`, [
      id,
      at,
      by,
    ]);
  const startStay = (id: number, bedId: number, rate: number, at: Date) =>
    translated(() =>
      db.query(`insert into bed_stays (admission_id, bed_id, nightly_rate_cents, started_at) values ($1, $2, $3, $4)`, [
        id,
        bedId,
        rate,
        at,
      ]),
    );
  return {
    create: async (request, doctorId, at) => {
      const [row] = await translated(() =>
        db.query<{ id: number }>(
          `insert into admissions (patient_id, department_id, requested_by, appointment_id, expected_nights, reason, requested_at)
           select $1, $2, $3, $4, $5, $6, $7
            where $4::int is null or exists (select 1 from appointments where id = $4 and patient_id = $1)
           returning id`,
          [
            request.patientId,
            request.departmentId,
            doctorId,
            request.appointmentId,
            request.expectedNights,
            request.reason,
            at,
          ],
        ),
      );
      if (!row) throw invalid({ appointment_id: ['is not a visit of this patient'] });
      return row.id;
    },
    find: async (id) => {
      const row = await rowOf(id);
      return row && (await withDetails(db, [row]))[0];
    },
    lock: (id) => lockAdmission(id, ''),
    lockIfFree: (id) => lockAdmission(id, 'skip locked'),
    list: (filter, page) => {
      const where = `a.status = any($1::text[]) and ($2::int is null or a.department_id = $2) and lower(pu.name) like $3`;
      return pageWithTotal(
        db,
        page,
        {
          columns: ADMISSION_COLUMNS,
          rowsOf: `from ${ADMISSION_FROM} where ${where}`,
          countOf: `from admissions a join patients p on p.id = a.patient_id join users pu on pu.id = p.user_id where ${where}`,
          orderBy: 'a.requested_at, a.id',
          params: [filter.statuses, filter.departmentId ?? null, containsPattern(page.q)],
        },
        toAdmission,
      );
    },
    listForPatient: async (patientId) =>
      withDetails(
        db,
        await db.query<AdmissionRow>(
          `select ${ADMISSION_COLUMNS} from ${ADMISSION_FROM} where a.patient_id = $1 order by a.requested_at desc, a.id desc`,
          [patientId],
        ),
      ),
    reserve: async (id, bedId, at) => {
      await translated(() =>
        db.query(`update admissions set status = 'reserved', bed_id = $2, reserved_at = $3 where id = $1`, [
          id,
          bedId,
          at,
        ]),
      );
    },
    admit: async (id, bedId, rate, at) => {
      await translated(() =>
        db.query(
          `update admissions set status = 'admitted', bed_id = $2, reserved_at = coalesce(reserved_at, $3), admitted_at = $3 where id = $1`,
          [id, bedId, at],
        ),
      );
      await startStay(id, bedId, rate, at);
    },
    transfer: async (id, bedId, rate, at) => {
      await endStay(id, at, 'transfer');
      await translated(() => db.query(`update admissions set bed_id = $2 where id = $1`, [id, bedId]));
      await startStay(id, bedId, rate, at);
    },
    undo: async (id) => {
      await db.query(`delete from bed_stays where admission_id = $1`, [id]);
      await db.query(
        `update admissions set status = 'requested', bed_id = null, reserved_at = null, admitted_at = null where id = $1`,
        [id],
      );
    },
    orderDischarge: async (id, summary, doctorId, at) => {
      await db.query(`update admissions set status = 'discharge_ordered', discharge_ordered_at = $2 where id = $1`, [
        id,
        at,
      ]);
      await db.query(
        `insert into discharge_summaries (admission_id, doctor_id, diagnosis, treatment, medication, instructions, follow_up, written_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          id,
          doctorId,
          summary.diagnosis,
          summary.treatment,
          summary.medication,
          summary.instructions,
          summary.followUp,
          at,
        ],
      );
    },
    discharge: async (id, at) => {
      await endStay(id, at, 'discharge');
      await db.query(`update admissions set status = 'discharged', discharged_at = $2 where id = $1`, [id, at]);
    },
    cancel: async (id, at) => {
      await db.query(`update admissions set status = 'cancelled', bed_id = null, cancelled_at = $2 where id = $1`, [
        id,
        at,
      ]);
    },
    segments: async (id) => {
      const rows = await db.query<{
        bed_id: number;
        label: string;
        room_name: string;
        nightly_rate_cents: number;
        started_at: Date;
        ended_at: Date | null;
      }>(
        `select s.bed_id, b.label, r.name as room_name, s.nightly_rate_cents, s.started_at, s.ended_at
           from bed_stays s join beds b on b.id = s.bed_id join rooms r on r.id = b.room_id
          where s.admission_id = $1 order by s.started_at, s.id`,
        [id],
      );
      return rows.map(
        (row): RatedSegment => ({
          bedId: row.bed_id,
          bed: row.label,
          room: row.room_name,
          rateCents: row.nightly_rate_cents,
          startedAt: row.started_at,
          endedAt: row.ended_at,
        }),
      );
    },
    inBed: async () =>
      (
        await db.query<{ id: number }>(
          `select id from admissions where status in ('admitted', 'discharge_ordered') order by id`,
        )
      ).map((row) => row.id),
    medicinesToContinue: (id, at) => continuedOnDischarge(db, id, at),
  };
}

export function chargeStore(db: Queryable): ChargeStore {
  return {
    billedThrough: async (admissionId) => {
      const row = onlyRow(
        await db.query<{ last: string | null }>(
          `select max(last_night)::text as last from stay_charges where admission_id = $1`,
          [admissionId],
        ),
      );
      return row.last;
    },
    record: async (charge) => {
      const { id } = onlyRow(
        await db.query<{ id: number }>(
          `insert into stay_charges (admission_id, billing_id, kind, first_night, last_night) values ($1, $2, $3, $4, $5) returning id`,
          [charge.admissionId, charge.billingId, charge.kind, charge.firstNight, charge.lastNight],
        ),
      );
      const lines = charge.lines;
      await db.query(
        `insert into stay_charge_lines (charge_id, bed_id, first_night, last_night, nights, nightly_rate_cents, amount_cents)
         select $1, * from unnest($2::int[], $3::date[], $4::date[], $5::int[], $6::int[], $7::bigint[])`,
        [
          id,
          lines.map((l) => l.bedId),
          lines.map((l) => l.firstNight),
          lines.map((l) => l.lastNight),
          lines.map((l) => l.nights),
          lines.map((l) => l.rateCents),
          lines.map((l) => l.amountCents),
        ],
      );
    },
  };
}

export function censusQueries(db: Queryable): CensusQueries {
  return {
    segments: async (from, until, departmentId) => {
      const rows = await db.query<{
        admission_id: number;
        ward_id: number;
        ward_name: string;
        started_at: Date;
        ended_at: Date | null;
        ended_by: Segment['endedBy'];
      }>(
        `select s.admission_id, r.department_id as ward_id, d.name as ward_name, s.started_at, s.ended_at, s.ended_by
           from bed_stays s join beds b on b.id = s.bed_id join rooms r on r.id = b.room_id join departments d on d.id = r.department_id
          where s.admission_id in (
            select t.admission_id from bed_stays t join beds tb on tb.id = t.bed_id join rooms tr on tr.id = tb.room_id
             where t.started_at < $2 and (t.ended_at is null or t.ended_at >= $1) and ($3::int is null or tr.department_id = $3))
          order by s.started_at, s.id`,
        [from, until, departmentId ?? null],
      );
      return rows.map((row) => ({
        admissionId: row.admission_id,
        wardId: row.ward_id,
        wardName: row.ward_name,
        startedAt: row.started_at,
        endedAt: row.ended_at,
        endedBy: row.ended_by,
      }));
    },
    beds: async (departmentId) => {
      const rows = await db.query<{ ward_id: number; ward_name: string; created_at: Date; retired_at: Date | null }>(
        `select r.department_id as ward_id, d.name as ward_name, b.created_at, b.retired_at
           from beds b join rooms r on r.id = b.room_id join departments d on d.id = r.department_id
          where $1::int is null or r.department_id = $1`,
        [departmentId ?? null],
      );
      return rows.map(
        (row): WardBed => ({
          wardId: row.ward_id,
          wardName: row.ward_name,
          createdAt: row.created_at,
          retiredAt: row.retired_at,
        }),
      );
    },
  };
}
