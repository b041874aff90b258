import type { Allergy, AllergyStatus } from '../domain/medicines/allergies.ts';
import { medicineLabel, type FormularyEntry, type NewFormularyEntry } from '../domain/medicines/formulary.ts';
import { orderInWords } from '../domain/medicines/medicines-answers.ts';
import type { ContinuedMedicine } from '../domain/inpatient/ports.ts';
import type {
  AllergyStore,
  Dose,
  FormularyStore,
  MarPatient,
  MedicationRequestView,
  MedicationStore,
} from '../domain/medicines/ports.ts';
import type { Frequency } from '../domain/medicines/prescriptions.ts';
import { conflict } from '../domain/shared/errors.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { onlyRow } from './rows.ts';
import { UNIQUE_VIOLATION, sqlState } from './sql-errors.ts';

// ── The formulary ──────────────────────────────────────────────────────────────────────────────────────────────

export interface FormularyRow {
  id: number;
  generic_name: string;
  form: FormularyEntry['form'];
  strength: string;
  routes: FormularyEntry['routes'];
  dose_unit: string;
  price_cents: number | null;
  active: boolean;
}

export const FORMULARY_COLUMNS =
  'f.id, f.generic_name, f.form, f.strength, f.routes, f.dose_unit, f.price_cents, f.active';

export const toFormularyEntry = (row: FormularyRow): FormularyEntry => ({
  id: row.id,
  genericName: row.generic_name,
  form: row.form,
  strength: row.strength,
  routes: row.routes,
  doseUnit: row.dose_unit,
  priceCents: row.price_cents,
  active: row.active,
});

const medicineExists = () =>
  conflict('medicine_exists', 'A medicine of that generic name, form and strength is already in the formulary');

async function uniqueMedicine<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === UNIQUE_VIOLATION) throw medicineExists();
    throw error;
  }
}

export function formularyStore(db: Queryable): FormularyStore {
  return {
    list: (filter, page) =>
      pageWithTotal<FormularyRow, FormularyEntry>(
        db,
        page,
        {
          columns: FORMULARY_COLUMNS,
          rowsOf: `from formulary f where ($1::boolean or f.active) and ($2 = '' or lower(f.generic_name) like $2)`,
          orderBy: 'lower(f.generic_name), f.form, f.strength, f.id',
          params: [filter.includeInactive, page.q ? containsPattern(page.q) : ''],
        },
        toFormularyEntry,
      ),
    async find(id) {
      const rows = await db.query<FormularyRow>(`select ${FORMULARY_COLUMNS} from formulary f where f.id = $1`, [id]);
      return rows[0] && toFormularyEntry(rows[0]);
    },
    create: (e) =>
      uniqueMedicine(async () =>
        toFormularyEntry(
          onlyRow(
            await db.query<FormularyRow>(
              `insert into formulary as f (generic_name, form, strength, routes, dose_unit, price_cents)
               values ($1, $2, $3, $4, $5, $6) returning ${FORMULARY_COLUMNS}`,
              [e.genericName, e.form, e.strength, e.routes, e.doseUnit, e.priceCents],
            ),
          ),
        ),
      ),
    update: (id, e, at) =>
      uniqueMedicine(async () => {
        const rows = await db.query<FormularyRow>(
          `update formulary f set generic_name = $2, form = $3, strength = $4, routes = $5, dose_unit = $6,
             price_cents = $7, active = $8, updated_at = $9
           where f.id = $1 returning ${FORMULARY_COLUMNS}`,
          [id, e.genericName, e.form, e.strength, e.routes, e.doseUnit, e.priceCents, e.active, at],
        );
        return rows[0] && toFormularyEntry(rows[0]);
      }),
    async upsert(entries, at) {
      if (entries.length === 0) return { created: 0, updated: 0 };
      const rows = await db.query<{ created: number; updated: number }>(
        `with given as (
           select * from jsonb_to_recordset($1::jsonb)
             as g (generic_name text, form text, strength text, routes text[], dose_unit text, price_cents integer)
         ), changed as (
           update formulary f set routes = g.routes, dose_unit = g.dose_unit, price_cents = g.price_cents,
             active = true, updated_at = $2
           from given g
           where lower(f.generic_name) = lower(g.generic_name) and f.form = g.form and f.strength = g.strength
           returning f.id
         ), added as (
           insert into formulary (generic_name, form, strength, routes, dose_unit, price_cents)
           select g.generic_name, g.form, g.strength, g.routes, g.dose_unit, g.price_cents from given g
           where not exists (select 1 from formulary f where lower(f.generic_name) = lower(g.generic_name)
                             and f.form = g.form and f.strength = g.strength)
           returning id
         )
         select (select count(*)::int from added) as created, (select count(*)::int from changed) as updated`,
        [JSON.stringify(entries.map(formularyJsonRow)), at],
      );
      return onlyRow(rows);
    },
  };
}

