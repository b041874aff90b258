import type { ModulePaths } from '../module-paths.ts';
import { DESK_ROLES } from '../../../domain/shared/actor.ts';
import {
  AdjustBillShape,
  AdjustmentResultShape,
  BalanceShape,
  BillAdjustmentShape,
  BillingShape,
  CardWebhookAnswerShape,
  CheckoutResultShape,
  IdempotencyKeyHeader,
  PayBillShape,
  PaymentOptionsShape,
  PaymentResultShape,
  ReceiptShape,
  TakePaymentShape,
  TakingsQuery,
  TakingsShape,
  TakenPaymentShape,
} from '../../../domain/billing/billing-shapes.ts';
import { anyObject, listOf, ref, string } from '../../../domain/shared/wire-schema.ts';
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
    TakenPayment: TakenPaymentShape,
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
    'GET /api/patient/payment-options': {
      summary: 'How I may pay',
      description:
        'Patients only: whether bills may be paid online by card, the bank details for a transfer (quote the bill number), and the desk.',
      access: 'patient',
      answers: { 200: PaymentOptionsShape },
    },
    'POST /api/patient/billings/{id}/pay': {
      summary: 'Pay my bill online',
      description:
        "Patients only, their own bill (another's → 404). Opens a checkout of the balance on the card processor's page and answers its address: " +
        "the bill is not paid yet; it is paid when the processor's signed webhook says so. While a checkout of the bill is open, the same one is " +
        'answered again. The body may be empty. Any method but `card` → 422 naming `method`. No card processor configured → 409 ' +
        '`online_payment_off`, its message saying how to pay instead; paid in full already → 409 `bill_already_paid`; a checkout of another ' +
        'amount still open → 409 `checkout_under_way`; the processor unreachable → 503 `card_processor_unavailable`.',
      access: 'patient',
      body: PayBillShape,
      answers: { 200: CheckoutResultShape },
      errors: [409],
    },
    'POST /api/card-payments/webhook': {
      summary: "The card processor's webhook",
      description:
        "For Stripe only: a Stripe event, its `Stripe-Signature` checked against STRIPE_WEBHOOK_SECRET over the body's bytes (a missing or " +
        'forged signature → 400 `bad_signature`). `checkout.session.completed` (paid) and `checkout.session.async_payment_succeeded` pay the ' +
        "checkout's bill, once whatever the number and order of deliveries; `checkout.session.expired` closes the checkout; others are received " +
        'and ignored. No card processor configured → 409 `online_payment_off`.',
      access: 'public',
      headers: { 'Stripe-Signature': string({ description: "Stripe's signature of the body" }) },
      body: anyObject('A Stripe event'),
      answers: { 200: CardWebhookAnswerShape },
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
      summary: "A day's takings per method, and each payment",
      description:
        "Reception and admins: the payments taken on `date` (default today; the day in the clinic's zone) per method, every method listed, and their total; then `taken`, each payment of the day oldest first with its patient, bill, method, amount and who took it (null: paid online).",
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
