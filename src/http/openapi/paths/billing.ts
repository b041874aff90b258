import type { ModulePaths } from '../module-paths.ts';
import { DESK_ROLES } from '../../../domain/shared/actor.ts';
import {
  AdjustBillShape,
  AdjustmentResultShape,
  BalanceShape,
  BillAdjustmentShape,
  BillingShape,
  IdempotencyKeyHeader,
  PayBillShape,
  PaymentResultShape,
  ReceiptShape,
  TakePaymentShape,
  TakingsQuery,
  TakingsShape,
} from '../../../domain/billing/billing-shapes.ts';
import { listOf, ref, string } from '../../../domain/shared/wire-schema.ts';
import { pageQuery } from '../components.ts';

/** The operations of src/http/routes/billing.ts. */
export const billingPaths: ModulePaths = {
  tag: 'Billing',
  description:
    "Bills, payments, receipts and the desk's takings. A recorded visit with a cost raises one bill (a hospital stay raises its own). A bill is paid in " +
    'one or more payments up to its amount: online the patient pays the balance of their own by card (no card processor is connected yet: the payment ' +
    'is recorded as paid); the front desk (reception and admins) records card, cash, bank transfer or insurance for any amount up to the balance. ' +
    'A bill paid in full already is 409 `bill_already_paid`; send an `Idempotency-Key` so a retried payment gets the first answer back. A bill never ' +
    'changes by editing, only by an adjustment: a credit note (lowers what it asks for) or a supplementary bill (a new bill linked to it). ' +
    'Amounts are given twice: a decimal string with two places and integer cents (USD).',
  schemas: {
    Billing: BillingShape,
    BillAdjustment: BillAdjustmentShape,
    Receipt: ReceiptShape,
  },
  operations: {
    'GET /api/patients/{id}/billings': {
      summary: "A patient's bills",
      description: 'Reception and admins; audited. Newest first; `q` searches the service.',
      access: [...DESK_ROLES],
      query: pageQuery,
      answers: { 200: listOf('billings', ref(BillingShape)) },
    },
    'GET /api/patient/billings': {
      summary: 'My bills',
      description: 'Patients only, their own, newest first.',
      access: 'patient',
      query: pageQuery,
      answers: { 200: listOf('billings', ref(BillingShape)) },
    },
    'GET /api/patient/balance': {
      summary: 'What I owe',
      access: 'patient',
      description: 'Patients only: the balance and number of their bills not paid in full.',
      answers: { 200: BalanceShape },
    },
    'POST /api/patient/billings/{id}/pay': {
      summary: 'Pay my bill',
      description:
        "Patients only, their own bill (another's → 404): the balance, by card through the card processor port; audited, a receipt e-mailed. " +
        'The body may be empty. Any method but `card` → 422 naming `method` (cash, bank transfer and insurance are recorded by the desk). ' +
        'Paid in full already → 409 `bill_already_paid`.',
      access: 'patient',
      headers: IdempotencyKeyHeader,
      body: PayBillShape,
      answers: { 200: PaymentResultShape },
      errors: [409],
    },
    'POST /api/billings/{id}/payments': {
      summary: 'Take a payment at the desk',
      description:
        "Reception and admins; audited, a receipt e-mailed to the patient. Card (the desk's terminal), cash, bank transfer or insurance, for `amount` " +
        'up to the balance (the whole balance when none is given; more → 422 naming `amount`). Paid in full already → 409 `bill_already_paid`.',
      access: [...DESK_ROLES],
      headers: IdempotencyKeyHeader,
      body: TakePaymentShape,
      answers: { 200: PaymentResultShape },
      errors: [409],
    },
    'POST /api/billings/{id}/adjustments': {
      summary: 'Adjust a bill',
      description:
        'Reception and admins; audited. `credit`: a credit note of `amount` up to what the bill still asks for (its amount less earlier credit notes; ' +
        'more → 422 naming `amount`, nothing left → 409 `bill_fully_credited`); what was paid beyond the new amount shows as `refund_due`. ' +
        '`supplementary`: a new bill of `amount` for the same patient, dated today, linked to this one and paid like any bill. `reason` is required. ' +
        'Send an `Idempotency-Key` so a double submit adjusts once.',
      access: [...DESK_ROLES],
      headers: IdempotencyKeyHeader,
      body: AdjustBillShape,
      answers: { 201: AdjustmentResultShape },
      errors: [409],
    },
    'GET /api/desk/takings': {
      summary: "A day's takings per method",
      description:
        "Reception and admins: the payments taken on `date` (default today; the day in the clinic's zone) per method, every method listed, and their total.",
      access: [...DESK_ROLES],
      query: TakingsQuery,
      answers: { 200: TakingsShape },
    },
    'GET /api/desk/takings.csv': {
      summary: "A day's takings as CSV",
      description:
        'The takings as an RFC 4180 CSV attachment: columns date, method, payments, amount, amount_cents, currency; one row per method, then a `total` row.',
      access: [...DESK_ROLES],
      query: TakingsQuery,
      answers: { 200: { content: { 'text/csv': string() } } },
    },
    'GET /api/billings/{id}/receipt': {
      summary: "A bill's receipt",
      description:
        "The owning patient, reception and admins (another patient's bill → 404); the desk's read is audited. A receipt for a paid bill, an invoice " +
        'for an unpaid one (`amount_paid` 0, no payment date or method).',
      access: ['patient', ...DESK_ROLES],
      answers: { 200: ref(ReceiptShape) },
    },
  },
};
