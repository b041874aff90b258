import type { CatalogueTest } from '../domain/lab/catalogue.ts';
import type {
  LabStore,
  LockedOrder,
  ObservationView,
  OpenAlert,
  OrderView,
  UnmatchedResult,
} from '../domain/lab/ports.ts';
import type { ObservationValue } from '../domain/lab/reports.ts';
import { containsPattern, offsetOf } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { onlyRow } from './rows.ts';
import { UNIQUE_VIOLATION, sqlState } from './sql-errors.ts';

interface TestRow {
  id: number;
  kind: CatalogueTest['kind'];
  category: CatalogueTest['category'];
  code_system: CatalogueTest['codeSystem'];
  code: string;
  name: string;
  specimen_type: CatalogueTest['specimenType'];
  result_type: CatalogueTest['resultType'] | null;
  unit: string | null;
  physical_low: number | null;
  physical_high: number | null;
  answers: string[];
  price_cents: number;
  turnaround_minutes: number;
  active: boolean;
  row_version: number;
  member_ids: number[];
  ranges: BandRow[];
  critical: BandRow[];
}

interface BandRow {
  sex: 'any' | 'male' | 'female';
  age_from_days: number;
  age_to_days: number | null;
  low: number | string | null;
  high: number | string | null;
}

// Inside json_agg numerics arrive as JSON numbers, but keep to one reading of either.
const num = (v: number | string | null) => (v === null ? null : Number(v));
const band = (b: BandRow) => ({
  sex: b.sex,
  ageFromDays: b.age_from_days,
  ageToDays: b.age_to_days,
  low: num(b.low),
  high: num(b.high),
});

export function toCatalogueTest(row: TestRow): CatalogueTest {
  return {
    id: row.id,
    kind: row.kind,
    category: row.category,
    codeSystem: row.code_system,
    code: row.code,
    name: row.name,
    specimenType: row.specimen_type,
    // A panel has no result of its own; the catalogue's checks keep result_type set for every test.
    resultType: row.result_type ?? 'text',
    unit: row.unit,
    physicalLow: row.physical_low,
    physicalHigh: row.physical_high,
    answers: row.answers,
    ranges: row.ranges.map(band),
    criticalLimits: row.critical.map(band),
    priceCents: row.price_cents,
    turnaroundMinutes: row.turnaround_minutes,
    memberIds: row.member_ids,
    active: row.active,
    rowVersion: row.row_version,
  };
}

const TEST_COLUMNS = `t.id, t.kind, t.category, t.code_system, t.code, t.name, t.specimen_type, t.result_type, t.unit,
  t.physical_low, t.physical_high, t.answers, t.price_cents, t.turnaround_minutes, t.active, t.row_version,
  coalesce((select array_agg(m.test_id order by m.position) from lab_panel_members m where m.panel_id = t.id), '{}') as member_ids,
  coalesce((select json_agg(json_build_object('sex', r.sex, 'age_from_days', r.age_from_days, 'age_to_days', r.age_to_days,
    'low', r.low, 'high', r.high) order by r.id) from lab_reference_ranges r where r.test_id = t.id), '[]') as ranges,
  coalesce((select json_agg(json_build_object('sex', c.sex, 'age_from_days', c.age_from_days, 'age_to_days', c.age_to_days,
    'low', c.low, 'high', c.high) order by c.id) from lab_critical_limits c where c.test_id = t.id), '[]') as critical`;

interface LockedOrderRow {
  id: number;
  order_number: string;
  patient_id: number;
  doctor_id: number;
  department_id: number | null;
  status: LockedOrder['status'];
  report_id: number;
  report_status: LockedOrder['reportStatus'];
  items: { id: number; test_id: number; status: LockedOrder['items'][number]['status'] }[];
}

const toLockedOrder = (row: LockedOrderRow): LockedOrder => ({
  id: row.id,
  orderNumber: row.order_number,
  patientId: row.patient_id,
  doctorId: row.doctor_id,
  departmentId: row.department_id,
  status: row.status,
  reportId: row.report_id,
  reportStatus: row.report_status,
  items: row.items.map((i) => ({ id: i.id, testId: i.test_id, status: i.status })),
});

