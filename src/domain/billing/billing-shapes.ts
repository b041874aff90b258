import { MoneyShape } from '../shared/shared-shapes.ts';
import { MAX_AMOUNT_CENTS } from '../shared/money.ts';
import {
  amount,
  array,
  boolean,
  component,
  date,
  dateTime,
  email,
  id,
  integer,
  nullable,
  object,
  oneOfValues,
  queryOf,
  ref,
  string,
  text,
  type Static,
} from '../shared/wire-schema.ts';
import { ADJUSTMENT_KINDS, MAX_ADJUSTMENT_REASON_LENGTH } from './adjustments.ts';
import {
  CURRENCY,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  ONLINE_PAYMENT_METHOD,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
} from './billing.ts';

// Billing's requests and answers, written once (docs/architecture.md "The wire contract").

const cents = (minimum = 0, description?: string) =>
  integer({ minimum, maximum: MAX_AMOUNT_CENTS, ...(description ? { description } : {}) });
const money = ref(MoneyShape);

/** The header a payment or an adjustment may carry so a retry gets the first answer back. */
export const IdempotencyKeyHeader = {
  'Idempotency-Key': string({
    minLength: 1,
    maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
    description:
      'Optional. A retry with the same key gets the first answer back instead of 409; a key used for another bill → 422 `idempotency_key_reused`',
  }),
};

// Requests

/** A patient's payment online: the balance, by card (the only method, and the default). */
export const PayBillShape = object(
  { method: text(255, { description: `Only \`${ONLINE_PAYMENT_METHOD}\`; the default` }) },
  { optional: ['method'] },
);

export const TakePaymentShape = object(
  {
    method: oneOfValues(PAYMENT_METHODS),
    amount: amount(MAX_AMOUNT_CENTS, { description: 'Dollars with at most 2 decimals; default the balance' }),
  },
  { optional: ['amount'] },
);

export const AdjustBillShape = object({
  kind: oneOfValues(ADJUSTMENT_KINDS),
  amount: amount(MAX_AMOUNT_CENTS, { description: 'Dollars with at most 2 decimals' }),
  reason: text(MAX_ADJUSTMENT_REASON_LENGTH),
});

export const TakingsQuery = queryOf({ date: date('Default today') });

// Answers

export const BillAdjustmentShape = component(
  'BillAdjustment',
  object({
    id: id(),
    kind: oneOfValues(ADJUSTMENT_KINDS),
    amount: money,
    amount_cents: cents(1),
    reason: string(),
    supplementary_bill_id: nullable(id('The bill a supplementary adjustment raised; null for a credit note')),
    created_at: dateTime(),
  }),
);
export type AdjustmentJson = Static<typeof BillAdjustmentShape>;

const billNumber = (description?: string) =>
  string({ pattern: '^B-[0-9]{6,}$', ...(description ? { description } : {}) });

export const BillingShape = component(
  'Billing',
  object({
    id: id(),
    bill_number: billNumber('As printed on its receipt; the reference to quote when paying by bank transfer'),
    patient: object(
      { id: id(), name: string(), email: nullable(email()) },
      { description: 'The email is null for a patient registered at the desk without one' },
    ),
    service_details: string(),
    amount: money,
    amount_cents: cents(1),
    credited: money,
    credited_cents: cents(),
    adjusted_amount: money,
    adjusted_amount_cents: cents(0, 'The amount less its credit notes: what the bill asks for'),
    paid: money,
    paid_cents: cents(),
    balance: money,
    balance_cents: cents(0, 'What is still owed: the adjusted amount less what was paid, never below 0'),
    refund_due: money,
    refund_due_cents: cents(0, 'Paid beyond the adjusted amount after a credit note: owed back to the patient'),
    billing_date: date(),
    payment_status: oneOfValues(
      PAYMENT_STATUSES,
      'By the adjusted amount: `partly_paid` while some but not all of it is paid; `paid` once nothing is owed (a bill credited in full too)',
    ),
    supplements_bill_id: nullable(id("A supplementary bill's original")),
    adjustments: array(ref(BillAdjustmentShape), {
      description: 'Its credit notes and the supplementary bills issued against it, oldest first',
    }),
  }),
);
export type BillingJson = Static<typeof BillingShape>;

const takenBy = nullable(string({ description: 'The desk member who took it; null for a card payment taken online' }));