const formularyJsonRow = (e: NewFormularyEntry) => ({
  generic_name: e.genericName,
  form: e.form,
  strength: e.strength,
  routes: e.routes,
  dose_unit: e.doseUnit,
  price_cents: e.priceCents,
});

// ── Allergies ──────────────────────────────────────────────────────────────────────────────────────────────────

export interface AllergyRow {
  id: number;
  patient_id: number;
  substance_kind: Allergy['substance']['kind'];
  medicine_id: number | null;
  medicine_name: string | null;
  substance_text: string | null;
  type: Allergy['type'];
  reaction: string | null;
  severity: Allergy['severity'];
  status: AllergyStatus;
  recorded_by: number;
  recorded_by_name: string;
  recorded_at: Date;
}

export const ALLERGY_SELECT = `select a.id, a.patient_id, a.substance_kind, a.medicine_id, f.generic_name as medicine_name,
    a.substance_text, a.type, a.reaction, a.severity, a.status, a.recorded_by, u.name as recorded_by_name, a.recorded_at
  from allergies a join users u on u.id = a.recorded_by left join formulary f on f.id = a.medicine_id`;

export function toAllergy(row: AllergyRow): Allergy {
  const substance: Allergy['substance'] =
    row.substance_kind === 'medicine'
      ? { kind: 'medicine', medicineId: row.medicine_id ?? 0, name: row.medicine_name ?? '' }
      : row.substance_kind === 'text'
        ? { kind: 'text', text: row.substance_text ?? '' }
        : { kind: 'none_known' };
  return {
    id: row.id,
    patientId: row.patient_id,
    substance,
    type: row.type,
    reaction: row.reaction,
    severity: row.severity,
    status: row.status,
    recordedBy: { userId: row.recorded_by, name: row.recorded_by_name },
    recordedAt: row.recorded_at,
  };
}

export function allergyStore(db: Queryable): AllergyStore {
  const one = async (id: number) => {
    const rows = await db.query<AllergyRow>(`${ALLERGY_SELECT} where a.id = $1`, [id]);
    return rows[0] && toAllergy(rows[0]);
  };
  return {
    async ofPatient(patientId) {
      const [patient, rows] = await Promise.all([
        db.query('select 1 from patients where id = $1', [patientId]),
        db.query<AllergyRow>(`${ALLERGY_SELECT} where a.patient_id = $1 order by a.recorded_at desc, a.id desc`, [
          patientId,
        ]),
      ]);
      return patient.length === 0 ? undefined : rows.map(toAllergy);
    },
    async lockPatient(patientId) {
      return (await db.query('select id from patients where id = $1 for update', [patientId])).length > 0;
    },
    async add(a) {
      const s = a.substance;
      const { id } = onlyRow(
        await db.query<{ id: number }>(
          `insert into allergies (patient_id, substance_kind, medicine_id, substance_text, type, reaction, severity,
             status, recorded_by, recorded_at, updated_at)
           values ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9, $9) returning id`,
          [
            a.patientId,
            s.kind,
            s.kind === 'medicine' ? s.medicineId : null,
            s.kind === 'text' ? s.text : null,
            a.type,
            a.reaction,
            a.severity,
            a.recordedBy,
            a.recordedAt,
          ],
        ),
      );
      return onlyRow([await one(id)].filter((x): x is Allergy => x !== undefined));
    },
    find: one,
    async setStatus(id, status, at) {
      const rows = await db.query('update allergies set status = $2, updated_at = $3 where id = $1 returning id', [
        id,
        status,
        at,
      ]);
      return rows.length === 0 ? undefined : one(id);
    },
    async retireNoneKnown(patientId, at) {
      await db.query(
        `update allergies set status = 'inactive', updated_at = $2
         where patient_id = $1 and substance_kind = 'none_known' and status = 'active'`,
        [patientId, at],
      );
    },
  };
}

