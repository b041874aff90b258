import type { Adjustment, AdjustmentKind } from '../domain/billing/adjustments.ts';
import type { Bill, Payment, PaymentMethod, PaymentStatus, TakenPayment } from '../domain/billing/billing.ts';
import type {
  AdjustmentStore,
  BillStore,
  IdempotencyStore,
  PaymentStore,
  RememberedAnswer,
} from '../domain/billing/ports.ts';
import { idempotencyKeyReused } from '../domain/billing/billing.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { onlyRow, readBack } from './rows.ts';
import { UNIQUE_VIOLATION, sqlState } from './sql-errors.ts';

// A bill's adjustments come with it, oldest first: a page of bills reads them by the index on billing_id.
export const BILL_COLUMNS = `b.id, b.patient_id, u.name as patient_name, u.email as patient_email,
  p.birthdate as patient_birth_date, b.service_details,
  b.amount_cents, b.paid_cents, b.credited_cents, b.supplements_id, b.billing_date, b.payment_status,
  coalesce((select json_agg(json_build_object('id', ba.id, 'kind', ba.kind, 'amount_cents', ba.amount_cents, 'reason', ba.reason,
              'supplementary_billing_id', ba.supplementary_billing_id, 'created_at', ba.created_at) order by ba.created_at, ba.id)
              from bill_adjustments ba where ba.billing_id = b.id), '[]') as adjustments`;
const BILL_JOINS = `join patients p on p.id = b.patient_id join users u on u.id = p.user_id`;
export const BILL_FROM = `billings b ${BILL_JOINS}`;
/** The bill a statement in `with b as (…)` wrote, as BILL_COLUMNS reads it: no second round trip to read it back. */
const WRITTEN_BILL = `select ${BILL_COLUMNS} from b ${BILL_JOINS}`;

/** A row of BILL_COLUMNS. */
export interface BillRow {
  id: number;
  patient_id: number;
  patient_name: string;
  patient_email: string;
  patient_birth_date: string | null;
  service_details: string;
  amount_cents: number;
  paid_cents: number;
  credited_cents: number;
  supplements_id: number | null;
  billing_date: string;
  payment_status: PaymentStatus;
  adjustments: AdjustmentSql[];
}

/** An adjustment as json_build_object writes it: the timestamp as text. */
interface AdjustmentSql {
  id: number;
  kind: AdjustmentKind;
  amount_cents: number;
  reason: string;
  supplementary_billing_id: number | null;
  created_at: string;
}

const toAdjustment = (a: AdjustmentSql): Adjustment => ({
  id: a.id,
  kind: a.kind,
  amountCents: Number(a.amount_cents),
  reason: a.reason,
  supplementaryBillId: a.supplementary_billing_id,
  createdAt: new Date(a.created_at),
});

export function toBill(row: BillRow): Bill {
  return {
    id: row.id,
    patient: { id: row.patient_id, name: row.patient_name, email: row.patient_email },
    patientBirthDate: row.patient_birth_date,
    serviceDetails: row.service_details,
    amountCents: row.amount_cents,
    paidCents: row.paid_cents,
    creditedCents: row.credited_cents,
    supplementsId: row.supplements_id,
    adjustments: row.adjustments.map(toAdjustment),
    billingDate: row.billing_date,
    paymentStatus: row.payment_status,
  };
}

export function billStore(db: Queryable): BillStore {
  const findOne = async (id: number) => {
    const [row] = await db.query<BillRow>(`select ${BILL_COLUMNS} from ${BILL_FROM} where b.id = $1`, [id]);
    return row ? toBill(row) : undefined;
  };
  return {
    create: async (bill) => {
      const rows = await db.query<BillRow>(
        `with b as (insert into billings (patient_id, medical_record_id, service_details, amount_cents, billing_date, supplements_id, doctor_id)
                    values ($1, $2, $3, $4, $5, $6, coalesce(
                      (select doctor_id from medical_records where id = $2),
                      (select doctor_id from billings where id = $6))) returning *)
         ${WRITTEN_BILL}`,
        [
          bill.patientId,
          bill.medicalRecordId,
          bill.serviceDetails,
          bill.amountCents,
          bill.billingDate,
          bill.supplementsId ?? null,
        ],
      );
      return toBill(onlyRow(rows));
    },
    find: findOne,
    lock: async (id) => {
      const [row] = await db.query<BillRow>(
        `select ${BILL_COLUMNS} from ${BILL_FROM} where b.id = $1 for update of b`,
        [id],
      );
      return row ? toBill(row) : undefined;
    },
    addPaid: async (id, cents) => {
      // The status follows the paid sum against the amount less credit notes; the table's checks refuse a sum past
      // the amount or a status that disagrees.
      const rows = await db.query<BillRow>(
        `with b as (update billings set paid_cents = paid_cents + $2,
                           payment_status = case when paid_cents + $2 >= amount_cents - credited_cents then 'paid' else 'partly_paid' end
                     where id = $1 returning *)
         ${WRITTEN_BILL}`,
        [id, cents],
      );
      return toBill(readBack(rows[0], 'A bill'));
    },
    listForPatient: async (patientId, page) => {
      const filter = [patientId, containsPattern(page.q)];
      const where = `b.patient_id = $1 and lower(b.service_details) like $2`;
      return pageWithTotal(
        db,
        page,
        {
          columns: BILL_COLUMNS,
          rowsOf: `from ${BILL_FROM} where ${where}`,
          countOf: `from billings b where ${where}`,
          orderBy: 'b.billing_date desc, b.id desc',
          params: filter,
        },
        toBill,
      );
    },
    outstandingFor: async (patientId) => {
      const rows = await db.query<{ cents: number; count: number }>(
        `select coalesce(sum(amount_cents - credited_cents - paid_cents), 0)::bigint as cents, count(*)::int as count
           from billings where patient_id = $1 and payment_status <> 'paid'`,
        [patientId],
      );
      return onlyRow(rows);
    },
    visitOf: async (id) => {
      const [row] = await db.query<{ doctor_name: string; visit_date: string }>(
        `select du.name as doctor_name, a.date as visit_date
           from billings b
           left join billings o on o.id = b.supplements_id
           join medical_records r on r.id = coalesce(b.medical_record_id, o.medical_record_id)
           join appointments a on a.id = r.appointment_id
           join doctors d on d.id = r.doctor_id join users du on du.id = d.user_id
          where b.id = $1`,
        [id],
      );
      return row && { doctorName: row.doctor_name, visitDate: row.visit_date };
    },
  };
}