export function labStore(db: Queryable): LabStore {
  const lockOrder = async (id: number): Promise<LockedOrder | undefined> => {
    // The order's row is the one every change of it locks first: cancel, results and sign-off take turns on it.
    const [locked] = await db.query<{ id: number }>(`select id from lab_orders where id = $1 for update`, [id]);
    if (!locked) return undefined;
    const [row] = await db.query<LockedOrderRow>(
      `select o.id, o.order_number, o.patient_id, o.doctor_id, d.department_id, o.status, r.id as report_id,
              r.status as report_status,
              (select json_agg(json_build_object('id', i.id, 'test_id', i.test_id, 'status', i.status) order by i.id)
                 from lab_order_items i where i.order_id = o.id) as items
       from lab_orders o join lab_reports r on r.order_id = o.id join doctors d on d.id = o.doctor_id
       where o.id = $1`,
      [id],
    );
    return row ? toLockedOrder(row) : undefined;
  };

  return {
    ...viewQueries(db),

    tests: async (ids) => {
      const rows = await db.query<TestRow>(
        `select ${TEST_COLUMNS} from lab_tests t
         where t.id = any($1::int[])
            or t.id in (select m.test_id from lab_panel_members m where m.panel_id = any($1::int[]))`,
        [ids],
      );
      return new Map(rows.map((row) => [row.id, toCatalogueTest(row)]));
    },

    sourceOf: async (source) => {
      const [row] =
        source.kind === 'visit'
          ? await db.query<{ patient_id: number }>(
              `select patient_id from appointments where id = $1 and status <> 'cancelled'`,
              [source.appointmentId],
            )
          : await db.query<{ patient_id: number }>(
              `select patient_id from admissions where id = $1 and status <> 'cancelled'`,
              [source.admissionId],
            );
      return row ? { patientId: row.patient_id } : undefined;
    },

    createOrder: async (order) => {
      const row = onlyRow(
        await db.query<{ id: number; order_number: string; report_id: number }>(
          `with o as (
             insert into lab_orders (order_number, patient_id, doctor_id, appointment_id, admission_id, priority,
                                     clinical_note, ordered_at)
             values ('L' || replace($1, '-', '') || '-' || lpad(nextval('lab_order_numbers')::text, 6, '0'),
                     $2, $3, $4, $5, $6, $7, $8)
             returning id, order_number),
           items as (
             insert into lab_order_items (order_id, test_id, panel_id)
             select o.id, i.test_id, i.panel_id
             from o, unnest($9::int[], $10::int[]) as i (test_id, panel_id)),
           report as (insert into lab_reports (order_id, updated_at) select id, $8 from o returning id)
           select o.id, o.order_number, report.id as report_id from o, report`,
          [
            order.orderDate,
            order.patientId,
            order.doctorId,
            order.source.kind === 'visit' ? order.source.appointmentId : null,
            order.source.kind === 'stay' ? order.source.admissionId : null,
            order.priority,
            order.clinicalNote,
            order.orderedAt,
            order.items.map((i) => i.testId),
            order.items.map((i) => i.panelId),
          ],
        ),
      );
      return { id: row.id, orderNumber: row.order_number, reportId: row.report_id };
    },

    addCharge: async (orderId, testId, billingId, priceCents) => {
      await db.query(
        `insert into lab_order_charges (order_id, test_id, billing_id, price_cents) values ($1, $2, $3, $4)`,
        [orderId, testId, billingId, priceCents],
      );
    },

    lockOrder,

    lockOrderOfItem: async (itemId) => {
      const [row] = await db.query<{ order_id: number }>(`select order_id from lab_order_items where id = $1`, [
        itemId,
      ]);
      return row ? lockOrder(row.order_id) : undefined;
    },

    cancelOrder: async (id, by, at) => {
      const rows = await db.query<{ billing_id: number; price_cents: number }>(
        `with o as (update lab_orders set status = 'cancelled', cancelled_at = $3, cancelled_by = $2,
                      row_version = row_version + 1 where id = $1 returning id),
              i as (update lab_order_items set status = 'cancelled' where order_id = $1 and status in ('waiting', 'rejected')),
              r as (update lab_reports set status = 'cancelled', updated_at = $3 where order_id = $1)
         update lab_order_charges set voided_at = $3 where order_id = $1 and voided_at is null
         returning billing_id, price_cents`,
        [id, by, at],
      );
      return rows.map((r) => ({ billingId: r.billing_id, priceCents: r.price_cents }));
    },

    collect: async (itemId, specimenCode, by, at) => {
      try {
        const row = onlyRow(
          await db.query<{ id: number }>(
            `with s as (insert into lab_specimens (specimen_code, order_item_id, collected_by, collected_at)
                        values ($2, $1, $3, $4) returning id, order_item_id),
                  i as (update lab_order_items set status = 'collected' where id = $1),
                  o as (update lab_orders set status = 'collected'
                        where id = (select order_id from lab_order_items where id = $1) and status = 'ordered')
             select id from s`,
            [itemId, specimenCode, by, at],
          ),
        );
        return { id: row.id };
      } catch (error) {
        if (sqlState(error) === UNIQUE_VIOLATION) return undefined;
        throw error;
      }
    },

    reject: async (itemId, reason, note, by, at) => {
      const rows = await db.query(
        `with s as (update lab_specimens set rejected_reason = $2, rejected_note = $3, rejected_by = $4, rejected_at = $5
                    where order_item_id = $1 and rejected_at is null returning id)
         update lab_order_items set status = 'rejected' where id = $1 and exists (select 1 from s) returning id`,
        [itemId, reason, note, by, at],
      );
      return rows.length > 0;
    },

    subject: async (patientId) => {
      const [row] = await db.query<{ gender: LabSubjectGender; birthdate: string | null }>(
        `select gender, birthdate from patients where id = $1`,
        [patientId],
      );
      return row ? { gender: row.gender, birthDate: row.birthdate } : undefined;
    },

    recordResult: async (r) => {
      const v = r.value;
      const values = [
        v.type,
        v.type === 'quantity' ? v.value : null,
        v.type === 'quantity' ? v.unit : null,
        v.type === 'coded' ? v.code : null,
        v.type === 'text' ? v.text : null,
      ];
      try {
        const row = onlyRow(
          await db.query<{ id: number }>(
            `with obs as (
               insert into observations (patient_id, category, code_system, code, display, value_type, value_quantity,
                 value_unit, value_code, value_text, interpretation, range_low, range_high, status, effective_at,
                 recorded_at, recorded_by, order_item_id, report_id)
               values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'preliminary', $14, $15, $16, $17, $18)
               returning id),
             ver as (
               insert into observation_versions (observation_id, version, value_type, value_quantity, value_unit,
                 value_code, value_text, interpretation, status, recorded_at, recorded_by)
               select id, 1, $6, $7, $8, $9, $10, $11, 'preliminary', $15, $16 from obs),
             item as (update lab_order_items set status = 'resulted' where id = $17),
             report as (update lab_reports set status = 'preliminary', updated_at = $15 where id = $18)
             select id from obs`,
            [
              r.patientId,
              r.test.category,
              r.test.codeSystem,
              r.test.code,
              r.test.name,
              ...values,
              r.interpretation,
              r.range?.low ?? null,
              r.range?.high ?? null,
              r.effectiveAt,
              r.recordedAt,
              r.recordedBy,
              r.orderItemId,
              r.reportId,
            ],
          ),
        );
        return { observationId: row.id };
      } catch (error) {
        if (sqlState(error) === UNIQUE_VIOLATION) return undefined;
        throw error;
      }
    },

    finalize: async (reportId, by, at) => {
      // The state check is the statement's own: of two sign-offs only the first finds the report preliminary.
      const [row] = await db.query<{ n: number }>(
        `with r as (update lab_reports set status = 'final', signed_off_at = $3, signed_off_by = $2, updated_at = $3,
                      row_version = row_version + 1
                    where id = $1 and status = 'preliminary' returning id, order_id),
              v as (update observation_versions v set status = 'final'
                    from observations o, r where o.report_id = r.id and v.observation_id = o.id and v.version = o.version),
              ob as (update observations o set status = 'final' from r where o.report_id = r.id),
              lo as (update lab_orders o set status = 'resulted' from r where o.id = r.order_id)
         select count(*)::int as n from r`,
        [reportId, by, at],
      );
      return (row?.n ?? 0) > 0;
    },

    raiseCriticalAlerts: async (reportId, at, escalatesAt) => {
      const rows = await db.query(
        `insert into lab_critical_alerts (observation_id, version, patient_id, ordering_doctor_id, department_id,
                                          raised_at, escalates_at)
         select ob.id, ob.version, ob.patient_id, lo.doctor_id, d.department_id, $2, $3
         from observations ob join lab_reports r on r.id = ob.report_id join lab_orders lo on lo.id = r.order_id
              join doctors d on d.id = lo.doctor_id
         where ob.report_id = $1 and ob.interpretation in ('LL', 'HH')
         on conflict (observation_id, version) do nothing
         returning id`,
        [reportId, at, escalatesAt],
      );
      return rows.map((r) => Number(r.id));
    },

    criticalRecipients: async (alertIds) => {
      const rows = await db.query<{
        id: number;
        order_number: string;
        test_name: string;
        patient_name: string;
        escalates_at: Date;
        doctor: { user_id: number; email: string; name: string };
        department: { user_id: number; email: string; name: string }[];
      }>(
        `select a.id, o.order_number, ob.display as test_name, pu.name as patient_name, a.escalates_at,
                json_build_object('user_id', du.id, 'email', du.email, 'name', du.name) as doctor,
                coalesce((select json_agg(json_build_object('user_id', ou.id, 'email', ou.email, 'name', ou.name) order by ou.id)
                   from doctors od join users ou on ou.id = od.user_id
                   where od.department_id = a.department_id and od.id <> a.ordering_doctor_id and ou.active), '[]') as department
         from lab_critical_alerts a join observations ob on ob.id = a.observation_id
         join lab_reports r on r.id = ob.report_id join lab_orders o on o.id = r.order_id
         join patients p on p.id = a.patient_id join users pu on pu.id = p.user_id
         join doctors d on d.id = a.ordering_doctor_id join users du on du.id = d.user_id
         where a.id = any($1::int[]) order by a.id`,
        [alertIds],
      );
      const person = (u: { user_id: number; email: string; name: string }) => ({
        userId: u.user_id,
        email: u.email,
        name: u.name,
      });
      return rows.map((r) => ({
        notice: {
          alertId: r.id,
          orderNumber: r.order_number,
          testName: r.test_name,
          patientName: r.patient_name,
          orderingDoctor: r.doctor.name,
          escalatesAt: r.escalates_at,
        },
        orderingDoctor: person(r.doctor),
        department: r.department.map(person),
      }));
    },

    openAlerts: async (doctorId, now) => {
      const rows = await db.query<
        ValueColumns & {
          id: number;
          order_id: number;
          order_number: string;
          patient_id: number;
          patient_name: string;
          test_name: string;
          interpretation: OpenAlert['interpretation'];
          raised_at: Date;
          escalates_at: Date;
          doctor_id: number;
          doctor_name: string;
          bed: string | null;
        }
      >(
        `select a.id, o.id as order_id, o.order_number, a.patient_id, pu.name as patient_name, ob.display as test_name,
                v.value_type, v.value_quantity, v.value_unit, v.value_code, v.value_text, v.interpretation,
                a.raised_at, a.escalates_at, a.ordering_doctor_id as doctor_id, du.name as doctor_name,
                (select rm.name || ' ' || b.label from admissions ad join beds b on b.id = ad.bed_id
                   join rooms rm on rm.id = b.room_id
                  where ad.patient_id = a.patient_id and ad.status in ('admitted', 'discharge_ordered')) as bed
         from lab_critical_alerts a
         join observation_versions v on v.observation_id = a.observation_id and v.version = a.version
         join observations ob on ob.id = a.observation_id
         join lab_reports r on r.id = ob.report_id join lab_orders o on o.id = r.order_id
         join patients p on p.id = a.patient_id join users pu on pu.id = p.user_id
         join doctors d on d.id = a.ordering_doctor_id join users du on du.id = d.user_id
         where not exists (select 1 from lab_critical_acknowledgements k where k.alert_id = a.id)
           and (a.ordering_doctor_id = $1
                or (a.escalates_at <= $2
                    and a.department_id = (select department_id from doctors where id = $1)))
         order by a.raised_at, a.id`,
        [doctorId, now],
      );
      return rows.map((r) => ({
        id: r.id,
        orderId: r.order_id,
        orderNumber: r.order_number,
        patient: { id: r.patient_id, name: r.patient_name },
        testName: r.test_name,
        value: valueOfRow(r),
        interpretation: r.interpretation,
        raisedAt: r.raised_at,
        escalatesAt: r.escalates_at,
        orderingDoctor: { id: r.doctor_id, name: r.doctor_name },
        bed: r.bed,
      }));
    },

    acknowledge: async (alertId, doctorId, at) => {
      const rows = await db.query(
        `insert into lab_critical_acknowledgements (alert_id, doctor_id, acknowledged_at) values ($1, $2, $3)
         on conflict (alert_id) do nothing returning alert_id`,
        [alertId, doctorId, at],
      );
      return rows.length > 0;
    },

    alert: async (alertId) => {
      const [row] = await db.query<{
        id: number;
        patient_id: number;
        ordering_doctor_id: number;
        department_id: number | null;
        raised_at: Date;
      }>(`select id, patient_id, ordering_doctor_id, department_id, raised_at from lab_critical_alerts where id = $1`, [
        alertId,
      ]);
      return row
        ? {
            id: row.id,
            patientId: row.patient_id,
            orderingDoctorId: row.ordering_doctor_id,
            departmentId: row.department_id,
            raisedAt: row.raised_at,
          }
        : undefined;
    },

    doctorDepartment: async (doctorId) => {
      const [row] = await db.query<{ department_id: number | null }>(
        `select department_id from doctors where id = $1`,
        [doctorId],
      );
      return row?.department_id ?? null;
    },
  };
}

