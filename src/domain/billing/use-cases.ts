import { listEntry, recorded, recordingRefusals, refusal } from '../audit/audit.ts';
import { isDesk, ownPatientId, requireDesk, type Actor } from '../shared/actor.ts';
import { conflict, notFound } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import {
  DEFAULT_PAYMENT_METHOD,
  DESK_PAYMENT_METHODS,
  PAYMENT_METHODS,
  billedVisit,
  billingJson,
  idempotencyKeyReused,
  receiptJson,
  type BalanceJson,
  type BillingJson,
  type PaymentMethod,
  type PaymentResult,
} from './billing.ts';
import { centsToDecimal } from '../shared/money.ts';
import type { BillingDeps } from './ports.ts';
import { paymentReceipt } from '../notifications/templates.ts';

const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

/** The signed-in patient's own bills, newest first. */
export async function listMyBills(deps: BillingDeps, query: unknown, actor: Actor): Promise<Page<BillingJson>> {
  const page = await deps.bills.listForPatient(patientOf(actor), pageRequest(asRecord(query)));
  return { ...page, items: page.items.map(billingJson) };
}

/** What the signed-in patient still owes over all their unpaid bills. */
export async function myBalance(deps: BillingDeps, actor: Actor): Promise<BalanceJson> {
  const { cents, count } = await deps.bills.outstandingFor(patientOf(actor));
  return { outstanding: centsToDecimal(cents), outstanding_cents: cents, unpaid_bills: count };
}

export interface PayInput {
  billingId: string | number;
  idempotencyKey?: string;
  body?: unknown;
}

/**
 * Pays the patient's own unpaid bill in full. Exactly one payment per bill, however many requests race;
 * a retry carrying the same Idempotency-Key gets the first answer back instead of a 409.
 */
export async function payBill(deps: BillingDeps, input: PayInput, actor: Actor): Promise<PaymentResult> {
  const patientId = patientOf(actor);
  const v = new Validator(asRecord(input.body));
  const method = v.oneOf('method', PAYMENT_METHODS, { optional: true }) ?? DEFAULT_PAYMENT_METHOD;
  return settle(deps, input, v, { method, patientId }, actor);
}

/** The front desk takes a patient's payment of a bill in cash or by card; the same one-payment guarantee as `payBill`. */
export async function takePayment(deps: BillingDeps, input: PayInput, actor: Actor): Promise<PaymentResult> {
  requireDesk(actor);
  const v = new Validator(asRecord(input.body));
  const method = v.oneOf('method', DESK_PAYMENT_METHODS);
  return settle(deps, input, v, { method }, actor);
}

/** Settles the bill (only `patientId`'s when given, others answered as missing) once `v` has no problem left. */
async function settle(deps: BillingDeps, input: PayInput, v: Validator, how: { method: PaymentMethod; patientId?: number }, actor: Actor): Promise<PaymentResult> {
  const billingId = pathId(input.billingId, 'Bill');
  const { method } = how;
  const key = input.idempotencyKey?.trim();
  if (input.idempotencyKey !== undefined && (!key || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    v.fail('Idempotency-Key', `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  v.done();
  const request = `pay billing ${billingId}`;
  const replay = (tx: BillingDeps) => (key ? rememberedAnswer(tx, actor.userId, key, request) : Promise.resolve(undefined));

  return recordingRefusals(deps.audit, () => deps.transaction(async (tx) => {
    const earlier = await replay(tx);
    if (earlier) return earlier.result;
    const bill = await tx.bills.find(billingId);
    if (!bill || (how.patientId !== undefined && bill.patient.id !== how.patientId)) {
      throw refusal('Bill', actor, { entity: 'billing', entityId: billingId, patientId: bill?.patient.id, attempt: 'pay' });
    }
    // The conditional update is the guard: of racing payers only one sees the bill still unpaid.
    const paid = bill.paymentStatus === 'unpaid' ? await tx.bills.markPaid(bill.id) : undefined;
    if (!paid) {
      // A retry with the same key may have committed while this one waited on the bill's row lock.
      const winner = await replay(tx);
      if (winner) return winner.result;
      throw conflict('bill_already_paid', 'This bill has already been paid');
    }
    const payment = await tx.payments.create({ billingId: bill.id, patientId: bill.patient.id, amountCents: bill.amountCents, method, paidAt: tx.clock.now() });
    const result = { message: 'Payment successful', billing: billingJson(paid) };
    if (key) await tx.idempotency.save(actor.userId, key, { request, result });
    await tx.audit.record({
      actor,
      action: 'pay',
      entity: 'billing',
      entityId: bill.id,
      patientId: bill.patient.id,
      details: { payment_id: payment.id, amount_cents: payment.amountCents, method },
    });
    const receipt = { ...billedVisit(paid), method, paymentId: payment.id };
    if (paid.patient.email !== null) {
      const userId = how.patientId === undefined ? null : actor.userId;
      await tx.outbox.enqueue(paymentReceipt(tx.clinic, receipt, { email: paid.patient.email, userId }, tx.clock.now()));
    }
    return result;
  }));
}

/** The bills of one patient, newest first, for the front desk; audited. */
export async function listPatientBills(deps: BillingDeps, rawPatientId: RawId, query: unknown, actor: Actor): Promise<Page<BillingJson>> {
  requireDesk(actor);
  const patientId = pathId(rawPatientId, 'Patient');
  const request = pageRequest(asRecord(query));
  const page = await deps.bills.listForPatient(patientId, request);
  await deps.audit.record({ ...listEntry(actor, 'billing', request, { patient_id: patientId }), patientId });
  return { ...page, items: page.items.map(billingJson) };
}

async function rememberedAnswer(deps: BillingDeps, userId: number, key: string, request: string) {
  const earlier = await deps.idempotency.find(userId, key);
  if (earlier && earlier.request !== request) throw idempotencyKeyReused();
  return earlier;
}

/** What a printed receipt needs; the owning patient or the desk may see it. The desk's read and a refusal are audited. */
export async function billReceipt(deps: BillingDeps, billingId: string | number, actor: Actor) {
  const id = pathId(billingId, 'Bill');
  const bill = await deps.bills.find(id);
  const ownBill = actor.role === 'patient' && bill !== undefined && bill.patient.id === actor.patientId;
  if (!isDesk(actor) && !ownBill) {
    throw await recorded(deps.audit, refusal('Bill', actor, { entity: 'billing', entityId: id, patientId: bill?.patient.id, attempt: 'receipt' }));
  }
  if (!bill) throw notFound('Bill');
  const payment = bill.paymentStatus === 'paid' ? await deps.payments.findForBill(bill.id) : undefined;
  if (isDesk(actor)) await deps.audit.record({ actor, action: 'read_receipt', entity: 'billing', entityId: id, patientId: bill.patient.id });
  return receiptJson(bill, payment, await deps.bills.visitOf(bill.id), deps.clinicContact);
}

const patientOf = (actor: Actor) => ownPatientId(actor, 'Only patients have bills to pay');
