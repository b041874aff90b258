import { recordingRefusals } from '../audit/audit.ts';
import { requireDesk, type Actor } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { conflict, invalid, notFound } from '../shared/errors.ts';
import { centsToDecimal, parseCents } from '../shared/money.ts';
import { Validator, asRecord, pathId } from '../shared/validate.ts';
import { supplementaryService, type AdjustmentKind } from './adjustments.ts';
import { adjustedAmountOf, balanceOf, billNumber, refundDueOf, type Bill } from './billing.ts';
import { billingJson } from './billing-answers.ts';
import { AdjustBillShape, type AdjustmentResult } from './billing-shapes.ts';
import { readFields } from '../shared/read-fields.ts';
import type { BillingDeps } from './ports.ts';
import { readIdempotencyKey, rememberedAnswer } from './idempotency.ts';

export interface AdjustInput {
  billingId: string | number;
  idempotencyKey?: string;
  body?: unknown;
}

/**
 * The front desk or an admin adjusts a bill, saying why: a credit note of up to what the bill still asks for (its
 * amount less earlier credit notes), or a supplementary bill, a new bill of the patient's linked to this one. A
 * credit beyond the balance leaves the excess already paid owed back to the patient (`refund_due`); paying it back
 * is not recorded here. Audited in the same transaction; a retry with the same Idempotency-Key gets the first answer.
 */
export async function adjustBill(deps: BillingDeps, input: AdjustInput, actor: Actor): Promise<AdjustmentResult> {
  requireDesk(actor);
  const billingId = pathId(input.billingId, 'Bill');
  const v = new Validator(asRecord(input.body));
  const { kind, amount, reason } = readFields(v, AdjustBillShape);
  const key = readIdempotencyKey(v, input.idempotencyKey);
  v.done();
  const cents = parseCents(amount) ?? 0;
  const request = `adjust billing ${billingId} ${kind} ${cents} ${reason}`;

  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      // Adjustments and payments of one bill take turns on its row lock, so a credit is checked against a settled sum.
      const bill = await tx.bills.lock(billingId);
      if (!bill) throw notFound('Bill');
      const earlier = key ? await rememberedAnswer(tx, actor.userId, key, request) : undefined;
      if (earlier && 'supplementary_billing' in earlier.result) return earlier.result;
      const result =
        kind === 'credit'
          ? await credit(tx, bill, cents, reason, actor)
          : await supplement(tx, bill, cents, reason, actor);
      if (key) await tx.idempotency.save(actor.userId, key, { request, result });
      return result;
    }),
  );
}

async function credit(
  tx: BillingDeps,
  bill: Bill,
  cents: number,
  reason: string,
  actor: Actor,
): Promise<AdjustmentResult> {
  const creditable = adjustedAmountOf(bill);
  if (creditable === 0) throw conflict('bill_fully_credited', 'This bill has been credited in full');
  if (cents > creditable)
    throw invalid({ amount: [`must be at most what remains creditable, ${centsToDecimal(creditable)}`] });
  const note = await tx.adjustments.create(newAdjustment(tx, bill, 'credit', cents, reason, null, actor));
  await tx.adjustments.credit(bill.id, cents);
  const credited = await found(tx, bill.id);
  await audit(tx, actor, 'credit', credited, { adjustment_id: note.id, amount_cents: cents });
  return { message: 'Credit note issued', billing: billingJson(credited), supplementary_billing: null };
}

async function supplement(
  tx: BillingDeps,
  bill: Bill,
  cents: number,
  reason: string,
  actor: Actor,
): Promise<AdjustmentResult> {
  const extra = await tx.bills.create({
    patientId: bill.patient.id,
    medicalRecordId: null,
    serviceDetails: supplementaryService(billNumber(bill.id), reason),
    amountCents: cents,
    billingDate: clinicToday(tx.clock, tx.timeZone),
    supplementsId: bill.id,
  });
  const link = await tx.adjustments.create(newAdjustment(tx, bill, 'supplementary', cents, reason, extra.id, actor));
  const original = await found(tx, bill.id);
  await audit(tx, actor, 'supplement', original, {
    adjustment_id: link.id,
    amount_cents: cents,
    supplementary_billing_id: extra.id,
  });
  return {
    message: 'Supplementary bill issued',
    billing: billingJson(original),
    supplementary_billing: billingJson(extra),
  };
}

const newAdjustment = (
  tx: BillingDeps,
  bill: Bill,
  kind: AdjustmentKind,
  amountCents: number,
  reason: string,
  supplementaryBillId: number | null,
  actor: Actor,
) => ({
  billingId: bill.id,
  kind,
  amountCents,
  reason,
  supplementaryBillId,
  createdBy: actor.userId,
  createdAt: tx.clock.now(),
});

async function found(tx: BillingDeps, id: number): Promise<Bill> {
  const bill = await tx.bills.find(id);
  if (!bill) throw notFound('Bill');
  return bill;
}

const audit = (tx: BillingDeps, actor: Actor, action: string, bill: Bill, details: Record<string, number>) =>
  tx.audit.record({
    actor,
    action,
    entity: 'billing',
    entityId: bill.id,
    patientId: bill.patient.id,
    details: { ...details, balance_cents: balanceOf(bill), refund_due_cents: refundDueOf(bill) },
  });