type LabSubjectGender = 'male' | 'female' | 'other' | null;

interface ValueColumns {
  value_type: ObservationValue['type'];
  value_quantity: number | string | null;
  value_unit: string | null;
  value_code: string | null;
  value_text: string | null;
}

export const valueOfRow = (row: ValueColumns): ObservationValue =>
  row.value_type === 'quantity'
    ? { type: 'quantity', value: Number(row.value_quantity), unit: row.value_unit ?? '1' }
    : row.value_type === 'coded'
      ? { type: 'coded', code: row.value_code ?? '' }
      : { type: 'text', text: row.value_text ?? '' };

const at = (v: string | Date) => new Date(v);
const atOrNull = (v: string | Date | null) => (v === null ? null : new Date(v));

interface ViewRow {
  id: number;
  order_number: string;
  patient: { id: number; name: string; gender: OrderView['patient']['gender']; birth_date: string | null };
  doctor: { id: number; name: string };
  appointment_id: number | null;
  admission_id: number | null;
  priority: OrderView['priority'];
  status: OrderView['status'];
  clinical_note: string;
  ordered_at: Date;
  report: {
    id: number;
    status: OrderView['report']['status'];
    signed_off_at: string | null;
    released_at: string | null;
  };
  reviews: { doctor_id: number; doctor: string; reviewed_at: string; comment: string }[];
  alerts: {
    id: number;
    observation_id: number;
    version: number;
    raised_at: string;
    escalates_at: string;
    acknowledged_at: string | null;
    acknowledged_by: string | null;
  }[];
  items: {
    id: number;
    test_id: number;
    code: string;
    name: string;
    specimen_type: OrderView['items'][number]['specimenType'];
    result_type: OrderView['items'][number]['resultType'] | null;
    unit: string | null;
    status: OrderView['items'][number]['status'];
    specimen_code: string | null;
    collected_at: string | null;
  }[];
  observations: (ValueColumns & {
    id: number;
    order_item_id: number;
    code: string;
    display: string;
    interpretation: ObservationView['interpretation'];
    range_low: number | string | null;
    range_high: number | string | null;
    status: ObservationView['status'];
    version: number;
    effective_at: string;
    versions: (ValueColumns & {
      version: number;
      interpretation: ObservationView['interpretation'];
      status: ObservationView['status'];
      recorded_at: string;
      recorded_by: number;
      recorded_by_name: string | null;
      reason: string | null;
    })[];
  })[];
  charges: { name: string; price_cents: number; voided: boolean }[];
}

