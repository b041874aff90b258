import type { Hl7Outbox } from '../notifications/hl7-events.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { Clinic } from '../notifications/message.ts';
import type { Outbox } from '../notifications/ports.ts';
import type { CriticalNotice, Recipient } from '../notifications/templates.ts';
import type { AdjustmentStore, BillStore } from '../billing/ports.ts';
import type { CareTeam } from '../care/ports.ts';
import type { Gender } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import type { CatalogueTest, CriticalLimits, ReferenceRange } from './catalogue.ts';
import type { Interpretation } from './interpretation.ts';
import type { ItemStatus, OrderSource, OrderStatus, Priority, RejectionReason } from './orders.ts';
import type { ObservationStatus, ObservationValue, ObservationVersion, ReportStatus } from './reports.ts';
import type { Units } from './units.ts';
import type { PageRequest, Page } from '../shared/pagination.ts';

export interface NewOrder {
  orderDate: string;
  patientId: number;
  doctorId: number;
  source: OrderSource;
  priority: Priority;
  clinicalNote: string;
  orderedAt: Date;
  items: { testId: number; panelId: number | null }[];
}

/** An order as the lab's use cases read it under its row lock. */
export interface LockedOrder {
  id: number;
  orderNumber: string;
  patientId: number;
  doctorId: number;
  departmentId: number | null;
  status: OrderStatus;
  reportId: number;
  reportStatus: ReportStatus;
  items: { id: number; testId: number; status: ItemStatus }[];
}

/** The patient a result is read for. */
export interface LabSubject {
  gender: Gender | null;
  birthDate: string | null;
}

export interface NewResult {
  patientId: number;
  orderItemId: number;
  reportId: number;
  test: CatalogueTest;
  value: ObservationValue;
  interpretation: Interpretation | null;
  range: { low: number | null; high: number | null } | null;
  effectiveAt: Date;
  recordedAt: Date;
  recordedBy: number;
}

/** An observation as every view reads it: its current version and its history. */
export interface ObservationView {
  id: number;
  itemId: number;
  code: string;
  name: string;
  value: ObservationValue;
  interpretation: Interpretation | null;
  range: { low: number | null; high: number | null } | null;
  status: ObservationStatus;
  version: number;
  effectiveAt: Date;
  versions: (ObservationVersion & { interpretation: Interpretation | null; recordedByName: string | null })[];
}

/** An order with everything any role's view of it is cut from (each role's use case shows only its part). */
export interface OrderView {
  id: number;
  orderNumber: string;
  patient: { id: number; name: string; gender: Gender | null; birthDate: string | null };
  doctor: { id: number; name: string };
  appointmentId: number | null;
  admissionId: number | null;
  priority: Priority;
  status: OrderStatus;
  clinicalNote: string;
  orderedAt: Date;
  report: {
    id: number;
    status: ReportStatus;
    signedOffAt: Date | null;
    releasedAt: Date | null;
  };
  reviews: { doctorId: number; doctor: string; reviewedAt: Date; comment: string }[];
  alerts: {
    id: number;
    observationId: number;
    version: number;
    raisedAt: Date;
    escalatesAt: Date;
    acknowledgedAt: Date | null;
    acknowledgedBy: string | null;
  }[];
  items: {
    id: number;
    testId: number;
    code: string;
    name: string;
    specimenType: CatalogueTest['specimenType'];
    resultType: CatalogueTest['resultType'];
    unit: string | null;
    status: ItemStatus;
    specimenCode: string | null;
    collectedAt: Date | null;
  }[];
  observations: ObservationView[];
  charges: { name: string; priceCents: number; voided: boolean }[];
}

