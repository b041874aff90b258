import type { ModulePaths } from '../module-paths.ts';
import { DESK_ROLES } from '../../../domain/shared/actor.ts';
import { CURRENCY, ONLINE_PAYMENT_METHOD, PAYMENT_METHODS, PAYMENT_STATUSES } from '../../../domain/billing/billing.ts';
import { ADJUSTMENT_KINDS, MAX_ADJUSTMENT_REASON_LENGTH } from '../../../domain/billing/adjustments.ts';
import { MAX_AMOUNT_CENTS } from '../../../domain/shared/money.ts';
import {
  anyOf,
  array,
  date,
  dateTime,
  email,
  id,
  integer,
  listOf,
  nullable,
  number,
  object,
  oneOfValues,
  ref,
  string,
  type Schema,
} from '../schema.ts';
import { pageQuery } from '../components.ts';

const cents = (minimum = 0): Schema => integer({ minimum, maximum: MAX_AMOUNT_CENTS });

const idempotencyKey = {
  'Idempotency-Key': string({
    minLength: 1,
    maxLength: 200,
    description:
      'Optional. A retry with the same key gets the first answer back instead of 409; a key used for another bill → 422 `idempotency_key_reused`',
  }),
};

const takingsQuery = { date: date('Default today') };

const paymentResult = object({ message: string(), billing: ref('Billing') });