// ── Medication requests and doses ──────────────────────────────────────────────────────────────────────────────

export interface RequestRow extends FormularyRow {
  request_id: number;
  patient_id: number;
  patient_name: string;
  patient_birthdate: string | null;
  doctor_id: number;
  doctor_name: string;
  appointment_id: number | null;
  admission_id: number | null;
  medicine_id: number;
  dose_amount: number;
  dose_unit_given: string;
  route: MedicationRequestView['route'];
  frequency_kind: Frequency['kind'];
  times_a_day: number | null;
  every_hours: number | null;
  at_times: string[] | null;
  min_interval_hours: number | null;
  max_per_day: number | null;
  duration_days: number | null;
  quantity: number | null;
  instructions: string;
  continue_on_discharge: boolean;
  allergy_override_reason: string | null;
  allergy_override_allergies: string[] | null;
  start_date: string;
  starts_at: Date;
  ends_at: Date | null;
  requested_at: Date;
  status: MedicationRequestView['status'];
  discontinued_at: Date | null;
  discontinued_reason: string | null;
}

// An order past its end is completed; the stored status says only whether it was discontinued.
export const requestColumns = (nowParam: string) => `r.id as request_id, r.patient_id, pu.name as patient_name,
    to_char(p.birthdate, 'YYYY-MM-DD') as patient_birthdate, r.doctor_id, du.name as doctor_name, r.appointment_id,
    r.admission_id, r.medicine_id, r.dose_amount, r.dose_unit as dose_unit_given, r.route, r.frequency_kind,
    r.times_a_day, r.every_hours, r.at_times, r.min_interval_hours, r.max_per_day, r.duration_days, r.quantity,
    r.instructions, r.continue_on_discharge, r.allergy_override_reason, r.allergy_override_allergies,
    to_char(r.start_date, 'YYYY-MM-DD') as start_date, r.starts_at, r.ends_at, r.requested_at,
    case when r.status = 'active' and r.ends_at is not null and r.ends_at <= ${nowParam} then 'completed'
      else r.status end as status,
    r.discontinued_at, r.discontinued_reason, ${FORMULARY_COLUMNS}`;

export const REQUEST_FROM = `medication_requests r
  join patients p on p.id = r.patient_id join users pu on pu.id = p.user_id
  join doctors d on d.id = r.doctor_id join users du on du.id = d.user_id
  join formulary f on f.id = r.medicine_id`;

const requestSelect = (nowParam: string) => `select ${requestColumns(nowParam)} from ${REQUEST_FROM}`;

function frequencyOfRow(row: RequestRow): Frequency {
  switch (row.frequency_kind) {
    case 'times_a_day':
      return { kind: 'times_a_day', times: row.times_a_day ?? 1 };
    case 'every_hours':
      return { kind: 'every_hours', hours: row.every_hours ?? 1 };
    case 'at_times':
      return { kind: 'at_times', times: row.at_times ?? [] };
    case 'as_needed':
      return { kind: 'as_needed', minIntervalHours: Number(row.min_interval_hours), maxPerDay: row.max_per_day ?? 1 };
  }
}