export const ReceiptShape = component(
  'Receipt',
  object({
    clinic_name: string(),
    clinic: object(
      { name: string(), address: string(), phone: string() },
      { description: 'Address and phone are empty when unset' },
    ),
    bill_number: billNumber(),
    patient: object({
      id: id(),
      name: string(),
      email: nullable(email()),
      birth_date: nullable(date('Null when not given')),
    }),
    doctor_name: nullable(string()),
    visit_date: nullable(date()),
    billing_date: date(),
    supplements_bill_number: nullable(billNumber("A supplementary bill's original")),
    items: array(object({ description: string(), amount: money, amount_cents: cents() }), { minItems: 1 }),
    credit_notes: array(object({ date: date(), reason: string(), amount: money, amount_cents: cents(1) }), {
      description: 'Oldest first',
    }),
    total: money,
    total_cents: cents(0, 'The items less the credit notes'),
    amount_paid: money,
    amount_paid_cents: cents(),
    balance: money,
    balance_cents: cents(),
    refund_due: money,
    refund_due_cents: cents(0, 'Paid beyond the total: owed back to the patient'),
    payments: array(
      object({
        date: date(),
        method: oneOfValues(PAYMENT_METHODS),
        amount: money,
        amount_cents: cents(1),
        taken_by: takenBy,
      }),
      { description: 'Oldest first' },
    ),
    payment_date: nullable(date("The latest payment's")),
    payment_method: nullable(oneOfValues(PAYMENT_METHODS, "The latest payment's")),
    payment_status: oneOfValues(PAYMENT_STATUSES),
    currency: oneOfValues([CURRENCY]),
  }),
);
export type ReceiptJson = Static<typeof ReceiptShape>;

/** The patient's outstanding balance: every unpaid bill together. */
export const BalanceShape = object({
  outstanding: money,
  outstanding_cents: integer({ minimum: 0 }),
  unpaid_bills: integer({ minimum: 0 }),
});
export type BalanceJson = Static<typeof BalanceShape>;

/** Where the patient pays their bill: the card processor's page, open until `expires_at`. */
export const CheckoutResultShape = object({
  message: string(),
  checkout_url: string({ format: 'uri', description: "The card processor's page; the patient pays there" }),
  expires_at: dateTime(),
});
export type CheckoutResult = Static<typeof CheckoutResultShape>;

/** How the patient may pay: online by card when a processor is configured, else at the desk or by transfer. */
export const PaymentOptionsShape = object({
  online_card: boolean({ description: 'Whether a card processor takes payments online' }),
  bank_transfer: nullable(
    string({ description: "The clinic's bank details; quote the bill's number (B-000123) as the reference" }),
  ),
  desk: object(
    { name: string(), address: string(), phone: string() },
    { description: 'Where the front desk takes payments; address and phone are empty when unset' },
  ),
});
export type PaymentOptionsJson = Static<typeof PaymentOptionsShape>;

/** What Medora answers the card processor's webhook. */
export const CardWebhookAnswerShape = object({ received: boolean() });

/** What paying a bill answers, the same to a retry with the same Idempotency-Key. */
export const PaymentResultShape = object({ message: string(), billing: ref(BillingShape) });
export type PaymentResult = Static<typeof PaymentResultShape>;

/** What adjusting a bill answers: the bill as adjusted, and the supplementary bill when one was issued. */
export const AdjustmentResultShape = object({
  message: string(),
  billing: ref(BillingShape),
  supplementary_billing: nullable(ref(BillingShape)),
});
export type AdjustmentResult = Static<typeof AdjustmentResultShape>;

/** One day's takings, every method listed (none taken is 0), and the total that sums them. */
/** One payment of a day's takings, as the desk's list and its printout show it. */
export const TakenPaymentShape = component(
  'TakenPayment',
  object({
    id: id(),
    paid_at: dateTime(),
    patient: object({ id: id(), name: string() }),
    bill_id: id(),
    bill_number: billNumber(),
    method: oneOfValues(PAYMENT_METHODS),
    amount: money,
    amount_cents: cents(1),
    taken_by: takenBy,
  }),
);
export type TakenPaymentJson = Static<typeof TakenPaymentShape>;

export const TakingsShape = object({
  date: date(),
  time_zone: string(),
  currency: oneOfValues([CURRENCY]),
  methods: array(
    object({
      method: oneOfValues(PAYMENT_METHODS),
      payments: integer({ minimum: 0 }),
      amount: money,
      amount_cents: integer({ minimum: 0 }),
    }),
  ),
  payments: integer({ minimum: 0 }),
  total: money,
  total_cents: integer({ minimum: 0 }),
  taken: array(ref(TakenPaymentShape), { description: 'Each payment of the day, oldest first' }),
});
export type TakingsJson = Static<typeof TakingsShape>;
