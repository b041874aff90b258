import type { Clinic } from '../notifications/message.ts';
import type { Outbox } from '../notifications/ports.ts';
import type { PaymentResult } from './billing.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { BilledVisitOf, Bill, ClinicContact, NewBill, Payment } from './billing.ts';

export interface BillStore {
  create(bill: NewBill): Promise<Bill>;
  find(id: number): Promise<Bill | undefined>;
  /** One patient's bills, newest first, searched by service. */
  listForPatient(patientId: number, page: PageRequest): Promise<Page<Bill>>;
  /** Marks the bill paid only if it is still unpaid; undefined when another payment got there first. */
  markPaid(id: number): Promise<Bill | undefined>;
  /** What the patient still owes: the sum and number of their unpaid bills. */
  outstandingFor(patientId: number): Promise<{ cents: number; count: number }>;
  /** The recorded visit the bill charges for. */
  visitOf(id: number): Promise<BilledVisitOf | undefined>;
}

export interface PaymentStore {
  /** A second payment for one bill is refused by the database (unique billing_id). */
  create(payment: { billingId: number; patientId: number; amountCents: number; method: string; paidAt: Date }): Promise<Payment>;
  findForBill(billingId: number): Promise<Payment | undefined>;
}

/** The first result of a request carrying an Idempotency-Key, kept per user and key. */
export interface RememberedAnswer {
  request: string;
  result: PaymentResult;
}

export interface IdempotencyStore {
  find(userId: number, key: string): Promise<RememberedAnswer | undefined>;
  save(userId: number, key: string, answer: RememberedAnswer): Promise<void>;
}

export interface BillingDeps {
  outbox: Outbox;
  clinic: Clinic;
  bills: BillStore;
  payments: PaymentStore;
  idempotency: IdempotencyStore;
  audit: AuditLog;
  clock: Clock;
  timeZone: string;
  /** The clinic as its receipts name it. */
  clinicContact: ClinicContact;
  /** All or nothing: `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: BillingDeps) => Promise<T>): Promise<T>;
}