const toView = (row: ViewRow): OrderView => ({
  id: row.id,
  orderNumber: row.order_number,
  patient: {
    id: row.patient.id,
    name: row.patient.name,
    gender: row.patient.gender,
    birthDate: row.patient.birth_date,
  },
  doctor: row.doctor,
  appointmentId: row.appointment_id,
  admissionId: row.admission_id,
  priority: row.priority,
  status: row.status,
  clinicalNote: row.clinical_note,
  orderedAt: row.ordered_at,
  report: {
    id: row.report.id,
    status: row.report.status,
    signedOffAt: atOrNull(row.report.signed_off_at),
    releasedAt: atOrNull(row.report.released_at),
  },
  reviews: row.reviews.map((r) => ({
    doctorId: r.doctor_id,
    doctor: r.doctor,
    reviewedAt: at(r.reviewed_at),
    comment: r.comment,
  })),
  alerts: row.alerts.map((a) => ({
    id: a.id,
    observationId: a.observation_id,
    version: a.version,
    raisedAt: at(a.raised_at),
    escalatesAt: at(a.escalates_at),
    acknowledgedAt: atOrNull(a.acknowledged_at),
    acknowledgedBy: a.acknowledged_by,
  })),
  items: row.items.map((i) => ({
    id: i.id,
    testId: i.test_id,
    code: i.code,
    name: i.name,
    specimenType: i.specimen_type,
    resultType: i.result_type ?? 'text',
    unit: i.unit,
    status: i.status,
    specimenCode: i.specimen_code,
    collectedAt: atOrNull(i.collected_at),
  })),
  observations: row.observations.map((o) => ({
    id: o.id,
    itemId: o.order_item_id,
    code: o.code,
    name: o.display,
    value: valueOfRow(o),
    interpretation: o.interpretation,
    range:
      o.range_low === null && o.range_high === null
        ? null
        : {
            low: o.range_low === null ? null : Number(o.range_low),
            high: o.range_high === null ? null : Number(o.range_high),
          },
    status: o.status,
    version: o.version,
    effectiveAt: at(o.effective_at),
    versions: o.versions.map((v) => ({
      version: v.version,
      value: valueOfRow(v),
      interpretation: v.interpretation,
      status: v.status,
      recordedAt: at(v.recorded_at),
      recordedBy: v.recorded_by,
      recordedByName: v.recorded_by_name,
      reason: v.reason,
    })),
  })),
  charges: row.charges.map((c) => ({ name: c.name, priceCents: c.price_cents, voided: c.voided })),
});

