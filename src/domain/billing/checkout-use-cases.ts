import { recordingRefusals, refusal } from '../audit/audit.ts';
import { ownPatientId, type Actor } from '../shared/actor.ts';
import { conflict, malformed } from '../shared/errors.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId } from '../shared/validate.ts';
import { paymentReceipt } from '../notifications/templates.ts';
import { ONLINE_PAYMENT_METHOD, balanceOf, billNumber, billedVisit } from './billing.ts';
import {
  PayBillShape,
  type CardWebhookAnswerShape,
  type CheckoutResult,
  type PaymentOptionsJson,
} from './billing-shapes.ts';
import type { BillingDeps, CardEvent, Checkout } from './ports.ts';
import type { Static } from '../shared/wire-schema.ts';

/** How long the processor's page takes a payment: Stripe's shortest (30 minutes) with room for clocks that differ. */
export const CHECKOUT_MINUTES = 60;
/** A checkout still opening after this was abandoned mid-way (the server stopped while asking the processor). */
const OPENING_MINUTES = 2;

/** How the signed-in patient may pay: online by card only when a card processor is configured. */
export function paymentOptions(deps: BillingDeps, actor: Actor): PaymentOptionsJson {
  ownPatientId(actor, 'Only patients have bills to pay');
  const { name, address, phone } = deps.clinicContact;
  return {
    online_card: deps.cardCheckout !== null,
    bank_transfer: deps.offlinePayment.bankTransfer,
    desk: { name, address, phone },
  };
}

export interface PayInput {
  billingId: string | number;
  body?: unknown;
  /** Where the card processor sends the patient back: paid, or given up. */
  successUrl: string;
  cancelUrl: string;
}

/**
 * The patient pays the balance of their own bill on the card processor's page. This only opens the checkout: the
 * bill is paid when the processor's signed webhook says so (`receiveCardEvent`). The processor is asked outside the
 * transaction that locks the bill; while one checkout of the bill is under way a second Pay gets it back.
 */
export async function payBill(deps: BillingDeps, input: PayInput, actor: Actor): Promise<CheckoutResult> {
  const patientId = ownPatientId(actor, 'Only patients have bills to pay');
  const v = new Validator(asRecord(input.body));
  const { method } = readFields(v, PayBillShape);
  if (method !== undefined && method !== ONLINE_PAYMENT_METHOD && !v.failed('method')) {
    v.fail('method', 'must be card: cash, bank transfer and insurance are recorded by the front desk');
  }
  const billingId = pathId(input.billingId, 'Bill');
  v.done();

  const processor = deps.cardCheckout;
  const started = await recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const bill = await tx.bills.lock(billingId);
      if (!bill || bill.patient.id !== patientId) {
        throw refusal('Bill', actor, {
          entity: 'billing',
          entityId: billingId,
          patientId: bill?.patient.id,
          attempt: 'pay',
        });
      }
      const balance = balanceOf(bill);
      if (balance === 0) throw conflict('bill_already_paid', 'This bill has already been paid');
      if (processor === null) throw onlinePaymentOff(billNumber(bill.id), deps.offlinePayment.bankTransfer !== null);
      const now = tx.clock.now();
      const underWay = await tx.checkouts.underWay(bill.id, now, minutesAfter(now, -OPENING_MINUTES));
      if (underWay?.status === 'open' && underWay.amountCents === balance)
        return { checkout: underWay, bill, fresh: false };
      if (underWay) {
        throw conflict(
          'checkout_under_way',
          'A card payment of this bill is already under way; finish it, or try again once it has expired',
        );
      }
      const checkout = await tx.checkouts.create({
        billingId: bill.id,
        patientId,
        amountCents: balance,
        expiresAt: minutesAfter(now, CHECKOUT_MINUTES),
        createdAt: now,
      });
      await tx.audit.record({
        actor,
        action: 'start_card_checkout',
        entity: 'billing',
        entityId: bill.id,
        patientId,
        details: { checkout_id: checkout.id, amount_cents: balance },
      });
      return { checkout, bill, fresh: true };
    }),
  );
  if (!started.fresh || processor === null) return checkoutResult(started.checkout);

  const { checkout, bill } = started;
  let opened: Checkout;
  try {
    const session = await processor.open({
      checkoutId: checkout.id,
      billNumber: billNumber(bill.id),
      service: bill.serviceDetails,
      amountCents: checkout.amountCents,
      email: bill.patient.email,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      expiresAt: checkout.expiresAt,
    });
    opened = await deps.checkouts.opened(checkout.id, session);
  } catch (error) {
    await deps.checkouts.failed(checkout.id);
    throw error;
  }
  return checkoutResult(opened);
}

