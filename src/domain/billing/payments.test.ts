import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../shared/errors.ts';
import { present } from '../../testing/assert.ts';
import { desk, fakeBillingDeps, patient } from '../../testing/billing-fakes.ts';
import { balanceOf } from './billing.ts';
import { payBill, takePayment } from './use-cases.ts';
import { takings, takingsCsv } from './takings-use-cases.ts';

async function invalidFields(promise: Promise<unknown>): Promise<string[]> {
  const error = await promise.then(
    () => assert.fail('expected a rejection'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DomainError && error.kind === 'invalid', String(error));
  return Object.keys(present(error.fields));
}

describe('payBill', () => {
  it('charges the balance to the card through the card port and marks the bill paid', async () => {
    const { deps, charges, payments } = fakeBillingDeps();
    const { billing } = await payBill(deps, { billingId: 1 }, patient);
    assert.deepEqual(charges, [{ billingId: 1, patientId: 5, amountCents: 10000 }]);
    assert.deepEqual(
      payments.map((p) => [p.method, p.amountCents]),
      [['card', 10000]],
    );
    assert.deepEqual([billing.payment_status, billing.balance_cents], ['paid', 0]);
  });

  it('refuses any method but card, naming method, and takes nothing', async () => {
    for (const method of ['cash', 'bank_transfer', 'insurance', 'bitcoin']) {
      const { deps, payments, charges } = fakeBillingDeps();
      assert.deepEqual(
        await invalidFields(payBill(deps, { billingId: 1, body: { method } }, patient)),
        ['method'],
        method,
      );
      assert.equal(payments.length + charges.length, 0);
    }
  });

  it('pays what is left of a partly paid bill', async () => {
    const { deps } = fakeBillingDeps();
    await takePayment(deps, { billingId: 1, body: { method: 'cash', amount: '30' } }, desk);
    const { billing } = await payBill(deps, { billingId: 1, body: { method: 'card' } }, patient);
    assert.deepEqual([billing.paid_cents, billing.payment_status], [10000, 'paid']);
  });
});

describe('takePayment', () => {
  it('records part of the balance and leaves the bill partly paid, audited with what is left', async () => {
    const { deps, charges, audit } = fakeBillingDeps();
    const { billing } = await takePayment(
      deps,
      { billingId: 1, body: { method: 'bank_transfer', amount: '25.50' } },
      desk,
    );
    assert.deepEqual([billing.payment_status, billing.paid, billing.balance], ['partly_paid', '25.50', '74.50']);
    assert.equal(charges.length, 0, "the desk's own terminal took any card");
    assert.deepEqual(
      audit.map((e) => [e.action, e.details]),
      [['pay', { payment_id: 1, amount_cents: 2550, method: 'bank_transfer', balance_cents: 7450 }]],
    );
  });

  it('refuses more than the balance, naming amount, and a bill paid in full with 409', async () => {
    const { deps, bills } = fakeBillingDeps();
    assert.deepEqual(
      await invalidFields(takePayment(deps, { billingId: 1, body: { method: 'cash', amount: '100.01' } }, desk)),
      ['amount'],
    );
    await takePayment(deps, { billingId: 1, body: { method: 'insurance' } }, desk);
    assert.equal(balanceOf(present(bills[0])), 0);
    await assert.rejects(takePayment(deps, { billingId: 1, body: { method: 'cash', amount: '1' } }, desk), {
      kind: 'conflict',
      code: 'bill_already_paid',
    });
  });

  it('refuses a zero or malformed amount and an unknown method', async () => {
    const { deps } = fakeBillingDeps();
    assert.deepEqual(
      (await invalidFields(takePayment(deps, { billingId: 1, body: { method: 'cheque', amount: '0' } }, desk))).sort(),
      ['amount', 'method'],
    );
  });

  it('answers a retry with the same Idempotency-Key with the first answer, paying once', async () => {
    const { deps, payments } = fakeBillingDeps();
    const input = { billingId: 1, idempotencyKey: 'k1', body: { method: 'cash', amount: '10' } };
    const first = await takePayment(deps, input, desk);
    assert.deepEqual(await takePayment(deps, input, desk), first);
    assert.equal(payments.length, 1);
  });
});

describe('takings', () => {
  it("sums the day's payments per method, in the clinic's zone, every method listed, the total their sum", async () => {
    const { deps } = fakeBillingDeps();
    await takePayment(deps, { billingId: 1, body: { method: 'cash', amount: '10' } }, desk);
    await takePayment(deps, { billingId: 1, body: { method: 'cash', amount: '5.25' } }, desk);
    await payBill(deps, { billingId: 1 }, patient);
    const report = await takings(deps, { date: '2026-06-10' }, desk);
    assert.deepEqual(
      report.methods.map((m) => [m.method, m.payments, m.amount_cents]),
      [
        ['card', 1, 8475],
        ['cash', 2, 1525],
        ['bank_transfer', 0, 0],
        ['insurance', 0, 0],
      ],
    );
    assert.deepEqual([report.payments, report.total_cents], [3, 10000]);
    assert.equal((await takings(deps, { date: '2026-06-11' }, desk)).total_cents, 0);
    const { csv } = await takingsCsv(deps, {}, desk);
    assert.equal(csv.split('\r\n')[0], 'date,method,payments,amount,amount_cents,currency');
    assert.ok(csv.includes('2026-06-10,total,3,100.00,10000,USD\r\n'));
  });

  it('is for the front desk only and names a bad date', async () => {
    const { deps } = fakeBillingDeps();
    await assert.rejects(takings(deps, {}, patient), { kind: 'forbidden' });
    assert.deepEqual(await invalidFields(takings(deps, { date: '10/06/2026' }, desk)), ['date']);
  });
});