/** A row of payments. */
interface PaymentRow {
  id: number;
  billing_id: number;
  amount_cents: number;
  method: PaymentMethod;
  paid_at: Date;
}

export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    billingId: row.billing_id,
    amountCents: row.amount_cents,
    method: row.method,
    paidAt: row.paid_at,
  };
}

/** A payment with the name of the desk member who took it (none for one taken online). */
const TAKEN_PAYMENT_COLUMNS = `pay.id, pay.billing_id, pay.amount_cents, pay.method, pay.paid_at, tu.name as taken_by`;
const TAKEN_PAYMENT_FROM = `payments pay left join users tu on tu.id = pay.recorded_by`;

type TakenPaymentRow = PaymentRow & { taken_by: string | null };

const toTakenPayment = (row: TakenPaymentRow): TakenPayment => ({ ...toPayment(row), takenBy: row.taken_by });

export function paymentStore(db: Queryable): PaymentStore {
  return {
    create: async (p) => {
      const rows = await db.query<PaymentRow>(
        `insert into payments (billing_id, patient_id, amount_cents, method, paid_at, recorded_by, card_checkout_id)
         values ($1, $2, $3, $4, $5, $6, $7)
         returning id, billing_id, amount_cents, method, paid_at`,
        [p.billingId, p.patientId, p.amountCents, p.method, p.paidAt, p.recordedBy, p.cardCheckoutId ?? null],
      );
      return toPayment(onlyRow(rows));
    },
    listForBill: async (billingId) => {
      const rows = await db.query<TakenPaymentRow>(
        `select ${TAKEN_PAYMENT_COLUMNS} from ${TAKEN_PAYMENT_FROM} where pay.billing_id = $1 order by pay.paid_at, pay.id`,
        [billingId],
      );
      return rows.map(toTakenPayment);
    },
    takenBetween: async (from, to) => {
      const rows = await db.query<TakenPaymentRow & { patient_id: number; patient_name: string }>(
        `select ${TAKEN_PAYMENT_COLUMNS}, pay.patient_id, pu.name as patient_name
           from ${TAKEN_PAYMENT_FROM}
           join patients p on p.id = pay.patient_id join users pu on pu.id = p.user_id
          where pay.paid_at >= $1 and pay.paid_at < $2 order by pay.paid_at, pay.id`,
        [from, to],
      );
      return rows.map((row) => ({ ...toTakenPayment(row), patient: { id: row.patient_id, name: row.patient_name } }));
    },
  };
}

export function idempotencyStore(db: Queryable): IdempotencyStore {
  return {
    find: async (userId, key) => {
      // body is the jsonb `save` wrote from a payment's or an adjustment's result.
      const [row] = await db.query<{ request: string; body: RememberedAnswer['result'] }>(
        `select request, body from idempotency_keys where user_id = $1 and key = $2`,
        [userId, key],
      );
      return row ? { request: row.request, result: row.body } : undefined;
    },
    save: async (userId, key, answer) => {
      try {
        await db.query(`insert into idempotency_keys (user_id, key, request, body) values ($1, $2, $3, $4)`, [
          userId,
          key,
          answer.request,
          JSON.stringify(answer.result),
        ]);
      } catch (error) {
        // Two requests with one key on two bills both found the key unused; the later insert loses the race.
        if (sqlState(error) === UNIQUE_VIOLATION) throw idempotencyKeyReused();
        throw error;
      }
    },
  };
}

/** A row of bill_adjustments. */
interface AdjustmentRow {
  id: number;
  kind: AdjustmentKind;
  amount_cents: number;
  reason: string;
  supplementary_billing_id: number | null;
  created_at: Date;
}

export function adjustmentStore(db: Queryable): AdjustmentStore {
  return {
    create: async (a) => {
      const rows = await db.query<AdjustmentRow>(
        `insert into bill_adjustments (billing_id, kind, amount_cents, reason, supplementary_billing_id, created_by, created_at)
         values ($1, $2, $3, $4, $5, $6, $7) returning id, kind, amount_cents, reason, supplementary_billing_id, created_at`,
        [a.billingId, a.kind, a.amountCents, a.reason, a.supplementaryBillId, a.createdBy, a.createdAt],
      );
      const row = onlyRow(rows);
      return {
        id: row.id,
        kind: row.kind,
        amountCents: row.amount_cents,
        reason: row.reason,
        supplementaryBillId: row.supplementary_billing_id,
        createdAt: row.created_at,
      };
    },
    credit: async (billingId, cents) => {
      // In SET every column reads its old value; the table's checks refuse a credit past the amount.
      await db.query(
        `update billings set credited_cents = credited_cents + $2,
                payment_status = case when paid_cents >= amount_cents - credited_cents - $2 then 'paid'
                                      when paid_cents = 0 then 'unpaid' else 'partly_paid' end
          where id = $1`,
        [billingId, cents],
      );
    },
  };
}