export function toRequestView(row: RequestRow): MedicationRequestView {
  return {
    id: row.request_id,
    patient: { id: row.patient_id, name: row.patient_name, birthDate: row.patient_birthdate },
    doctor: { id: row.doctor_id, name: row.doctor_name },
    source:
      row.admission_id !== null
        ? { kind: 'stay', admissionId: row.admission_id }
        : { kind: 'visit', appointmentId: row.appointment_id ?? 0 },
    medicine: toFormularyEntry(row),
    dose: { amount: Number(row.dose_amount), unit: row.dose_unit_given },
    route: row.route,
    frequency: frequencyOfRow(row),
    durationDays: row.duration_days,
    quantity: row.quantity,
    instructions: row.instructions,
    continueOnDischarge: row.continue_on_discharge,
    allergyOverride:
      row.allergy_override_reason === null
        ? null
        : { reason: row.allergy_override_reason, allergies: row.allergy_override_allergies ?? [] },
    startDate: row.start_date,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    requestedAt: row.requested_at,
    status: row.status,
    discontinuedAt: row.discontinued_at,
    discontinuedReason: row.discontinued_reason,
  };
}

export interface DoseRow {
  id: number;
  request_id: number;
  due_at: Date | null;
  status: Dose['status'];
  given_at: Date | null;
  dose_amount: number | null;
  dose_unit: string | null;
  reason: string | null;
  recorded_by_name: string | null;
  recorded_at: Date | null;
}

export const DOSE_SELECT = `select d.id, d.request_id, d.due_at, d.status, d.given_at, d.dose_amount, d.dose_unit, d.reason,
    u.name as recorded_by_name, d.recorded_at
  from medication_doses d left join users u on u.id = d.recorded_by`;

export const toDose = (row: DoseRow): Dose => ({
  id: row.id,
  requestId: row.request_id,
  dueAt: row.due_at,
  status: row.status,
  givenAt: row.given_at,
  amount: row.dose_amount === null ? null : Number(row.dose_amount),
  unit: row.dose_unit,
  reason: row.reason,
  recordedBy: row.recorded_by_name,
  recordedAt: row.recorded_at,
});

const DOSE_ORDER = 'coalesce(d.due_at, d.given_at), d.id';

