import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../shared/errors.ts';
import { present } from '../../testing/assert.ts';
import { RETURN_URLS, desk, fakeBillingDeps, paidDelivery, patient, payOnline } from '../../testing/billing-fakes.ts';
import { balanceOf } from './billing.ts';
import { takePayment } from './use-cases.ts';
import { payBill, paymentOptions, receiveCardEvent } from './checkout-use-cases.ts';
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
  it('without a card processor refuses to pay online, saying how to pay instead, and records nothing', async () => {
    const { deps, payments, checkouts } = fakeBillingDeps();
    await assert.rejects(payBill(deps, { billingId: 1, ...RETURN_URLS }, patient), (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.deepEqual([error.kind, error.code], ['conflict', 'online_payment_off']);
      assert.match(error.message, /front desk or by bank transfer quoting B-000001/);
      return true;
    });
    assert.equal(payments.length + checkouts.length, 0);
    assert.deepEqual(paymentOptions(deps, patient).online_card, false);
  });

  it('opens a checkout of the balance and leaves the bill unpaid until the webhook says paid', async () => {
    const { deps, opened, payments, bills } = fakeBillingDeps({ online: true });
    const answer = await payBill(deps, { billingId: 1, ...RETURN_URLS }, patient);
    assert.equal(answer.checkout_url, 'https://pay.example.test/cs_1');
    assert.deepEqual(
      opened.map((o) => [o.billNumber, o.amountCents, o.email, o.successUrl]),
      [['B-000001', 10000, 'pat@example.test', RETURN_URLS.successUrl]],
    );
    assert.deepEqual([payments.length, present(bills[0]).paymentStatus], [0, 'unpaid']);
    assert.deepEqual(await payBill(deps, { billingId: 1, ...RETURN_URLS }, patient), answer, 'a second Pay reuses it');
    assert.equal(opened.length, 1);
  });

  it('pays the bill once however often and in whatever order the webhook comes', async () => {
    const { deps, opened, payments, bills, audit } = fakeBillingDeps({ online: true });
    await payBill(deps, { billingId: 1, ...RETURN_URLS }, patient);
    const request = present(opened[0]);
    const expired = {
      payload: new TextEncoder().encode(
        JSON.stringify({ id: 'evt_x', type: 'checkout.session.expired', kind: 'expired', sessionId: 'cs_1' }),
      ),
      signature: 'signed',
    };
    await receiveCardEvent(deps, paidDelivery(request, 'evt_a'));
    await receiveCardEvent(deps, paidDelivery(request, 'evt_a'));
    await receiveCardEvent(deps, expired);
    await receiveCardEvent(deps, paidDelivery(request, 'evt_b'));
    assert.deepEqual(
      payments.map((p) => [p.method, p.amountCents]),
      [['card', 10000]],
    );
    assert.equal(present(bills[0]).paymentStatus, 'paid');
    assert.deepEqual(
      audit.filter((e) => e.action === 'pay').map((e) => e.actor),
      [null],
    );
  });

  it('refuses a webhook without a signature', async () => {
    const { deps } = fakeBillingDeps({ online: true });
    await assert.rejects(receiveCardEvent(deps, { payload: new Uint8Array(), signature: undefined }), {
      kind: 'malformed',
      code: 'bad_signature',
    });
  });

  it('refuses any method but card, naming method, and opens nothing', async () => {
    for (const method of ['cash', 'bank_transfer', 'insurance', 'bitcoin']) {
      const { deps, opened } = fakeBillingDeps({ online: true });
      assert.deepEqual(
        await invalidFields(payBill(deps, { billingId: 1, body: { method }, ...RETURN_URLS }, patient)),
        ['method'],
        method,
      );
      assert.equal(opened.length, 0);
    }
  });

  it('pays what is left of a partly paid bill', async () => {
    const { deps, opened, bills } = fakeBillingDeps({ online: true });
    await takePayment(deps, { billingId: 1, body: { method: 'cash', amount: '30' } }, desk);
    await payOnline(deps, opened, 1, patient);
    assert.deepEqual([present(bills[0]).paidCents, present(bills[0]).paymentStatus], [10000, 'paid']);
  });
});

describe('takePayment', () => {
  it('records part of the balance and leaves the bill partly paid, audited with what is left', async () => {
    const { deps, opened, audit } = fakeBillingDeps();
    const { billing } = await takePayment(
      deps,
      { billingId: 1, body: { method: 'bank_transfer', amount: '25.50' } },
      desk,
    );
    assert.deepEqual([billing.payment_status, billing.paid, billing.balance], ['partly_paid', '25.50', '74.50']);
    assert.equal(opened.length, 0, "the desk's own terminal took any card");
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
  it("sums the day's payments per method, in the clinic's zone, every method listed, the total their sum, and lists each", async () => {
    const { deps, opened } = fakeBillingDeps({ online: true });
    await takePayment(deps, { billingId: 1, body: { method: 'cash', amount: '10' } }, desk);
    await takePayment(deps, { billingId: 1, body: { method: 'cash', amount: '5.25' } }, desk);
    await payOnline(deps, opened, 1, patient);
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
    assert.deepEqual(
      report.taken.map((p) => [p.bill_number, p.method, p.amount_cents, p.patient.id, p.taken_by === null]),
      [
        ['B-000001', 'cash', 1000, 5, false],
        ['B-000001', 'cash', 525, 5, false],
        ['B-000001', 'card', 8475, 5, true],
      ],
      'each payment in the order taken, the online one taken by no one at the desk',
    );
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
