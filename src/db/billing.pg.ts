import type { Bill, Payment, PaymentMethod, PaymentResult, PaymentStatus } from '../domain/billing/billing.ts';
import type { BillStore, IdempotencyStore, PaymentStore } from '../domain/billing/ports.ts';
import { idempotencyKeyReused } from '../domain/billing/billing.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { onlyRow, readBack } from './rows.ts';
import { UNIQUE_VIOLATION, sqlState } from './sql-errors.ts';

export const BILL_COLUMNS = `b.id, b.patient_id, u.name as patient_name, u.email as patient_email, b.service_details,
  b.amount_cents, b.paid_cents, b.billing_date, b.payment_status`;
export const BILL_FROM = `billings b join patients p on p.id = b.patient_id join users u on u.id = p.user_id`;

/** A row of BILL_COLUMNS. */
export interface BillRow {
  id: number;
  patient_id: number;
  patient_name: string;
  patient_email: string;
  service_details: string;
  amount_cents: number;
  paid_cents: number;
  billing_date: string;
  payment_status: PaymentStatus;
}

export function toBill(row: BillRow): Bill {
  return {
    id: row.id,
    patient: { id: row.patient_id, name: row.patient_name, email: row.patient_email },
    serviceDetails: row.service_details,
    amountCents: row.amount_cents,
    paidCents: row.paid_cents,
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
      const rows = await db.query<{ id: number }>(
        `insert into billings (patient_id, medical_record_id, service_details, amount_cents, billing_date)
         values ($1, $2, $3, $4, $5) returning id`,
        [bill.patientId, bill.medicalRecordId, bill.serviceDetails, bill.amountCents, bill.billingDate],
      );
      return readBack(await findOne(onlyRow(rows).id), 'A bill');
    },
    find: findOne,
    lock: async (id) => {
      const [row] = await db.query<BillRow>(`select ${BILL_COLUMNS} from ${BILL_FROM} where b.id = $1 for update of b`, [id]);
      return row ? toBill(row) : undefined;
    },
    addPaid: async (id, cents) => {
      // The status follows the paid sum; the table's checks refuse a sum past the amount or a status that disagrees.
      await db.query(
        `update billings set paid_cents = paid_cents + $2,
                payment_status = case when paid_cents + $2 = amount_cents then 'paid' else 'partly_paid' end
          where id = $1`,
        [id, cents],
      );
      return readBack(await findOne(id), 'A bill');
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
        `select coalesce(sum(amount_cents - paid_cents), 0)::bigint as cents, count(*)::int as count
           from billings where patient_id = $1 and payment_status <> 'paid'`,
        [patientId],
      );
      return onlyRow(rows);
    },
    visitOf: async (id) => {
      const [row] = await db.query<{ doctor_name: string; visit_date: string }>(
        `select du.name as doctor_name, a.date as visit_date
           from billings b
           join medical_records r on r.id = b.medical_record_id
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
  return { id: row.id, billingId: row.billing_id, amountCents: row.amount_cents, method: row.method, paidAt: row.paid_at };
}

export function paymentStore(db: Queryable): PaymentStore {
  return {
    create: async (p) => {
      const rows = await db.query<PaymentRow>(
        `insert into payments (billing_id, patient_id, amount_cents, method, paid_at) values ($1, $2, $3, $4, $5)
         returning id, billing_id, amount_cents, method, paid_at`,
        [p.billingId, p.patientId, p.amountCents, p.method, p.paidAt],
      );
      return toPayment(onlyRow(rows));
    },
    listForBill: async (billingId) => {
      const rows = await db.query<PaymentRow>(
        `select id, billing_id, amount_cents, method, paid_at from payments where billing_id = $1 order by paid_at, id`,
        [billingId],
      );
      return rows.map(toPayment);
    },
    takings: async (from, to) =>
      db.query<{ method: PaymentMethod; payments: number; cents: number }>(
        `select method, count(*)::int as payments, sum(amount_cents)::bigint as cents
           from payments where paid_at >= $1 and paid_at < $2 group by method`,
        [from, to],
      ),
  };
}

export function idempotencyStore(db: Queryable): IdempotencyStore {
  return {
    find: async (userId, key) => {
      // body is the jsonb `save` wrote from a PaymentResult.
      const [row] = await db.query<{ request: string; body: PaymentResult }>(`select request, body from idempotency_keys where user_id = $1 and key = $2`, [
        userId,
        key,
      ]);
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