export function medicationStore(db: Queryable, now: () => Date): MedicationStore {
  const find = async (id: number) => {
    const rows = await db.query<RequestRow>(`${requestSelect('$2')} where r.id = $1`, [id, now()]);
    return rows[0] && toRequestView(rows[0]);
  };
  return {
    async originOf(source) {
      const rows =
        source.kind === 'visit'
          ? await db.query<{ patient_id: number; status: string }>(
              'select patient_id, status from appointments where id = $1',
              [source.appointmentId],
            )
          : await db.query<{ patient_id: number; status: string }>(
              'select patient_id, status from admissions where id = $1',
              [source.admissionId],
            );
      return rows[0] && { patientId: rows[0].patient_id, status: rows[0].status };
    },
    async create(r) {
      const f = r.frequency;
      const { id } = onlyRow(
        await db.query<{ id: number }>(
          `insert into medication_requests (patient_id, doctor_id, appointment_id, admission_id, medicine_id,
             dose_amount, dose_unit, route, frequency_kind, times_a_day, every_hours, at_times, min_interval_hours,
             max_per_day, duration_days, quantity, instructions, continue_on_discharge, allergy_override_reason,
             allergy_override_allergies, start_date, starts_at, ends_at, requested_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
             $22, $23, $24)
           returning id`,
          [
            r.patientId,
            r.doctorId,
            r.source.kind === 'visit' ? r.source.appointmentId : null,
            r.source.kind === 'stay' ? r.source.admissionId : null,
            r.medicineId,
            r.dose.amount,
            r.dose.unit,
            r.route,
            f.kind,
            f.kind === 'times_a_day' ? f.times : null,
            f.kind === 'every_hours' ? f.hours : null,
            f.kind === 'at_times' ? f.times : null,
            f.kind === 'as_needed' ? f.minIntervalHours : null,
            f.kind === 'as_needed' ? f.maxPerDay : null,
            r.durationDays,
            r.quantity,
            r.instructions,
            r.continueOnDischarge,
            r.allergyOverride?.reason ?? null,
            r.allergyOverride?.allergies ?? null,
            r.startDate,
            r.startsAt,
            r.endsAt,
            r.requestedAt,
          ],
        ),
      );
      return id;
    },
    async schedule(requestId, dueAts) {
      if (dueAts.length === 0) return;
      await db.query('insert into medication_doses (request_id, due_at) select $1, unnest($2::timestamptz[])', [
        requestId,
        dueAts.map((d) => d.toISOString()),
      ]);
    },
    find,
    async doses(requestId) {
      const rows = await db.query<DoseRow>(`${DOSE_SELECT} where d.request_id = $1 order by ${DOSE_ORDER}`, [
        requestId,
      ]);
      return rows.map(toDose);
    },
    async lock(id) {
      const locked = await db.query('select id from medication_requests where id = $1 for update', [id]);
      if (locked.length === 0) return undefined;
      const view = await find(id);
      return (
        view && {
          id: view.id,
          patientId: view.patient.id,
          admissionId: view.source.kind === 'stay' ? view.source.admissionId : null,
          status: view.status,
          frequency: view.frequency,
          dose: view.dose,
          medicine: view.medicine,
        }
      );
    },
    async discontinue(id, by, reason, at) {
      await db.query(
        `update medication_requests set status = 'discontinued', discontinued_at = $2, discontinued_by = $3,
           discontinued_reason = $4 where id = $1`,
        [id, at, by, reason],
      );
      const cancelled = await db.query(
        `update medication_doses set status = 'cancelled' where request_id = $1 and status = 'due' and due_at > $2
         returning id`,
        [id, at],
      );
      return cancelled.length;
    },
    async dose(doseId) {
      const rows = await db.query<DoseRow>(`${DOSE_SELECT} where d.id = $1`, [doseId]);
      return rows[0] && toDose(rows[0]);
    },
    async requestOfDose(doseId) {
      const rows = await db.query<{ request_id: number }>('select request_id from medication_doses where id = $1', [
        doseId,
      ]);
      return rows[0]?.request_id;
    },
    async recordDose(doseId, record, by, at) {
      const rows = await db.query(
        `update medication_doses set status = $2, given_at = $3, dose_amount = $4, dose_unit = $5, reason = $6,
           recorded_by = $7, recorded_at = $8
         where id = $1 and status = 'due' returning id`,
        [doseId, record.outcome, record.givenAt, record.amount, record.unit, record.reason, by, at],
      );
      return rows.length === 1;
    },
    async addGiven(requestId, givenAt, amount, unit, by, at) {
      return onlyRow(
        await db.query<{ id: number }>(
          `insert into medication_doses (request_id, status, given_at, dose_amount, dose_unit, recorded_by, recorded_at)
           values ($1, 'given', $2, $3, $4, $5, $6) returning id`,
          [requestId, givenAt, amount, unit, by, at],
        ),
      ).id;
    },
    async givenTimes(requestId) {
      const rows = await db.query<{ given_at: Date }>(
        `select given_at from medication_doses where request_id = $1 and status = 'given'`,
        [requestId],
      );
      return rows.map((r) => r.given_at);
    },
    async setDoseBill(doseId, billId) {
      await db.query('update medication_doses set bill_id = $2 where id = $1', [doseId, billId]);
    },
    ofPatient: (patientId, filter, page) =>
      pageWithTotal<RequestRow, MedicationRequestView>(
        db,
        page,
        {
          columns: requestColumns('$2'),
          rowsOf: `from ${REQUEST_FROM}
            where r.patient_id = $1 and (not $3::boolean or (r.status = 'active' and (r.ends_at is null or r.ends_at > $2)))
              and ($4 = '' or lower(f.generic_name) like $4)`,
          orderBy: 'r.requested_at desc, r.id desc',
          params: [patientId, now(), filter.activeOnly, page.q ? containsPattern(page.q) : ''],
        },
        toRequestView,
      ),
    async wardMar(departmentId, from, to) {
      const wards = await db.query<{ id: number; name: string }>('select id, name from departments where id = $1', [
        departmentId,
      ]);
      const ward = wards[0];
      if (!ward) return { ward: undefined, patients: [] };
      const stays = await db.query<{ admission_id: number; patient_id: number; patient_name: string; bed: string }>(
        `select a.id as admission_id, a.patient_id, u.name as patient_name, ro.name || ' · ' || b.label as bed
         from admissions a join beds b on b.id = a.bed_id join rooms ro on ro.id = b.room_id
         join patients p on p.id = a.patient_id join users u on u.id = p.user_id
         where ro.department_id = $1 and a.status in ('admitted', 'discharge_ordered')
         order by ro.name, b.label`,
        [departmentId],
      );
      if (stays.length === 0) return { ward, patients: [] };
      const admissionIds = stays.map((s) => s.admission_id);
      const orders = await db.query<RequestRow>(
        `${requestSelect('$2')} where r.admission_id = any($1::int[])
           and (r.status = 'active' or r.discontinued_at >= $3) order by r.requested_at, r.id`,
        [admissionIds, now(), from],
      );
      const doses = await db.query<DoseRow>(
        `${DOSE_SELECT} join medication_requests r on r.id = d.request_id
         where r.admission_id = any($1::int[])
           and ((coalesce(d.due_at, d.given_at) >= $2 and coalesce(d.due_at, d.given_at) < $3)
             or (d.status = 'due' and d.due_at < $2 and r.status = 'active'))
         order by ${DOSE_ORDER}`,
        [admissionIds, from, to],
      );
      const views = orders.map(toRequestView);
      const patients: MarPatient[] = stays.map((s) => ({
        admissionId: s.admission_id,
        patient: { id: s.patient_id, name: s.patient_name },
        bed: s.bed,
        orders: views
          .filter((o) => o.source.kind === 'stay' && o.source.admissionId === s.admission_id)
          .map((o) => ({ ...o, doses: doses.filter((d) => d.request_id === o.id).map(toDose) })),
      }));
      return { ward, patients };
    },
  };
}

