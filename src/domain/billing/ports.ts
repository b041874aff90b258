import type { Clinic } from '../notifications/message.ts';
import type { Outbox } from '../notifications/ports.ts';
import type { AdjustmentResult, PaymentResult } from './billing-shapes.ts';
import type { Adjustment, NewAdjustment } from './adjustments.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { BilledVisitOf, Bill, ClinicContact, NewBill, Payment, PaymentMethod } from './billing.ts';

export interface BillStore {
  create(bill: NewBill): Promise<Bill>;
  find(id: number): Promise<Bill | undefined>;
  /** One patient's bills, newest first, searched by service. */
  listForPatient(patientId: number, page: PageRequest): Promise<Page<Bill>>;
  /** The bill with its row locked until the transaction ends, so payments of one bill take turns. */
  lock(id: number): Promise<Bill | undefined>;
  /** Adds a payment to the bill's paid sum, which its status follows; never past the bill's amount. */
  addPaid(id: number, cents: number): Promise<Bill>;
  /** What the patient still owes: the balance and number of their bills not paid in full. */
  outstandingFor(patientId: number): Promise<{ cents: number; count: number }>;
  /** The recorded visit the bill charges for. */
  visitOf(id: number): Promise<BilledVisitOf | undefined>;
}

/** One method's share of the payments taken in a period. */
export interface MethodTakings {
  method: PaymentMethod;
  payments: number;
  cents: number;
}

export interface PaymentStore {
  create(payment: {
    billingId: number;
    patientId: number;
    amountCents: number;
    method: PaymentMethod;
    paidAt: Date;
  }): Promise<Payment>;
  /** The bill's payments, oldest first. */
  listForBill(billingId: number): Promise<Payment[]>;
  /** Payments taken from `from` up to (not including) `to`, summed per method; methods with none are left out. */
  takings(from: Date, to: Date): Promise<MethodTakings[]>;
}

/** What charging a patient's card needs. */
export interface CardCharge {
  billingId: number;
  patientId: number;
  amountCents: number;
}

/** The card processor. Resolves once the card is charged; a declined card or an unreachable processor throws a DomainError. */
export interface CardPayments {
  charge(charge: CardCharge): Promise<void>;
}

/** The first result of a request carrying an Idempotency-Key, kept per user and key. */
export interface RememberedAnswer<R = PaymentResult | AdjustmentResult> {
  request: string;
  result: R;
}

export interface IdempotencyStore {
  /** The answer saved under the key; `request` tells what it answered (a payment's or an adjustment's). */
  find(userId: number, key: string): Promise<RememberedAnswer | undefined>;
  save(userId: number, key: string, answer: RememberedAnswer): Promise<void>;
}

/** Credit notes and supplementary bills; nothing updates or deletes one. */
export interface AdjustmentStore {
  create(adjustment: NewAdjustment): Promise<Adjustment>;
  /** Adds a credit note's amount to the bill's credited sum, which its status follows; never past the bill's amount. */
  credit(billingId: number, cents: number): Promise<void>;
}

export interface BillingDeps {
  outbox: Outbox;
  clinic: Clinic;
  bills: BillStore;
  payments: PaymentStore;
  adjustments: AdjustmentStore;
  cardPayments: CardPayments;
  idempotency: IdempotencyStore;
  audit: AuditLog;
  clock: Clock;
  timeZone: string;
  /** The clinic as its receipts name it. */
  clinicContact: ClinicContact;
  /** All or nothing: `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: BillingDeps) => Promise<T>): Promise<T>;
}