const VIEW_SQL = `
  select o.id, o.order_number,
    json_build_object('id', p.id, 'name', pu.name, 'gender', p.gender, 'birth_date', p.birthdate) as patient,
    json_build_object('id', d.id, 'name', du.name) as doctor,
    o.appointment_id, o.admission_id, o.priority, o.status, o.clinical_note, o.ordered_at,
    json_build_object('id', r.id, 'status', r.status, 'signed_off_at', r.signed_off_at, 'released_at', r.released_at) as report,
    coalesce((select json_agg(json_build_object('doctor_id', rv.doctor_id, 'doctor', ru.name, 'reviewed_at', rv.reviewed_at,
                'comment', rv.comment) order by rv.reviewed_at)
              from lab_report_reviews rv join doctors rd on rd.id = rv.doctor_id join users ru on ru.id = rd.user_id
              where rv.report_id = r.id), '[]') as reviews,
    coalesce((select json_agg(json_build_object('id', a.id, 'observation_id', a.observation_id, 'version', a.version,
                'raised_at', a.raised_at, 'escalates_at', a.escalates_at, 'acknowledged_at', k.acknowledged_at,
                'acknowledged_by', ku.name) order by a.id)
              from lab_critical_alerts a join observations ao on ao.id = a.observation_id
                   left join lab_critical_acknowledgements k on k.alert_id = a.id
                   left join doctors kd on kd.id = k.doctor_id left join users ku on ku.id = kd.user_id
              where ao.report_id = r.id), '[]') as alerts,
    coalesce((select json_agg(json_build_object('id', i.id, 'test_id', i.test_id, 'code', t.code, 'name', t.name,
                'specimen_type', t.specimen_type, 'result_type', t.result_type, 'unit', t.unit, 'status', i.status,
                'specimen_code', s.specimen_code, 'collected_at', s.collected_at) order by i.id)
              from lab_order_items i join lab_tests t on t.id = i.test_id
                   left join lab_specimens s on s.order_item_id = i.id and s.rejected_at is null
              where i.order_id = o.id), '[]') as items,
    coalesce((select json_agg(json_build_object('id', ob.id, 'order_item_id', ob.order_item_id, 'code', ob.code,
                'display', ob.display, 'value_type', ob.value_type, 'value_quantity', ob.value_quantity,
                'value_unit', ob.value_unit, 'value_code', ob.value_code, 'value_text', ob.value_text,
                'interpretation', ob.interpretation, 'range_low', ob.range_low, 'range_high', ob.range_high,
                'status', ob.status, 'version', ob.version, 'effective_at', ob.effective_at,
                'versions', (select json_agg(json_build_object('version', v.version, 'value_type', v.value_type,
                    'value_quantity', v.value_quantity, 'value_unit', v.value_unit, 'value_code', v.value_code,
                    'value_text', v.value_text, 'interpretation', v.interpretation, 'status', v.status,
                    'recorded_at', v.recorded_at, 'recorded_by', v.recorded_by, 'recorded_by_name', vu.name,
                    'reason', v.reason) order by v.version)
                  from observation_versions v left join users vu on vu.id = v.recorded_by
                  where v.observation_id = ob.id)) order by ob.order_item_id)
              from observations ob where ob.report_id = r.id), '[]') as observations,
    coalesce((select json_agg(json_build_object('name', ct.name, 'price_cents', c.price_cents,
                'voided', c.voided_at is not null) order by c.test_id)
              from lab_order_charges c join lab_tests ct on ct.id = c.test_id where c.order_id = o.id), '[]') as charges
  from lab_orders o join lab_reports r on r.order_id = o.id
       join patients p on p.id = o.patient_id join users pu on pu.id = p.user_id
       join doctors d on d.id = o.doctor_id join users du on du.id = d.user_id
  where o.id = any($1::int[])`;

