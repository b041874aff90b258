import type { BilledVisit } from '../notifications/templates.ts';
import { clinicDateTime } from '../shared/clock.ts';
import { DomainError } from '../shared/errors.ts';
import { centsToDecimal } from '../shared/money.ts';
import { adjustmentJson, creditNotesJson, type Adjustment } from './adjustments.ts';

export const PAYMENT_STATUSES = ['unpaid', 'partly_paid', 'paid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface PersonRef {
  id: number;
  name: string;
  /** None for a patient registered at the desk without one. */
  email: string | null;
}

export interface Bill {
  id: number;
  patient: PersonRef;
  serviceDetails: string;
  amountCents: number;
  /** The sum of the bill's payments so far. */
  paidCents: number;
  /** The sum of its credit notes: what the bill asks for is its amount less this. */
  creditedCents: number;
  /** The bill a supplementary bill adds to; null for any other. */
  supplementsId: number | null;
  /** Its credit notes and the supplementary bills issued against it, oldest first. */
  adjustments: Adjustment[];
  billingDate: string;
  paymentStatus: PaymentStatus;
}

/** What the bill asks for after its credit notes. */
export const adjustedAmountOf = (bill: Bill) => bill.amountCents - bill.creditedCents;

/** What is still owed on the bill; never below zero (a credit after payments leaves a refund due instead). */
export const balanceOf = (bill: Bill) => Math.max(adjustedAmountOf(bill) - bill.paidCents, 0);

/** What was paid beyond what the bill asks for after a credit note: owed back to the patient. */
export const refundDueOf = (bill: Bill) => Math.max(bill.paidCents - adjustedAmountOf(bill), 0);

/** The status the paid sum gives against the adjusted amount; the database's check says the same. */
export function paymentStatusOf(amountCents: number, creditedCents: number, paidCents: number): PaymentStatus {
  if (paidCents >= amountCents - creditedCents) return 'paid';
  return paidCents === 0 ? 'unpaid' : 'partly_paid';
}

/** A bill as its messages tell it. */
export const billedVisit = (bill: Bill): BilledVisit => ({
  billId: bill.id,
  amountCents: bill.amountCents,
  serviceDetails: bill.serviceDetails,
  billingDate: bill.billingDate,
  patientName: bill.patient.name,
});

export interface NewBill {
  patientId: number;
  /** The visit billed; none for a hospital stay's nights. */
  medicalRecordId: number | null;
  serviceDetails: string;
  amountCents: number;
  billingDate: string;
  /** A supplementary bill's original. */
  supplementsId?: number;
}

export interface Payment {
  id: number;
  billingId: number;
  amountCents: number;
  method: PaymentMethod;
  paidAt: Date;
}

/** What the front desk or an admin records; online, a patient pays by card only. */
export const PAYMENT_METHODS = ['card', 'cash', 'bank_transfer', 'insurance'] as const;
export const ONLINE_PAYMENT_METHOD = 'card';
export const CURRENCY = 'USD';

/** The bill a recorded visit raises: the service at its cost, dated the visit; a free visit raises none. */
export function billForVisit(visit: {
  patientId: number;
  medicalRecordId: number;
  serviceType: string;
  costCents: number;
  recordDate: string;
}): NewBill | undefined {
  if (visit.costCents === 0) return undefined;
  return {
    patientId: visit.patientId,
    medicalRecordId: visit.medicalRecordId,
    serviceDetails: visit.serviceType,
    amountCents: visit.costCents,
    billingDate: visit.recordDate,
  };
}

/** The number printed on a receipt, stable for a bill's lifetime. */
export const billNumber = (billId: number) => `B-${String(billId).padStart(6, '0')}`;

