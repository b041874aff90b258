import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../shared/errors.ts';
import { present } from '../../testing/assert.ts';
import { desk, fakeBillingDeps, patient, payOnline } from '../../testing/billing-fakes.ts';
import { adjustBill } from './adjust-use-cases.ts';
import { paymentStatusOf } from './billing.ts';
import { billingJson, receiptJson } from './billing-answers.ts';
import { takePayment } from './use-cases.ts';

const doctor = { userId: 4, role: 'doctor' as const, name: 'Dr. Grey', doctorId: 1 };
const credit = (amount: string, reason = 'Goodwill') => ({ kind: 'credit', amount, reason });

async function invalidFields(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => assert.fail('expected a rejection'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DomainError && error.kind === 'invalid', String(error));
  return Object.keys(present(error.fields)).sort();
}

describe('paymentStatusOf', () => {
  it('reads the paid sum against the amount less credit notes', () => {
    assert.equal(paymentStatusOf(10000, 0, 0), 'unpaid');
    assert.equal(paymentStatusOf(10000, 4000, 5999), 'partly_paid');
    assert.equal(paymentStatusOf(10000, 4000, 6000), 'paid');
    assert.equal(paymentStatusOf(10000, 4000, 8000), 'paid', 'paid beyond after a credit: a refund is due');
    assert.equal(paymentStatusOf(10000, 10000, 0), 'paid', 'credited in full: nothing is owed');
  });
});