const amountIn = (description: string): Schema => ({
  ...anyOf(
    string({ pattern: '^[0-9]{1,9}(\\.[0-9]{1,2})?$' }),
    number({ exclusiveMinimum: 0, maximum: MAX_AMOUNT_CENTS / 100 }),
  ),
  description,
});

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
    Billing: object({
      id: id(),
      patient: object(
        { id: id(), name: string(), email: nullable(email()) },
        { description: 'The email is null for a patient registered at the desk without one' },
      ),
      service_details: string(),
      amount: ref('Money'),
      amount_cents: cents(1),
      credited: ref('Money'),
      credited_cents: cents(),
      adjusted_amount: ref('Money'),
      adjusted_amount_cents: { ...cents(), description: 'The amount less its credit notes: what the bill asks for' },
      paid: ref('Money'),
      paid_cents: cents(),
      balance: ref('Money'),
      balance_cents: {
        ...cents(),
        description: 'What is still owed: the adjusted amount less what was paid, never below 0',
      },
      refund_due: ref('Money'),
      refund_due_cents: {
        ...cents(),
        description: 'Paid beyond the adjusted amount after a credit note: owed back to the patient',
      },
      billing_date: date(),
      payment_status: oneOfValues(
        PAYMENT_STATUSES,
        'By the adjusted amount: `partly_paid` while some but not all of it is paid; `paid` once nothing is owed (a bill credited in full too)',
      ),
      supplements_bill_id: nullable(id("A supplementary bill's original")),
      adjustments: array(ref('BillAdjustment'), {
        description: 'Its credit notes and the supplementary bills issued against it, oldest first',
      }),
    }),
    BillAdjustment: object({
      id: id(),
      kind: oneOfValues(ADJUSTMENT_KINDS),
      amount: ref('Money'),
      amount_cents: cents(1),
      reason: string(),
      supplementary_bill_id: nullable(id('The bill a supplementary adjustment raised; null for a credit note')),
      created_at: dateTime(),
    }),
    Receipt: object({
      clinic_name: string(),
      clinic: object(
        { name: string(), address: string(), phone: string() },
        { description: 'Address and phone are empty when unset' },
      ),
      bill_number: string({ pattern: '^B-[0-9]{6,}$' }),
      patient: object({ id: id(), name: string(), email: nullable(email()) }),
      doctor_name: nullable(string()),
      visit_date: nullable(date()),
      billing_date: date(),
      supplements_bill_number: nullable(
        string({ pattern: '^B-[0-9]{6,}$', description: "A supplementary bill's original" }),
      ),
      items: array(object({ description: string(), amount: ref('Money'), amount_cents: cents() }), { minItems: 1 }),
      credit_notes: array(object({ date: date(), reason: string(), amount: ref('Money'), amount_cents: cents(1) }), {
        description: 'Oldest first',
      }),
      total: ref('Money'),
      total_cents: { ...cents(), description: 'The items less the credit notes' },
      amount_paid: ref('Money'),
      amount_paid_cents: cents(),
      balance: ref('Money'),
      balance_cents: cents(),
      refund_due: ref('Money'),
      refund_due_cents: { ...cents(), description: 'Paid beyond the total: owed back to the patient' },
      payments: array(
        object({ date: date(), method: oneOfValues(PAYMENT_METHODS), amount: ref('Money'), amount_cents: cents(1) }),
        {
          description: 'Oldest first',
        },
      ),
      payment_date: nullable(date("The latest payment's")),
      payment_method: nullable(oneOfValues(PAYMENT_METHODS, "The latest payment's")),
      payment_status: oneOfValues(PAYMENT_STATUSES),
      currency: oneOfValues([CURRENCY]),
    }),
  },
  operations: {
    'GET /api/patients/{id}/billings': {
      summary: "A patient's bills",
      description: 'Reception and admins; audited. Newest first; `q` searches the service.',
      access: [...DESK_ROLES],
      query: pageQuery,
      answers: { 200: listOf('billings', ref('Billing')) },
    },
    'GET /api/patient/billings': {
      summary: 'My bills',
      description: 'Patients only, their own, newest first.',
      access: 'patient',
      query: pageQuery,
      answers: { 200: listOf('billings', ref('Billing')) },
    },
    'GET /api/patient/balance': {
      summary: 'What I owe',
      access: 'patient',
      description: 'Patients only: the balance and number of their bills not paid in full.',
      answers: {
        200: object({
          outstanding: ref('Money'),
          outstanding_cents: integer({ minimum: 0 }),
          unpaid_bills: integer({ minimum: 0 }),
        }),
      },
    },
    'POST /api/patient/billings/{id}/pay': {
      summary: 'Pay my bill',
      description:
        "Patients only, their own bill (another's → 404): the balance, by card through the card processor port; audited, a receipt e-mailed. " +
        'The body may be empty. Any method but `card` → 422 naming `method` (cash, bank transfer and insurance are recorded by the desk). ' +
        'Paid in full already → 409 `bill_already_paid`.',
      access: 'patient',
      headers: idempotencyKey,
      body: object(
        { method: string({ description: `Only \`${ONLINE_PAYMENT_METHOD}\`; the default` }) },
        { optional: ['method'] },
      ),
      answers: { 200: paymentResult },
      errors: [409],
    },
    'POST /api/billings/{id}/payments': {
      summary: 'Take a payment at the desk',
      description:
        "Reception and admins; audited, a receipt e-mailed to the patient. Card (the desk's terminal), cash, bank transfer or insurance, for `amount` " +
        'up to the balance (the whole balance when none is given; more → 422 naming `amount`). Paid in full already → 409 `bill_already_paid`.',
      access: [...DESK_ROLES],
      headers: idempotencyKey,
      body: object(
        {
          method: oneOfValues(PAYMENT_METHODS),
          amount: amountIn('Dollars with at most 2 decimals; default the balance'),
        },
        { optional: ['amount'] },
      ),
      answers: { 200: paymentResult },
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
      headers: idempotencyKey,
      body: object({
        kind: oneOfValues(ADJUSTMENT_KINDS),
        amount: amountIn('Dollars with at most 2 decimals'),
        reason: string({ minLength: 1, maxLength: MAX_ADJUSTMENT_REASON_LENGTH }),
      }),
      answers: {
        201: object({ message: string(), billing: ref('Billing'), supplementary_billing: nullable(ref('Billing')) }),
      },
      errors: [409],
    },
    'GET /api/desk/takings': {
      summary: "A day's takings per method",
      description:
        "Reception and admins: the payments taken on `date` (default today; the day in the clinic's zone) per method, every method listed, and their total.",
      access: [...DESK_ROLES],
      query: takingsQuery,
      answers: {
        200: object({
          date: date(),
          time_zone: string(),
          currency: oneOfValues([CURRENCY]),
          methods: array(
            object({
              method: oneOfValues(PAYMENT_METHODS),
              payments: integer({ minimum: 0 }),
              amount: ref('Money'),
              amount_cents: integer({ minimum: 0 }),
            }),
          ),
          payments: integer({ minimum: 0 }),
          total: ref('Money'),
          total_cents: integer({ minimum: 0 }),
        }),
      },
    },
    'GET /api/desk/takings.csv': {
      summary: "A day's takings as CSV",
      description:
        'The takings as an RFC 4180 CSV attachment: columns date, method, payments, amount, amount_cents, currency; one row per method, then a `total` row.',
      access: [...DESK_ROLES],
      query: takingsQuery,
      answers: { 200: { content: { 'text/csv': string() } } },
    },
    'GET /api/billings/{id}/receipt': {
      summary: "A bill's receipt",
      description:
        "The owning patient, reception and admins (another patient's bill → 404); the desk's read is audited. A receipt for a paid bill, an invoice " +
        'for an unpaid one (`amount_paid` 0, no payment date or method).',
      access: ['patient', ...DESK_ROLES],
      answers: { 200: ref('Receipt') },
    },
  },
};
