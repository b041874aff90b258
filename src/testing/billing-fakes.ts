/** Billing deps over arrays, for the billing module's unit tests. */
import assert from 'node:assert/strict';
import type { AuditEntry } from '../domain/audit/audit.ts';
import type { Adjustment } from '../domain/billing/adjustments.ts';
import { paymentStatusOf, type Bill, type TakenPayment } from '../domain/billing/billing.ts';
import type {
  BillingDeps,
  CardCheckout,
  CardEvent,
  CheckoutRequest,
  RememberedAnswer,
} from '../domain/billing/ports.ts';
import { payBill, receiveCardEvent, type CardWebhook } from '../domain/billing/checkout-use-cases.ts';
import { fakeCheckoutStore } from './checkout-fakes.ts';
import type { Actor } from '../domain/shared/actor.ts';
import { fixedClock } from '../domain/shared/clock.ts';
import { present } from './assert.ts';

export const patient: Actor = { userId: 2, role: 'patient', name: 'Pat', patientId: 5 };
export const desk: Actor = { userId: 3, role: 'reception', name: 'Rita' };

/** A card processor that opens every checkout asked for and believes every event it is handed. */
export function fakeCardCheckout(opened: CheckoutRequest[]): CardCheckout {
  return {
    open: async (request) => {
      opened.push(request);
      return { sessionId: `cs_${request.checkoutId}`, url: `https://pay.example.test/cs_${request.checkoutId}` };
    },
    verify: (payload) => JSON.parse(new TextDecoder().decode(payload)),
  };
}

/** A webhook delivery, as the fake processor reads it, saying the checkout asked for as `request` was paid. */
export function paidDelivery(request: CheckoutRequest, eventId = `evt_${request.checkoutId}`): CardWebhook {
  const event: CardEvent = {
    id: eventId,
    type: 'checkout.session.completed',
    kind: 'paid',
    sessionId: `cs_${request.checkoutId}`,
    checkoutId: request.checkoutId,
    amountCents: request.amountCents,
  };
  return { payload: new TextEncoder().encode(JSON.stringify(event)), signature: 'signed' };
}

export const RETURN_URLS = { successUrl: 'https://clinic.test/paid', cancelUrl: 'https://clinic.test/cancelled' };

/** The patient pays their bill online, as the processor's page and webhook would: the checkout, then its event. */
export async function payOnline(deps: BillingDeps, opened: CheckoutRequest[], billingId: number, actor: Actor) {
  await payBill(deps, { billingId, ...RETURN_URLS }, actor);
  await receiveCardEvent(deps, paidDelivery(present(opened.at(-1))));
}

/** Billing deps over arrays; `transaction` runs in place, which is all a unit test of the rules needs. */
export function fakeBillingDeps({ online = false }: { online?: boolean } = {}) {
  const bills: Bill[] = [
    {
      id: 1,
      patient: { id: 5, name: 'Pat', email: 'pat@example.test' },
      patientBirthDate: '1980-02-29',
      serviceDetails: 'X-ray',
      amountCents: 10000,
      paidCents: 0,
      creditedCents: 0,
      supplementsId: null,
      adjustments: [],
      billingDate: '2026-06-10',
      paymentStatus: 'unpaid',
    },
  ];
  const payments: TakenPayment[] = [];
  const opened: CheckoutRequest[] = [];
  const checkouts = fakeCheckoutStore();
  const audit: AuditEntry[] = [];
  const keys = new Map<string, RememberedAnswer>();
  const clock = fixedClock('2026-06-10T10:00:00Z');
  const adjustments: Adjustment[] = [];
  const found = (id: number) => bills.find((b) => b.id === id);
  const copy = (bill: Bill | undefined) => bill && { ...bill, adjustments: [...bill.adjustments] };
  const deps: BillingDeps = {
    outbox: { enqueue: async () => {}, withdraw: async () => {} },
    clinic: { name: 'Test Clinic', timeZone: 'Europe/Berlin', locale: 'en-US', mailFrom: 'clinic@example.test' },
    clinicContact: { name: 'Test Clinic', address: '', phone: '', timeZone: 'Europe/Berlin' },
    clock,
    timeZone: 'Europe/Berlin',
    bills: {
      create: async (b) => {
        const bill: Bill = {
          id: bills.length + 1,
          patient: { id: b.patientId, name: 'Pat', email: 'pat@example.test' },
          patientBirthDate: null,
          serviceDetails: b.serviceDetails,
          amountCents: b.amountCents,
          paidCents: 0,
          creditedCents: 0,
          supplementsId: b.supplementsId ?? null,
          adjustments: [],
          billingDate: b.billingDate,
          paymentStatus: 'unpaid',
        };
        bills.push(bill);
        return { ...bill };
      },
      find: async (id) => copy(found(id)),
      lock: async (id) => copy(found(id)),
      addPaid: async (id, cents) => {
        const bill = present(found(id));
        bill.paidCents += cents;
        bill.paymentStatus = paymentStatusOf(bill.amountCents, bill.creditedCents, bill.paidCents);
        return { ...bill };
      },
      listForPatient: async () => assert.fail('not used'),
      outstandingFor: async () => assert.fail('not used'),
      visitOf: async () => undefined,
    },
    payments: {
      create: async (p) => {
        const payment = {
          id: payments.length + 1,
          billingId: p.billingId,
          amountCents: p.amountCents,
          method: p.method,
          paidAt: p.paidAt,
          takenBy: p.recordedBy === null ? null : `Desk member ${p.recordedBy}`,
        };
        if (p.cardCheckoutId !== undefined && checkouts.paymentOf.has(p.cardCheckoutId))
          assert.fail('a second payment of one checkout');
        if (p.cardCheckoutId !== undefined) checkouts.paymentOf.set(p.cardCheckoutId, payment.id);
        payments.push(payment);
        return payment;
      },
      listForBill: async (id) => payments.filter((p) => p.billingId === id),
      takenBetween: async (from, to) =>
        payments
          .filter((p) => p.paidAt >= from && p.paidAt < to)
          .map((p) => ({ ...p, patient: { id: present(found(p.billingId)).patient.id, name: 'Pat' } })),
    },
    adjustments: {
      create: async (a) => {
        const adjustment: Adjustment = {
          id: adjustments.length + 1,
          kind: a.kind,
          amountCents: a.amountCents,
          reason: a.reason,
          supplementaryBillId: a.supplementaryBillId,
          createdAt: a.createdAt,
        };
        adjustments.push(adjustment);
        present(found(a.billingId)).adjustments.push(adjustment);
        return adjustment;
      },
      credit: async (id, cents) => {
        const bill = present(found(id));
        assert.ok(bill.creditedCents + cents <= bill.amountCents, 'the credited sum passes the amount');
        bill.creditedCents += cents;
        bill.paymentStatus = paymentStatusOf(bill.amountCents, bill.creditedCents, bill.paidCents);
      },
    },
    cardCheckout: online ? fakeCardCheckout(opened) : null,
    checkouts: checkouts.store,
    offlinePayment: { bankTransfer: 'IBAN DE00 0000 0000 0000 0000 00' },
    idempotency: {
      find: async (userId, key) => keys.get(`${userId} ${key}`),
      save: async (userId, key, answer) => void keys.set(`${userId} ${key}`, answer),
    },
    audit: { record: async (...e) => void audit.push(...e) },
    transaction: (fn) => fn(deps),
  };
  return { deps, bills, payments, opened, checkouts: checkouts.rows, audit, adjustments, keys };
}