describe('adjustBill: credit notes', () => {
  it('lowers what an unpaid bill asks for, audited with the balance left', async () => {
    const { deps, audit } = fakeBillingDeps();
    const { billing, supplementary_billing } = await adjustBill(deps, { billingId: 1, body: credit('30') }, desk);
    assert.equal(supplementary_billing, null);
    assert.deepEqual(
      [billing.adjusted_amount_cents, billing.balance_cents, billing.credited_cents, billing.payment_status],
      [7000, 7000, 3000, 'unpaid'],
    );
    assert.deepEqual(
      billing.adjustments.map((a) => [a.kind, a.amount_cents, a.reason]),
      [['credit', 3000, 'Goodwill']],
    );
    assert.deepEqual(
      audit.map((e) => [e.action, e.entityId, e.details]),
      [['credit', 1, { adjustment_id: 1, amount_cents: 3000, balance_cents: 7000, refund_due_cents: 0 }]],
    );
  });

  it('settles a partly paid bill whose credit covers the rest, and shows a refund due for a credit beyond it', async () => {
    const { deps } = fakeBillingDeps();
    await takePayment(deps, { billingId: 1, body: { method: 'cash', amount: '60' } }, desk);
    const settled = (await adjustBill(deps, { billingId: 1, body: credit('40') }, desk)).billing;
    assert.deepEqual([settled.payment_status, settled.balance_cents, settled.refund_due_cents], ['paid', 0, 0]);
    const beyond = (await adjustBill(deps, { billingId: 1, body: credit('10') }, desk)).billing;
    assert.deepEqual(
      [beyond.payment_status, beyond.adjusted_amount_cents, beyond.balance_cents, beyond.refund_due_cents],
      ['paid', 5000, 0, 1000],
    );
  });

  it('refuses a credit beyond what remains creditable naming amount, and 409 once credited in full', async () => {
    const { deps, adjustments } = fakeBillingDeps();
    await adjustBill(deps, { billingId: 1, body: credit('90') }, desk);
    assert.deepEqual(await invalidFields(adjustBill(deps, { billingId: 1, body: credit('10.01') }, desk)), ['amount']);
    await adjustBill(deps, { billingId: 1, body: credit('10') }, desk);
    await assert.rejects(adjustBill(deps, { billingId: 1, body: credit('0.01') }, desk), {
      kind: 'conflict',
      code: 'bill_fully_credited',
    });
    assert.equal(adjustments.length, 2);
  });

  it('lets the patient pay what the bill asks for after a credit', async () => {
    const { deps, opened, bills } = fakeBillingDeps({ online: true });
    await adjustBill(deps, { billingId: 1, body: credit('25') }, desk);
    await payOnline(deps, opened, 1, patient);
    assert.deepEqual([present(bills[0]).paidCents, present(bills[0]).paymentStatus], [7500, 'paid']);
  });

  it('names a missing reason, a bad amount and an unknown kind, and adjusts nothing', async () => {
    const { deps, adjustments } = fakeBillingDeps();
    assert.deepEqual(
      await invalidFields(
        adjustBill(deps, { billingId: 1, body: { kind: 'refund', amount: '0', reason: '  ' } }, desk),
      ),
      ['amount', 'kind', 'reason'],
    );
    assert.deepEqual(
      await invalidFields(
        adjustBill(deps, { billingId: 1, body: { kind: 'credit', amount: '-5', reason: 'x' } }, desk),
      ),
      ['amount'],
    );
    assert.equal(adjustments.length, 0);
  });

  it('is for the front desk and admins only', async () => {
    const { deps } = fakeBillingDeps();
    await assert.rejects(adjustBill(deps, { billingId: 1, body: credit('1') }, patient), { kind: 'forbidden' });
    await assert.rejects(adjustBill(deps, { billingId: 1, body: credit('1') }, doctor), { kind: 'forbidden' });
  });

  it('answers a retry with the same Idempotency-Key with the first answer, crediting once', async () => {
    const { deps, adjustments } = fakeBillingDeps();
    const input = { billingId: 1, idempotencyKey: 'adj-1', body: credit('5') };
    const first = await adjustBill(deps, input, desk);
    assert.deepEqual(await adjustBill(deps, input, desk), first);
    assert.equal(adjustments.length, 1);
    await assert.rejects(adjustBill(deps, { ...input, body: credit('6') }, desk), { code: 'idempotency_key_reused' });
  });

  it('lists credit notes on the receipt, its total the amount less them', async () => {
    const { deps, bills } = fakeBillingDeps();
    await adjustBill(deps, { billingId: 1, body: credit('12.50', 'Waiting time') }, desk);
    const receipt = receiptJson(present(bills[0]), [], undefined, deps.clinicContact);
    assert.deepEqual(receipt.credit_notes, [
      { date: '2026-06-10', reason: 'Waiting time', amount: '12.50', amount_cents: 1250 },
    ]);
    assert.deepEqual([receipt.total_cents, receipt.balance_cents, receipt.items[0]?.amount_cents], [8750, 8750, 10000]);
  });
});

describe('adjustBill: supplementary bills', () => {
  it('raises a new bill of the patient, linked to the original and dated today, and leaves the original as it was', async () => {
    const { deps, bills, audit } = fakeBillingDeps();
    const { billing, supplementary_billing } = await adjustBill(
      deps,
      { billingId: 1, body: { kind: 'supplementary', amount: '15', reason: 'Extra lab test' } },
      desk,
    );
    const extra = present(supplementary_billing);
    assert.deepEqual(
      [extra.amount_cents, extra.supplements_bill_id, extra.service_details, extra.billing_date],
      [1500, 1, 'Supplement to B-000001: Extra lab test', '2026-06-10'],
    );
    assert.deepEqual([billing.amount_cents, billing.balance_cents], [10000, 10000]);
    assert.deepEqual(
      billing.adjustments.map((a) => [a.kind, a.supplementary_bill_id]),
      [['supplementary', extra.id]],
    );
    assert.equal(bills.length, 2);
    assert.deepEqual(
      audit.map((e) => [e.action, e.details?.supplementary_billing_id]),
      [['supplement', extra.id]],
    );
    const paid = await takePayment(deps, { billingId: extra.id, body: { method: 'cash' } }, desk);
    assert.equal(paid.billing.payment_status, 'paid');
    assert.equal(billingJson(present(bills[0])).payment_status, 'unpaid');
  });
});