function checkoutResult(checkout: Checkout): CheckoutResult {
  if (checkout.url === null) throw new Error(`checkout ${checkout.id} is open without a url`);
  return {
    message: 'Continue to the card payment page',
    checkout_url: checkout.url,
    expires_at: checkout.expiresAt.toISOString(),
  };
}

const onlinePaymentOff = (reference: string, bankTransfer: boolean) =>
  conflict(
    'online_payment_off',
    `Online card payment is not available: please pay at the front desk${bankTransfer ? ` or by bank transfer quoting ${reference}` : ''}`,
  );

const minutesAfter = (instant: Date, minutes: number) => new Date(instant.getTime() + minutes * 60_000);

export interface CardWebhook {
  payload: Uint8Array;
  signature: string | undefined;
}

/**
 * A webhook delivery from the card processor. Its signature must hold. A paid checkout pays its bill once, however
 * often and in whatever order the processor delivers its events: the event's id is kept once, and the checkout's
 * paid mark and its one payment are decided by the database under the bill's lock.
 */
export async function receiveCardEvent(
  deps: BillingDeps,
  webhook: CardWebhook,
): Promise<Static<typeof CardWebhookAnswerShape>> {
  const processor = deps.cardCheckout;
  if (processor === null) throw conflict('online_payment_off', 'No card processor is configured');
  if (!webhook.signature) throw malformed('bad_signature', 'The webhook carries no signature');
  const event = processor.verify(webhook.payload, webhook.signature);
  await deps.transaction(async (tx) => {
    if (!(await tx.checkouts.firstDelivery(event.id, event.type, tx.clock.now()))) return;
    if (event.kind === 'expired') await tx.checkouts.expire(event.sessionId);
    if (event.kind === 'paid') await applyPaid(tx, event);
  });
  return { received: true };
}

async function applyPaid(tx: BillingDeps, event: Extract<CardEvent, { kind: 'paid' }>) {
  const known =
    (event.checkoutId === null ? undefined : await tx.checkouts.find(event.checkoutId)) ??
    (await tx.checkouts.findBySession(event.sessionId));
  if (!known) {
    await tx.audit.record({
      actor: null,
      action: 'card_payment_unknown',
      entity: 'card_checkout',
      details: { event_id: event.id, session_id: event.sessionId, amount_cents: event.amountCents },
    });
    return;
  }
  const bill = await tx.bills.lock(known.billingId);
  if (!bill || !(await tx.checkouts.claimPaid(known.id))) return;
  const amountCents = Math.min(event.amountCents, balanceOf(bill));
  const audited = { checkout_id: known.id, event_id: event.id, charged_cents: event.amountCents };
  if (amountCents <= 0) {
    // Paid meanwhile at the desk: the money taken online is owed back to the patient, which the desk must see.
    await tx.audit.record({
      actor: null,
      action: 'card_payment_unapplied',
      entity: 'billing',
      entityId: bill.id,
      patientId: bill.patient.id,
      details: audited,
    });
    return;
  }
  const paid = await tx.bills.addPaid(bill.id, amountCents);
  const payment = await tx.payments.create({
    billingId: bill.id,
    patientId: bill.patient.id,
    amountCents,
    method: ONLINE_PAYMENT_METHOD,
    paidAt: tx.clock.now(),
    recordedBy: null,
    cardCheckoutId: known.id,
  });
  await tx.audit.record({
    actor: null,
    action: 'pay',
    entity: 'billing',
    entityId: bill.id,
    patientId: bill.patient.id,
    details: {
      ...audited,
      payment_id: payment.id,
      amount_cents: amountCents,
      method: ONLINE_PAYMENT_METHOD,
      balance_cents: balanceOf(paid),
    },
  });
  if (paid.patient.email !== null) {
    const receipt = { ...billedVisit(paid), amountCents, method: ONLINE_PAYMENT_METHOD, paymentId: payment.id };
    await tx.outbox.enqueue(
      paymentReceipt(tx.clinic, receipt, { email: paid.patient.email, userId: null }, tx.clock.now()),
    );
  }
}