export function billingJson(bill: Bill) {
  return {
    id: bill.id,
    patient: bill.patient,
    service_details: bill.serviceDetails,
    amount: centsToDecimal(bill.amountCents),
    amount_cents: bill.amountCents,
    credited: centsToDecimal(bill.creditedCents),
    credited_cents: bill.creditedCents,
    adjusted_amount: centsToDecimal(adjustedAmountOf(bill)),
    adjusted_amount_cents: adjustedAmountOf(bill),
    paid: centsToDecimal(bill.paidCents),
    paid_cents: bill.paidCents,
    balance: centsToDecimal(balanceOf(bill)),
    balance_cents: balanceOf(bill),
    refund_due: centsToDecimal(refundDueOf(bill)),
    refund_due_cents: refundDueOf(bill),
    billing_date: bill.billingDate,
    payment_status: bill.paymentStatus,
    supplements_bill_id: bill.supplementsId,
    adjustments: bill.adjustments.map(adjustmentJson),
  };
}
export type BillingJson = ReturnType<typeof billingJson>;

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The patient's outstanding balance: every unpaid bill together. */
export interface BalanceJson {
  outstanding: string;
  outstanding_cents: number;
  unpaid_bills: number;
}

/** Who issues receipts and invoices, as printed at their top; address and phone may be unset (empty). */
export interface ClinicContact {
  name: string;
  address: string;
  phone: string;
  timeZone: string;
}

/** The visit a bill charges for: who saw the patient and on which day. */
export interface BilledVisitOf {
  doctorName: string;
  visitDate: string;
}

/** What a printed receipt (paid in full or in part) or invoice (unpaid) shows; one bill is one itemized service. */
export function receiptJson(bill: Bill, payments: Payment[], visit: BilledVisitOf | undefined, clinic: ClinicContact) {
  const last = payments.at(-1);
  return {
    clinic_name: clinic.name,
    clinic: { name: clinic.name, address: clinic.address, phone: clinic.phone },
    bill_number: billNumber(bill.id),
    patient: bill.patient,
    doctor_name: visit?.doctorName ?? null,
    visit_date: visit?.visitDate ?? null,
    billing_date: bill.billingDate,
    supplements_bill_number: bill.supplementsId === null ? null : billNumber(bill.supplementsId),
    items: [
      { description: bill.serviceDetails, amount: centsToDecimal(bill.amountCents), amount_cents: bill.amountCents },
    ],
    credit_notes: creditNotesJson(bill.adjustments, clinic.timeZone),
    total: centsToDecimal(adjustedAmountOf(bill)),
    total_cents: adjustedAmountOf(bill),
    amount_paid: centsToDecimal(bill.paidCents),
    amount_paid_cents: bill.paidCents,
    balance: centsToDecimal(balanceOf(bill)),
    balance_cents: balanceOf(bill),
    refund_due: centsToDecimal(refundDueOf(bill)),
    refund_due_cents: refundDueOf(bill),
    payments: payments.map((p) => ({
      date: clinicDateTime(p.paidAt, clinic.timeZone).date,
      method: p.method,
      amount: centsToDecimal(p.amountCents),
      amount_cents: p.amountCents,
    })),
    payment_date: last ? clinicDateTime(last.paidAt, clinic.timeZone).date : null,
    payment_method: last?.method ?? null,
    payment_status: bill.paymentStatus,
    currency: CURRENCY,
  };
}
export type ReceiptJson = ReturnType<typeof receiptJson>;

/** What paying a bill answers, the same to a retry with the same Idempotency-Key. */
export interface PaymentResult {
  message: string;
  billing: BillingJson;
}

/** What adjusting a bill answers: the bill as adjusted, and the supplementary bill when one was issued. */
export interface AdjustmentResult {
  message: string;
  billing: BillingJson;
  supplementary_billing: BillingJson | null;
}

/** One Idempotency-Key names one request; using it for another is the client's mistake, not a conflict. */
export const idempotencyKeyReused = () =>
  new DomainError('invalid', 'idempotency_key_reused', 'This Idempotency-Key was already used for another request', {
    'Idempotency-Key': ['was already used for another request'],
  });