/** The doses still due more than `lateAfterMinutes` before `now` per current stay: the bed board's late doses. */
export async function lateDosesByAdmission(
  db: Queryable,
  admissionIds: readonly number[],
  now: Date,
  lateAfterMinutes: number,
): Promise<Map<number, number>> {
  if (admissionIds.length === 0) return new Map();
  const rows = await db.query<{ admission_id: number; late: number }>(
    `select r.admission_id, count(*)::int as late from medication_doses d
     join medication_requests r on r.id = d.request_id
     where r.admission_id = any($1::int[]) and r.status = 'active' and d.status = 'due'
       and d.due_at < $2::timestamptz - make_interval(mins => $3)
     group by r.admission_id`,
    [admissionIds, now, lateAfterMinutes],
  );
  return new Map(rows.map((r) => [r.admission_id, r.late]));
}

/** A stay's inpatient orders to continue after discharge and not discontinued: the discharge summary's medicines. */
export async function continuedOnDischarge(db: Queryable, admissionId: number, at: Date): Promise<ContinuedMedicine[]> {
  const rows = await db.query<RequestRow>(
    `${requestSelect('$2')} where r.admission_id = $1 and r.continue_on_discharge and r.status = 'active'
     order by r.requested_at, r.id`,
    [admissionId, at],
  );
  return rows.map(toRequestView).map((order) => ({
    orderId: order.id,
    medicine: medicineLabel(order.medicine),
    words: orderInWords(order),
  }));
}
