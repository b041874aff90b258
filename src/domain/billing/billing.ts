import type { BilledVisit } from '../notifications/templates.ts';
import { DomainError } from '../shared/errors.ts';
import type { Adjustment } from './adjustments.ts';

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
  /** yyyy-MM-dd, as the printed receipt shows it; null when not given. */
  patientBirthDate: string | null;
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

/** A payment as a receipt and the takings show it: who took it too. */
export interface TakenPayment extends Payment {
  /** The desk member who took it; null for one the card processor took online. */
  takenBy: string | null;
}

/** A payment of a day's takings: whose bill it paid. */
export interface DayPayment extends TakenPayment {
  patient: { id: number; name: string };
}

/** What the front desk or an admin records; online, a patient pays by card only. */
export const PAYMENT_METHODS = ['card', 'cash', 'bank_transfer', 'insurance'] as const;
export const ONLINE_PAYMENT_METHOD = 'card';
export const CURRENCY = 'USD';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

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

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

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

/** One Idempotency-Key names one request; using it for another is the client's mistake, not a conflict. */
export const idempotencyKeyReused = () =>
  new DomainError('invalid', 'idempotency_key_reused', 'This Idempotency-Key was already used for another request', {
    'Idempotency-Key': ['was already used for another request'],
  });
