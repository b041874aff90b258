import { listEntry, recorded, recordingRefusals, refusal } from '../audit/audit.ts';
import { isDesk, ownPatientId, requireDesk, type Actor } from '../shared/actor.ts';
import { conflict, invalid, notFound } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { balanceOf, billedVisit } from './billing.ts';
import { billingJson, receiptJson } from './billing-answers.ts';
import {
  TakePaymentShape,
  type AdjustmentResult,
  type BalanceJson,
  type BillingJson,
  type PaymentResult,
} from './billing-shapes.ts';
import { readFields } from '../shared/read-fields.ts';
import { centsToDecimal, parseCents } from '../shared/money.ts';
import type { BillingDeps } from './ports.ts';
import { readIdempotencyKey, rememberedAnswer } from './idempotency.ts';
import { paymentReceipt } from '../notifications/templates.ts';

/** The signed-in patient's own bills, newest first. */
export async function listMyBills(deps: BillingDeps, query: unknown, actor: Actor): Promise<Page<BillingJson>> {
  const page = await deps.bills.listForPatient(patientOf(actor), pageRequest(asRecord(query)));
  return { ...page, items: page.items.map(billingJson) };
}

/** What the signed-in patient still owes over all their bills not paid in full. */
export async function myBalance(deps: BillingDeps, actor: Actor): Promise<BalanceJson> {
  const { cents, count } = await deps.bills.outstandingFor(patientOf(actor));
  return { outstanding: centsToDecimal(cents), outstanding_cents: cents, unpaid_bills: count };
}

export interface PaymentInput {
  billingId: string | number;
  idempotencyKey?: string;
  body?: unknown;
}

/**
 * The front desk or an admin records a payment of a bill: card (on the desk's terminal), cash, bank transfer or
 * insurance, for any amount up to the balance (the whole balance when none is given).
 */
export async function takePayment(deps: BillingDeps, input: PaymentInput, actor: Actor): Promise<PaymentResult> {
  requireDesk(actor);
  const v = new Validator(asRecord(input.body));
  const { method, amount } = readFields(v, TakePaymentShape);
  const amountCents = amount === undefined ? undefined : parseCents(amount);
  const billingId = pathId(input.billingId, 'Bill');
  const key = readIdempotencyKey(v, input.idempotencyKey);
  v.done();
  const request = `pay billing ${billingId} ${method} ${amountCents ?? 'balance'}`;

  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const bill = await tx.bills.lock(billingId);
      if (!bill) {
        throw refusal('Bill', actor, {
          entity: 'billing',
          entityId: billingId,
          attempt: 'pay',
        });
      }
      // Read after the lock: a retry with the same key that committed while this one waited is seen here.
      const earlier = key ? await rememberedAnswer(tx, actor.userId, key, request) : undefined;
      if (earlier && isPaymentResult(earlier.result)) return earlier.result;
      const balance = balanceOf(bill);
      if (balance === 0) throw conflict('bill_already_paid', 'This bill has already been paid');
      const taken = amountCents ?? balance;
      if (taken > balance) throw invalid({ amount: [`must be at most the balance ${centsToDecimal(balance)}`] });
      const paid = await tx.bills.addPaid(bill.id, taken);
      const payment = await tx.payments.create({
        billingId,
        patientId: bill.patient.id,
        amountCents: taken,
        method,
        paidAt: tx.clock.now(),
        // The command line acts as no user: its payments are taken by nobody named.
        recordedBy: actor.userId || null,
      });
      const result = { message: 'Payment successful', billing: billingJson(paid) };
      if (key) await tx.idempotency.save(actor.userId, key, { request, result });
      await tx.audit.record({
        actor,
        action: 'pay',
        entity: 'billing',
        entityId: bill.id,
        patientId: bill.patient.id,
        details: { payment_id: payment.id, amount_cents: taken, method, balance_cents: balanceOf(paid) },
      });
      if (paid.patient.email !== null) {
        const receipt = { ...billedVisit(paid), amountCents: taken, method, paymentId: payment.id };
        await tx.outbox.enqueue(
          paymentReceipt(tx.clinic, receipt, { email: paid.patient.email, userId: null }, tx.clock.now()),
        );
      }
      return result;
    }),
  );
}

/** The bills of one patient, newest first, for the front desk; audited. */
export async function listPatientBills(
  deps: BillingDeps,
  rawPatientId: RawId,
  query: unknown,
  actor: Actor,
): Promise<Page<BillingJson>> {
  requireDesk(actor);
  const patientId = pathId(rawPatientId, 'Patient');
  const request = pageRequest(asRecord(query));
  const page = await deps.bills.listForPatient(patientId, request);
  await deps.audit.record({ ...listEntry(actor, 'billing', request, { patient_id: patientId }), patientId });
  return { ...page, items: page.items.map(billingJson) };
}

const isPaymentResult = (result: PaymentResult | AdjustmentResult): result is PaymentResult =>
  !('supplementary_billing' in result);

/** What a printed receipt needs; the owning patient or the desk may see it. The desk's read and a refusal are audited. */
export async function billReceipt(deps: BillingDeps, billingId: string | number, actor: Actor) {
  const id = pathId(billingId, 'Bill');
  const bill = await deps.bills.find(id);
  const ownBill = actor.role === 'patient' && bill !== undefined && bill.patient.id === actor.patientId;
  if (!isDesk(actor) && !ownBill) {
    throw await recorded(
      deps.audit,
      refusal('Bill', actor, { entity: 'billing', entityId: id, patientId: bill?.patient.id, attempt: 'receipt' }),
    );
  }
  if (!bill) throw notFound('Bill');
  const payments = bill.paidCents > 0 ? await deps.payments.listForBill(bill.id) : [];
  if (isDesk(actor))
    await deps.audit.record({
      actor,
      action: 'read_receipt',
      entity: 'billing',
      entityId: id,
      patientId: bill.patient.id,
    });
  return receiptJson(bill, payments, await deps.bills.visitOf(bill.id), deps.clinicContact);
}

const patientOf = (actor: Actor) => ownPatientId(actor, 'Only patients have bills to pay');