const SIGNED_OFF_SQL = `r.status in ('final', 'corrected', 'amended')`;

interface UnmatchedRow extends ValueColumns {
  id: number;
  source: string;
  message_id: string;
  order_number: string;
  code_system: UnmatchedResult['codeSystem'];
  code: string;
  effective_at: Date;
  received_at: Date;
  status: UnmatchedResult['status'];
}

const toUnmatched = (row: UnmatchedRow): UnmatchedResult => ({
  id: row.id,
  source: row.source,
  messageId: row.message_id,
  orderNumber: row.order_number,
  codeSystem: row.code_system,
  code: row.code,
  value: valueOfRow(row),
  effectiveAt: row.effective_at,
  receivedAt: row.received_at,
  status: row.status,
});

/** The views of orders, results, the unmatched list and the catalogue's edits. */
function viewQueries(
  db: Queryable,
): Pick<
  LabStore,
  | 'orderIds'
  | 'orderViews'
  | 'orderOfObservation'
  | 'observationHistory'
  | 'writeVersion'
  | 'review'
  | 'release'
  | 'unmatched'
  | 'lockUnmatched'
  | 'resolveUnmatched'
  | 'orderIdByNumber'
  | 'catalogue'
  | 'createTest'
  | 'testIdsByCode'
  | 'lockTest'
  | 'updateTest'
