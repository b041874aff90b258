import type { AuditLog } from '../audit/audit.ts';
import type { AdjustmentStore, BillStore } from '../billing/ports.ts';
import type { CareTeam } from '../care/ports.ts';
import type { Gender } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import type { CatalogueTest } from './catalogue.ts';
import type { Interpretation } from './interpretation.ts';
import type { ItemStatus, OrderSource, OrderStatus, Priority, RejectionReason } from './orders.ts';
import type { ObservationValue, ReportStatus } from './reports.ts';
import type { Units } from './units.ts';

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

export interface LabStore {
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
  /** Raises an alert on each critical value of the report's current versions; answers how many were raised. */
  raiseCriticalAlerts(reportId: number, at: Date, escalatesAt: Date): Promise<number>;
  /** Records the acknowledgement once: false when it was already acknowledged. */
  acknowledge(alertId: number, doctorId: number, at: Date): Promise<boolean>;
  alert(
    alertId: number,
  ): Promise<
    { id: number; patientId: number; orderingDoctorId: number; departmentId: number | null; raisedAt: Date } | undefined
  >;
  doctorDepartment(doctorId: number): Promise<number | null>;
}

export interface LabDeps {
  lab: LabStore;
  bills: BillStore;
  adjustments: AdjustmentStore;
  units: Units;
  audit: AuditLog;
  careTeam: CareTeam;
  clock: Clock;
  timeZone: string;
  /** RESULTS_AUTO_RELEASE_DAYS: null for never. */
  autoReleaseDays: number | null;
  transaction<T>(fn: (tx: LabDeps) => Promise<T>): Promise<T>;
}
