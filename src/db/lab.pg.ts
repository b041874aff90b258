import type { CatalogueTest } from '../domain/lab/catalogue.ts';
import type { LabStore, LockedOrder } from '../domain/lab/ports.ts';
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
  };
}

const TEST_COLUMNS = `t.id, t.kind, t.category, t.code_system, t.code, t.name, t.specimen_type, t.result_type, t.unit,
  t.physical_low, t.physical_high, t.answers, t.price_cents, t.turnaround_minutes, t.active,
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
      return rows.length;
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