/** A test or panel an admin adds to the catalogue (panels and coded tests come by import). */
export interface NewTest {
  kind: CatalogueTest['kind'];
  codeSystem: CatalogueTest['codeSystem'];
  code: string;
  name: string;
  category: CatalogueTest['category'];
  specimenType: CatalogueTest['specimenType'];
  /** Null for a panel. */
  resultType: CatalogueTest['resultType'] | null;
  unit: string | null;
  /** A coded test's answers. */
  answers: string[];
  /** A panel's member tests, in their order. */
  memberIds: number[];
  physicalLow: number | null;
  physicalHigh: number | null;
  range: { low: number | null; high: number | null } | null;
  critical: { low: number | null; high: number | null } | null;
  priceCents: number;
  turnaroundMinutes: number;
  at: Date;
}

/** A change of a test: its name, price, turnaround and whether it is orderable; and any of its limits. */
export interface TestChange {
  name: string;
  priceCents: number;
  turnaroundMinutes: number;
  active: boolean;
  physical?: { low: number | null; high: number | null };
  ranges?: ReferenceRange[];
  criticalLimits?: CriticalLimits[];
}

/** Which orders a view lists. */
export type OrderFilter =
  | { kind: 'patient'; patientId: number }
  | { kind: 'to_review'; doctorId: number }
  | { kind: 'worklist' }
  | { kind: 'number'; orderNumber: string }
  | { kind: 'released'; patientId: number; now: Date; autoReleaseDays: number | null };

export interface UnmatchedResult {
  id: number;
  source: string;
  messageId: string;
  orderNumber: string;
  codeSystem: CatalogueTest['codeSystem'];
  code: string;
  value: ObservationValue;
  effectiveAt: Date;
  receivedAt: Date;
  status: 'pending' | 'attached' | 'rejected';
}

export interface LabStore {
  /** The orders a filter names, newest first (the worklist: stat first, then oldest first), with the page's count. */
  orderIds(filter: OrderFilter, page: PageRequest): Promise<Page<number>>;
  /** Every order of `ids`, in that order, with all its parts. */
  orderViews(ids: readonly number[]): Promise<OrderView[]>;
  /** The observation's order id, to lock before changing it. */
  orderOfObservation(observationId: number): Promise<number | undefined>;
  /** The observation's current version and history (read under the order's lock). */
  observationHistory(
    observationId: number,
  ): Promise<{ itemId: number; testId: number; effectiveAt: Date; history: ObservationVersion[] } | undefined>;
  /** Writes the next version as the current one; false when the current one is no longer `expected - 1`. */
  writeVersion(
    observationId: number,
    version: ObservationVersion,
    read: { interpretation: Interpretation | null; range: { low: number | null; high: number | null } | null },
    reportId: number,
    reportStatus: ReportStatus,
  ): Promise<boolean>;
  /** Records (or updates) this doctor's review of the report. */
  review(reportId: number, doctorId: number, at: Date, comment: string): Promise<void>;
  /** Releases a signed-off report to the patient, once; false when it already was. */
  release(reportId: number, by: number, at: Date): Promise<boolean>;
  unmatched(page: PageRequest): Promise<Page<UnmatchedResult>>;
  /** A pending unmatched result, its row locked; undefined when none or no longer pending. */
  lockUnmatched(id: number): Promise<UnmatchedResult | undefined>;
  resolveUnmatched(
    id: number,
    resolution: { status: 'attached' | 'rejected'; by: number; at: Date; note: string; observationId: number | null },
  ): Promise<void>;
  orderIdByNumber(orderNumber: string): Promise<number | undefined>;
  catalogue(page: PageRequest): Promise<Page<CatalogueTest>>;
  /** The ids of the tests (not panels) with these codes, in either code system. */
  testIdsByCode(codes: readonly string[]): Promise<Map<string, number>>;
  /** Adds a test with its adult band for anyone; undefined when its code is taken. */
  createTest(test: NewTest): Promise<number | undefined>;
  /** The test with its row locked until the transaction ends, so two changes of it take turns. */
  lockTest(id: number): Promise<CatalogueTest | undefined>;
  /** Writes the next version of a locked test; each limit given replaces the one it had, one left out stays. */
  updateTest(id: number, change: TestChange, at: Date): Promise<void>;

