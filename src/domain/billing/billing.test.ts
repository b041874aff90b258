import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../shared/errors.ts';
import { billForVisit, billNumber, type Bill } from './billing.ts';
import { billingJson, receiptJson } from './billing-answers.ts';
import { pathId } from '../shared/validate.ts';

const bill: Bill = {
  id: 42,
  patient: { id: 5, name: 'Pat', email: 'pat@example.test' },
  patientBirthDate: '1980-02-29',
  serviceDetails: 'X-ray',
  amountCents: 12050,
  paidCents: 12050,
  creditedCents: 0,
  supplementsId: null,
  adjustments: [],
  billingDate: '2026-06-10',
  paymentStatus: 'paid',
};

describe('billForVisit', () => {
  it('bills the service type at the cost, dated the visit', () => {
    const visit = {
      patientId: 5,
      medicalRecordId: 9,
      serviceType: 'X-ray',
      costCents: 12050,
      recordDate: '2026-06-10',
    };
    assert.deepEqual(billForVisit(visit), {
      patientId: 5,
      medicalRecordId: 9,
      serviceDetails: 'X-ray',
      amountCents: 12050,
      billingDate: '2026-06-10',
    });
  });

  it('raises no bill for a free visit', () => {
    assert.equal(
      billForVisit({ patientId: 5, medicalRecordId: 9, serviceType: 'Check', costCents: 0, recordDate: '2026-06-10' }),
      undefined,
    );
  });
});

const clinic = {
  name: 'Medora',
  address: '1 Harbour Road, Springfield',
  phone: '+1 555 0100',
  timeZone: 'Europe/Berlin',
};
const visit = { doctorName: 'Dr. Grey', visitDate: '2026-06-09' };

describe('money in answers', () => {
  it('gives every amount as a two-place decimal and as cents', () => {
    const json = billingJson({ ...bill, amountCents: 5 });
    assert.equal(json.amount, '0.05');
    assert.equal(json.amount_cents, 5);
  });

  it("gives a partly paid bill's paid sum and balance", () => {
    const json = billingJson({ ...bill, paidCents: 2050, paymentStatus: 'partly_paid' });
    assert.deepEqual(
      [json.paid, json.balance, json.balance_cents, json.payment_status],
      ['20.50', '100.00', 10000, 'partly_paid'],
    );
  });

  it('lists every payment of a bill paid in parts on its receipt with who took it, the latest as its date and method', () => {
    const payments = [
      {
        id: 1,
        billingId: 42,
        amountCents: 2050,
        method: 'cash' as const,
        paidAt: new Date('2026-06-10T08:00:00Z'),
        takenBy: 'Rita Desk',
      },
      {
        id: 2,
        billingId: 42,
        amountCents: 10000,
        method: 'insurance' as const,
        paidAt: new Date('2026-06-12T08:00:00Z'),
        takenBy: null,
      },
    ];
    const receipt = receiptJson(bill, payments, visit, clinic);
    assert.deepEqual(
      receipt.payments.map((p) => [p.date, p.method, p.amount, p.taken_by]),
      [
        ['2026-06-10', 'cash', '20.50', 'Rita Desk'],
        ['2026-06-12', 'insurance', '100.00', null],
      ],
    );
    assert.equal(receipt.patient.birth_date, '1980-02-29');
    assert.deepEqual(
      [receipt.payment_date, receipt.payment_method, receipt.balance],
      ['2026-06-12', 'insurance', '0.00'],
    );
  });

  it('dates a receipt payment in the clinic zone, not UTC', () => {
    const payment = {
      id: 1,
      billingId: 42,
      amountCents: 12050,
      method: 'card' as const,
      paidAt: new Date('2026-06-10T22:30:00Z'),
      takenBy: null,
    };
    const receipt = receiptJson(bill, [payment], visit, clinic);
    assert.equal(receipt.payment_date, '2026-06-11');
    assert.equal(receipt.bill_number, 'B-000042');
    assert.equal(receipt.amount_paid, '120.50');
  });

  it("heads a receipt with the clinic's name, address and phone, and names the visit's doctor and date", () => {
    const receipt = receiptJson(bill, [], visit, clinic);
    assert.deepEqual(receipt.clinic, { name: 'Medora', address: '1 Harbour Road, Springfield', phone: '+1 555 0100' });
    assert.deepEqual([receipt.doctor_name, receipt.visit_date], ['Dr. Grey', '2026-06-09']);
  });

  it('shows nothing paid on an unpaid bill', () => {
    const receipt = receiptJson({ ...bill, paidCents: 0, paymentStatus: 'unpaid' }, [], visit, clinic);
    assert.equal(receipt.amount_paid_cents, 0);
    assert.equal(receipt.balance_cents, 12050);
    assert.equal(receipt.payment_date, null);
    assert.equal(receipt.payment_method, null);
  });
});

describe('pathId', () => {
  it('reads a positive integer and treats anything else as not found', () => {
    assert.equal(pathId('17', 'Bill'), 17);
    for (const raw of ['0', '-1', '1.5', 'abc', '99999999999']) {
      assert.throws(
        () => pathId(raw, 'Bill'),
        (e: unknown) => e instanceof DomainError && e.kind === 'not_found',
        raw,
      );
    }
  });
});

describe('billNumber', () => {
  it('pads to six digits and grows beyond', () => {
    assert.equal(billNumber(42), 'B-000042');
    assert.equal(billNumber(1234567), 'B-1234567');
  });
});
