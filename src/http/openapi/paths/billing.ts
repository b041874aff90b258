import type { ModulePaths } from '../module-paths.ts';
import { DESK_ROLES } from '../../../domain/shared/actor.ts';
import { CURRENCY, DESK_PAYMENT_METHODS, PAYMENT_METHODS, PAYMENT_STATUSES } from '../../../domain/billing/billing.ts';
import { MAX_AMOUNT_CENTS } from '../../../domain/shared/money.ts';
import { array, date, email, id, integer, listOf, nullable, object, oneOfValues, ref, string, type Schema } from '../schema.ts';
import { pageQuery } from '../components.ts';

const cents = (minimum = 0): Schema => integer({ minimum, maximum: MAX_AMOUNT_CENTS });

const idempotencyKey = {
  'Idempotency-Key': string({
    minLength: 1,
    maxLength: 200,
    description: 'Optional. A retry with the same key gets the first answer back instead of 409; a key used for another bill → 422 `idempotency_key_reused`',
  }),
};

const paymentResult = object({ message: string(), billing: ref('Billing') });

/** The operations of src/http/routes/billing.ts. */
export const billingPaths: ModulePaths = {
  tag: 'Billing',
  description:
    'Bills, payments and receipts. A recorded visit with a cost raises one bill; it is paid in full, once: the patient pays their own, the front desk ' +
    '(reception and admins) takes cash or card. A bill paid already is 409 `bill_already_paid`; send an `Idempotency-Key` so a retried payment gets the ' +
    'first answer back. Amounts are given twice: a decimal string with two places and integer cents (USD).',
  schemas: {
    Billing: object({
      id: id(),
      patient: object({ id: id(), name: string(), email: nullable(email()) }, { description: 'The email is null for a patient registered at the desk without one' }),
      service_details: string(),
      amount: ref('Money'),
      amount_cents: cents(1),
      billing_date: date(),
      payment_status: oneOfValues(PAYMENT_STATUSES),
    }),
    Receipt: object({
      clinic_name: string(),
      clinic: object({ name: string(), address: string(), phone: string() }, { description: 'Address and phone are empty when unset' }),
      bill_number: string({ pattern: '^B-[0-9]{6,}$' }),
      patient: object({ id: id(), name: string(), email: nullable(email()) }),
      doctor_name: nullable(string()),
      visit_date: nullable(date()),
      billing_date: date(),
      items: array(object({ description: string(), amount: ref('Money'), amount_cents: cents() }), { minItems: 1 }),
      total: ref('Money'),
      total_cents: cents(),
      amount_paid: ref('Money'),
      amount_paid_cents: cents(),
      payment_date: nullable(date()),
      payment_method: nullable(oneOfValues(PAYMENT_METHODS)),
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
      description: 'Patients only: the sum and number of their unpaid bills.',
      access: 'patient',
      answers: { 200: object({ outstanding: ref('Money'), outstanding_cents: integer({ minimum: 0 }), unpaid_bills: integer({ minimum: 0 }) }) },
    },
    'POST /api/patient/billings/{id}/pay': {
      summary: 'Pay my bill',
      description:
        'Patients only, their own bill (another\'s → 404), in full; audited, a receipt e-mailed. The body may be empty (`method` defaults to `card`). ' +
        'Paid already → 409 `bill_already_paid`.',
      access: 'patient',
      headers: idempotencyKey,
      body: object({ method: oneOfValues(PAYMENT_METHODS, 'Default `card`') }, { optional: ['method'] }),
      answers: { 200: paymentResult },
      errors: [409],
    },
    'POST /api/billings/{id}/payments': {
      summary: 'Take a payment at the desk',
      description: 'Reception and admins; audited, a receipt e-mailed to the patient. Cash or card, in full. Paid already → 409 `bill_already_paid`.',
      access: [...DESK_ROLES],
      headers: idempotencyKey,
      body: object({ method: oneOfValues(DESK_PAYMENT_METHODS) }),
      answers: { 200: paymentResult },
      errors: [409],
    },
    'GET /api/billings/{id}/receipt': {
      summary: "A bill's receipt",
      description:
        'The owning patient, reception and admins (another patient\'s bill → 404); the desk\'s read is audited. A receipt for a paid bill, an invoice ' +
        'for an unpaid one (`amount_paid` 0, no payment date or method).',
      access: ['patient', ...DESK_ROLES],
      answers: { 200: ref('Receipt') },
    },
  },
};