> {
  const paged = async (where: string, order: string, params: unknown[], page: { page: number; perPage: number }) => {
    const n = params.length;
    const rows = await db.query<{ id: number; total: number }>(
      `select o.id, count(*) over ()::int as total
       from lab_orders o join lab_reports r on r.order_id = o.id
       where ${where} order by ${order} limit $${n + 1} offset $${n + 2}`,
      [...params, page.perPage, offsetOf({ q: '', ...page })],
    );
    return {
      items: rows.map((row) => row.id),
      total: rows[0]?.total ?? 0,
      totalIsLowerBound: false,
      page: page.page,
      perPage: page.perPage,
    };
  };

  return {
    orderIds: async (filter, page) => {
      switch (filter.kind) {
        case 'patient':
          return paged('o.patient_id = $1', 'o.ordered_at desc, o.id desc', [filter.patientId], page);
        case 'to_review':
          return paged(
            `o.doctor_id = $1 and o.awaiting_review and ${SIGNED_OFF_SQL}
             and not exists (select 1 from lab_report_reviews rv where rv.report_id = r.id and rv.doctor_id = $1)`,
            'r.signed_off_at, o.id',
            [filter.doctorId],
            page,
          );
        case 'worklist':
          return paged(
            `o.status in ('ordered', 'collected')`,
            `case o.priority when 'stat' then 0 when 'urgent' then 1 else 2 end, o.ordered_at, o.id`,
            [],
            page,
          );
        case 'number':
          return paged('o.order_number = $1', 'o.id', [filter.orderNumber], page);
        case 'released':
          return paged(
            `o.patient_id = $1 and ${SIGNED_OFF_SQL}
             and (r.released_at <= $2
                  or ($3::int is not null and r.signed_off_at + make_interval(days => $3::int) <= $2))`,
            'o.ordered_at desc, o.id desc',
            [filter.patientId, filter.now, filter.autoReleaseDays],
            page,
          );
      }
    },

    orderViews: async (ids) => {
      const rows = await db.query<ViewRow>(VIEW_SQL, [ids]);
      const byId = new Map(rows.map((row) => [row.id, toView(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    orderOfObservation: async (observationId) => {
      const [row] = await db.query<{ order_id: number }>(
        `select i.order_id from observations ob join lab_order_items i on i.id = ob.order_item_id where ob.id = $1`,
        [observationId],
      );
      return row?.order_id;
    },

    observationHistory: async (observationId) => {
      const [row] = await db.query<{ item_id: number; test_id: number; effective_at: Date }>(
        `select ob.order_item_id as item_id, i.test_id, ob.effective_at
         from observations ob join lab_order_items i on i.id = ob.order_item_id where ob.id = $1`,
        [observationId],
      );
      if (!row) return undefined;
      const versions = await db.query<
        ValueColumns & {
          version: number;
          status: ObservationView['status'];
          recorded_at: Date;
          recorded_by: number;
          reason: string | null;
        }
      >(
        `select version, value_type, value_quantity, value_unit, value_code, value_text, status, recorded_at,
                recorded_by, reason
         from observation_versions where observation_id = $1 order by version`,
        [observationId],
      );
      return {
        itemId: row.item_id,
        testId: row.test_id,
        effectiveAt: row.effective_at,
        history: versions.map((v) => ({
          version: v.version,
          value: valueOfRow(v),
          status: v.status,
          recordedAt: v.recorded_at,
          recordedBy: v.recorded_by,
          reason: v.reason,
        })),
      };
    },

    writeVersion: async (observationId, version, read, reportId, reportStatus) => {
      const v = version.value;
      const rows = await db.query<{ id: number }>(
        `with ob as (
           update observations set value_type = $3, value_quantity = $4, value_unit = $5, value_code = $6,
             value_text = $7, interpretation = $8, range_low = $9, range_high = $10, status = $11, version = $2
           where id = $1 and version = $2 - 1 returning id),
         ver as (
           insert into observation_versions (observation_id, version, value_type, value_quantity, value_unit,
             value_code, value_text, interpretation, status, recorded_at, recorded_by, reason)
           select id, $2, $3, $4, $5, $6, $7, $8, $11, $12, $13, $14 from ob),
         rep as (update lab_reports set status = $16, updated_at = $12, row_version = row_version + 1
                 where id = $15 and exists (select 1 from ob))
         select id from ob`,
        [
          observationId,
          version.version,
          v.type,
          v.type === 'quantity' ? v.value : null,
          v.type === 'quantity' ? v.unit : null,
          v.type === 'coded' ? v.code : null,
          v.type === 'text' ? v.text : null,
          read.interpretation,
          read.range?.low ?? null,
          read.range?.high ?? null,
          version.status,
          version.recordedAt,
          version.recordedBy,
          version.reason,
          reportId,
          reportStatus,
        ],
      );
      return rows.length > 0;
    },

    review: async (reportId, doctorId, reviewedAt, comment) => {
      await db.query(
        `insert into lab_report_reviews (report_id, doctor_id, reviewed_at, comment) values ($1, $2, $3, $4)
         on conflict (report_id, doctor_id) do update set reviewed_at = excluded.reviewed_at, comment = excluded.comment`,
        [reportId, doctorId, reviewedAt, comment],
      );
    },

    release: async (reportId, by, releasedAt) => {
      const rows = await db.query(
        `update lab_reports set released_at = $3, released_by = $2, row_version = row_version + 1
         where id = $1 and released_at is null and signed_off_at is not null returning id`,
        [reportId, by, releasedAt],
      );
      return rows.length > 0;
    },

    unmatched: async (page) => {
      const rows = await db.query<UnmatchedRow & { total: number }>(
        `select *, count(*) over ()::int as total from lab_unmatched_results where status = 'pending'
         order by received_at, id limit $1 offset $2`,
        [page.perPage, offsetOf(page)],
      );
      return {
        items: rows.map(toUnmatched),
        total: rows[0]?.total ?? 0,
        totalIsLowerBound: false,
        page: page.page,
        perPage: page.perPage,
      };
    },

    lockUnmatched: async (id) => {
      const [row] = await db.query<UnmatchedRow>(
        `select * from lab_unmatched_results where id = $1 and status = 'pending' for update`,
        [id],
      );
      return row ? toUnmatched(row) : undefined;
    },

    resolveUnmatched: async (id, r) => {
      await db.query(
        `update lab_unmatched_results set status = $2, resolved_by = $3, resolved_at = $4, resolution_note = $5,
           observation_id = $6 where id = $1`,
        [id, r.status, r.by, r.at, r.note, r.observationId],
      );
    },

    orderIdByNumber: async (orderNumber) => {
      const [row] = await db.query<{ id: number }>(`select id from lab_orders where order_number = $1`, [orderNumber]);
      return row?.id;
    },

    catalogue: async (page) => {
      const rows = await db.query<TestRow & { total: number }>(
        `select ${TEST_COLUMNS}, count(*) over ()::int as total from lab_tests t
         where $1 = '' or lower(t.name) like $2 or t.code = $1
         order by t.category, t.kind desc, t.name, t.id limit $3 offset $4`,
        [page.q, containsPattern(page.q), page.perPage, offsetOf(page)],
      );
      return {
        items: rows.map(toCatalogueTest),
        total: rows[0]?.total ?? 0,
        totalIsLowerBound: false,
        page: page.page,
        perPage: page.perPage,
      };
    },

    // A code taken is answered as undefined without an error, which would abort an import's whole transaction.
    createTest: async (t) => {
      const [row] = await db.query<{ id: number }>(
        `with t as (
           insert into lab_tests (kind, category, code_system, code, name, specimen_type, result_type, unit,
             physical_low, physical_high, price_cents, turnaround_minutes, created_at, updated_at, answers)
           values ($17, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $16, $16, $18)
           on conflict (code_system, code) do nothing returning id),
         m as (insert into lab_panel_members (panel_id, test_id, position)
               select t.id, x.test_id, x.ord - 1 from t, unnest($19::int[]) with ordinality x(test_id, ord)),
         r as (insert into lab_reference_ranges (test_id, sex, low, high)
               select id, 'any', $12, $13 from t where $12::numeric is not null or $13::numeric is not null),
         c as (insert into lab_critical_limits (test_id, sex, low, high)
               select id, 'any', $14, $15 from t where $14::numeric is not null or $15::numeric is not null)
         select id from t`,
        [
          t.category,
          t.codeSystem,
          t.code,
          t.name,
          t.specimenType,
          t.resultType,
          t.unit,
          t.physicalLow,
          t.physicalHigh,
          t.priceCents,
          t.turnaroundMinutes,
          t.range?.low ?? null,
          t.range?.high ?? null,
          t.critical?.low ?? null,
          t.critical?.high ?? null,
          t.at,
          t.kind,
          t.answers,
          t.memberIds,
        ],
      );
      return row?.id;
    },

    testIdsByCode: async (codes) => {
      const rows = await db.query<{ id: number; code: string }>(
        `select id, code from lab_tests where kind = 'test' and code = any($1::text[])`,
        [codes],
      );
      return new Map(rows.map((r) => [r.code, r.id]));
    },

    lockTest: async (id) => {
      const [locked] = await db.query<{ id: number }>(`select id from lab_tests where id = $1 for update`, [id]);
      if (!locked) return undefined;
      const [row] = await db.query<TestRow>(`select ${TEST_COLUMNS} from lab_tests t where t.id = $1`, [id]);
      return row ? toCatalogueTest(row) : undefined;
    },

    updateTest: async (id, change, updatedAt) => {
      await db.query(
        `update lab_tests set name = $2, price_cents = $3, turnaround_minutes = $4, active = $5, updated_at = $6,
           physical_low = case when $7 then $8::numeric else physical_low end,
           physical_high = case when $7 then $9::numeric else physical_high end,
           row_version = row_version + 1 where id = $1`,
        [
          id,
          change.name,
          change.priceCents,
          change.turnaroundMinutes,
          change.active,
          updatedAt,
          change.physical !== undefined,
          change.physical?.low ?? null,
          change.physical?.high ?? null,
        ],
      );
      for (const [table, bands] of [
        ['lab_reference_ranges', change.ranges],
        ['lab_critical_limits', change.criticalLimits],
      ] as const) {
        if (bands === undefined) continue;
        await db.query(`delete from ${table} where test_id = $1`, [id]);
        if (bands.length === 0) continue;
        await db.query(
          `insert into ${table} (test_id, sex, age_from_days, age_to_days, low, high)
           select $1, b.sex, b.age_from_days, b.age_to_days, b.low, b.high
           from jsonb_to_recordset($2::jsonb) as b(sex text, age_from_days integer, age_to_days integer, low numeric, high numeric)`,
          [
            id,
            JSON.stringify(
              bands.map((b) => ({
                sex: b.sex,
                age_from_days: b.ageFromDays,
                age_to_days: b.ageToDays,
                low: b.low,
                high: b.high,
              })),
            ),
          ],
        );
      }
    },
  };
}
