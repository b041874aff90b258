import type { Clinic } from '../notifications/message.ts';
import type { Outbox } from '../notifications/ports.ts';
import type { AdjustmentResult, PaymentResult } from './billing-shapes.ts';
import type { Adjustment, NewAdjustment } from './adjustments.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type {
  BilledVisitOf,
  Bill,
  ClinicContact,
  DayPayment,
  NewBill,
  Payment,
  PaymentMethod,
  TakenPayment,
} from './billing.ts';

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

export interface PaymentStore {
  create(payment: {
    billingId: number;
    patientId: number;
    amountCents: number;
    method: PaymentMethod;
    paidAt: Date;
    /** The desk member who took it; null for one the card processor took online. */
    recordedBy: number | null;
    /** The online checkout it came from: one payment per checkout. */
    cardCheckoutId?: number;
  }): Promise<Payment>;
  /** The bill's payments, oldest first, each with who took it. */
  listForBill(billingId: number): Promise<TakenPayment[]>;
  /** Payments taken from `from` up to (not including) `to`, oldest first, each with whose bill and who took it. */
  takenBetween(from: Date, to: Date): Promise<DayPayment[]>;
}

/** A checkout of a bill's balance at the card processor, as Medora asks for it. */
export interface CheckoutRequest {
  checkoutId: number;
  billNumber: string;
  service: string;
  amountCents: number;
  /** Filled in on the processor's page; null for a patient registered without one. */
  email: string | null;
  /** Where the processor sends the patient back once paid, and when they give up. */
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

/** The hosted page the patient pays on, and the processor's name for it. */
export interface OpenedCheckout {
  sessionId: string;
  url: string;
}

/** What one verified webhook delivery says; `id` is the event's, the same on every delivery of it. */
export type CardEvent =
  | { id: string; type: string; kind: 'paid'; sessionId: string; checkoutId: number | null; amountCents: number }
  | { id: string; type: string; kind: 'expired'; sessionId: string }
  | { id: string; type: string; kind: 'other' };

/**
 * The card processor's hosted checkout. Medora never sees a card: the patient pays on the processor's page, and the
 * processor's signed webhook says when the money was taken.
 */
export interface CardCheckout {
  /** Opens a checkout; a processor that refuses or cannot be reached throws a DomainError. */
  open(request: CheckoutRequest): Promise<OpenedCheckout>;
  /** The event of a delivery whose signature holds; any other throws a DomainError (`bad_signature`). */
  verify(payload: Uint8Array, signature: string): CardEvent;
}

export type CheckoutStatus = 'opening' | 'open' | 'paid' | 'failed' | 'expired';

export interface Checkout {
  id: number;
  billingId: number;
  patientId: number;
  amountCents: number;
  status: CheckoutStatus;
  sessionId: string | null;
  url: string | null;
  expiresAt: Date;
}

export interface CheckoutStore {
  /** The bill's checkout under way (opening or open), after retiring the ones that can no longer be paid. */
  underWay(billingId: number, now: Date, openingSince: Date): Promise<Checkout | undefined>;
  /** A new checkout, opening; a second one under way for the bill is refused by the database. */
  create(checkout: {
    billingId: number;
    patientId: number;
    amountCents: number;
    expiresAt: Date;
    createdAt: Date;
  }): Promise<Checkout>;
  /** The processor opened it: the patient may pay at `url`. */
  opened(id: number, opened: OpenedCheckout): Promise<Checkout>;
  /** The processor could not open it. */
  failed(id: number): Promise<void>;
  find(id: number): Promise<Checkout | undefined>;
  findBySession(sessionId: string): Promise<Checkout | undefined>;
  /** Marks it paid unless it already was: true for the one call that did. */
  claimPaid(id: number): Promise<boolean>;
  /** The processor let it expire unpaid; a paid one stays paid. */
  expire(sessionId: string): Promise<void>;
  /** Keeps a webhook event's id: false when a delivery of it came before. */
  firstDelivery(eventId: string, type: string, receivedAt: Date): Promise<boolean>;
}

/** How a patient pays without the card processor. */
export interface OfflinePayment {
  /** The clinic's bank details for a transfer (BANK_TRANSFER_DETAILS); null when it takes none. */
  bankTransfer: string | null;
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
  /** The card processor; none configured turns online payment off. */
  cardCheckout: CardCheckout | null;
  checkouts: CheckoutStore;
  offlinePayment: OfflinePayment;
  idempotency: IdempotencyStore;
  audit: AuditLog;
  clock: Clock;
  timeZone: string;
  /** The clinic as its receipts name it. */
  clinicContact: ClinicContact;
  /** All or nothing: `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: BillingDeps) => Promise<T>): Promise<T>;
}