  /** The tests of `ids` and every member of the panels among them, by id. */
  tests(ids: readonly number[]): Promise<Map<number, CatalogueTest>>;
  /** Who an order from `source` is for, and whose visit or stay it is; undefined when there is none. */
  sourceOf(source: OrderSource): Promise<{ patientId: number } | undefined>;
  /** Writes the order (its number from the database's sequence), its items and its registered report. */
  createOrder(order: NewOrder): Promise<{ id: number; orderNumber: string; reportId: number }>;
  /** Links a bill raised for a test as ordered: the order's bill line. */
  addCharge(orderId: number, testId: number, billingId: number, priceCents: number): Promise<void>;
  /** The order with its row locked until the transaction ends, so cancelling, results and sign-off take turns. */
  lockOrder(id: number): Promise<LockedOrder | undefined>;
  /** The order of an item, locked, with the item's id. */
  lockOrderOfItem(itemId: number): Promise<LockedOrder | undefined>;
  /** Cancels the order, its waiting items and its report; answers the bill lines to void. */
  cancelOrder(id: number, by: number, at: Date): Promise<{ billingId: number; priceCents: number }[]>;
  /** Records the specimen; undefined when the test already has a specimen in use (exactly once, by the database). */
  collect(itemId: number, specimenCode: string, by: number, at: Date): Promise<{ id: number } | undefined>;
  reject(itemId: number, reason: RejectionReason, note: string, by: number, at: Date): Promise<boolean>;
  subject(patientId: number): Promise<LabSubject | undefined>;
  /** Writes the result and its first version; undefined when the test already has one. */
  recordResult(result: NewResult): Promise<{ observationId: number } | undefined>;
  /** preliminary → final, once: false when another sign-off (or anything else) changed it first. */
  finalize(reportId: number, by: number, at: Date): Promise<boolean>;
  /** Raises an alert on each critical value of the report's current versions; answers the alerts raised. */
  raiseCriticalAlerts(reportId: number, at: Date, escalatesAt: Date): Promise<number[]>;
  /** Who is told of each alert: the ordering doctor, and the other active doctors of their department. */
  criticalRecipients(alertIds: readonly number[]): Promise<CriticalRecipients[]>;
  /**
   * The alerts standing for a doctor at `now`: unacknowledged, of their own orders, or of their department's once
   * escalated; critical first by when they were raised.
   */
  openAlerts(doctorId: number, now: Date): Promise<OpenAlert[]>;
  /** Records the acknowledgement once: false when it was already acknowledged. */
  acknowledge(alertId: number, doctorId: number, at: Date): Promise<boolean>;
  alert(
    alertId: number,
  ): Promise<
    { id: number; patientId: number; orderingDoctorId: number; departmentId: number | null; raisedAt: Date } | undefined
  >;
  doctorDepartment(doctorId: number): Promise<number | null>;
}

export interface CriticalRecipients {
  notice: CriticalNotice;
  orderingDoctor: Recipient & { name: string };
  department: (Recipient & { name: string })[];
}

/** A critical result not yet acknowledged, as the doctor's day shows it. */
export interface OpenAlert {
  id: number;
  orderId: number;
  orderNumber: string;
  patient: { id: number; name: string };
  testName: string;
  value: ObservationValue;
  interpretation: Interpretation | null;
  raisedAt: Date;
  escalatesAt: Date;
  orderingDoctor: { id: number; name: string };
  /** Where the patient lies when in a bed: "Room 2 B". */
  bed: string | null;
}

export interface LabDeps {
  lab: LabStore;
  bills: BillStore;
  adjustments: AdjustmentStore;
  units: Units;
  audit: AuditLog;
  careTeam: CareTeam;
  outbox: Outbox;
  clinic: Clinic;
  /** Orders placed and cancelled reported to the HL7 receivers (OML^O21), in the order's transaction. */
  hl7: Hl7Outbox;
  clock: Clock;
  timeZone: string;
  /** RESULTS_AUTO_RELEASE_DAYS: null for never. */
  autoReleaseDays: number | null;
  transaction<T>(fn: (tx: LabDeps) => Promise<T>): Promise<T>;
}
