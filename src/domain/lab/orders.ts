import type { Actor } from '../shared/actor.ts';
import { conflict, forbidden, invalid } from '../shared/errors.ts';
import type { CatalogueTest } from './catalogue.ts';

export const PRIORITIES = ['routine', 'urgent', 'stat'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Where an order comes from: a visit (its appointment) or a hospital stay (its admission). */
export type OrderSource = { kind: 'visit'; appointmentId: number } | { kind: 'stay'; admissionId: number };

export const ORDER_STATUSES = ['ordered', 'collected', 'resulted', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ITEM_STATUSES = ['waiting', 'collected', 'rejected', 'resulted', 'cancelled'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** Why a lab refuses a specimen; the test can then be collected again. */
export const REJECTION_REASONS = [
  'haemolysed',
  'clotted',
  'mislabelled',
  'insufficient',
  'contaminated',
  'other',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export const MAX_CLINICAL_NOTE = 2000;
export const MAX_TESTS_PER_ORDER = 50;

/**
 * An order number: the order's date and its sequence, `L` yyyyMMdd `-` six digits. It is a string kept whole
 * everywhere (leading zeros and all), since other systems quote it back to match their results to the order.
 */
export function orderNumberOf(date: string, sequence: number): string {
  return `L${date.replaceAll('-', '')}-${String(sequence).padStart(6, '0')}`;
}

/**
 * What ordering `chosen` tests means: each panel expanded into its member tests, each test once, in the order
 * asked; an inactive test or an unknown id is a 422 naming `test_ids`. The bill lines are the tests as ordered
 * (a panel is billed at its price, not its members').
 */
export function orderLines(
  chosenIds: readonly number[],
  catalogue: ReadonlyMap<number, CatalogueTest>,
): { billed: CatalogueTest[]; items: { test: CatalogueTest; panelId: number | null }[] } {
  if (chosenIds.length === 0) throw invalid({ test_ids: ['must name at least one test'] });
  if (chosenIds.length > MAX_TESTS_PER_ORDER)
    throw invalid({ test_ids: [`must name at most ${MAX_TESTS_PER_ORDER} tests`] });
  const billed: CatalogueTest[] = [];
  const items: { test: CatalogueTest; panelId: number | null }[] = [];
  const seen = new Set<number>();
  const add = (test: CatalogueTest, panelId: number | null) => {
    if (seen.has(test.id)) return;
    seen.add(test.id);
    items.push({ test, panelId });
  };
  for (const id of new Set(chosenIds)) {
    const test = catalogue.get(id);
    if (!test?.active) throw invalid({ test_ids: [`${id} is not an orderable test`] });
    billed.push(test);
    if (test.kind === 'test') {
      add(test, null);
      continue;
    }
    for (const memberId of test.memberIds) {
      const member = catalogue.get(memberId);
      if (!member) throw invalid({ test_ids: [`panel ${test.name} names a test that is missing`] });
      add(member, test.id);
    }
  }
  return { billed, items };
}

/** An order is cancelled only before anything of it was collected; its bill lines are then voided. */
export function requireCancellable(order: { status: OrderStatus; itemStatuses: readonly ItemStatus[] }): void {
  if (order.status === 'cancelled') throw conflict('order_cancelled', 'This order is already cancelled');
  if (order.itemStatuses.some((s) => s === 'collected' || s === 'resulted'))
    throw conflict('order_collected', 'A specimen of this order was collected: it can no longer be cancelled');
}

/** A result is entered only for a test of a live order whose specimen (if it needs one) was collected. */
export function requireResultable(
  order: { status: OrderStatus },
  item: { status: ItemStatus; specimenType: string },
): void {
  if (order.status === 'cancelled' || item.status === 'cancelled')
    throw conflict('order_cancelled', 'This order was cancelled: it takes no results');
  if (item.status === 'rejected')
    throw conflict('specimen_rejected', 'The specimen was rejected: collect the test again first');
  if (item.status === 'waiting' && item.specimenType !== 'none')
    throw conflict('not_collected', 'The specimen for this test has not been collected yet');
}

/** When a result is expected: the turnaround after collection; stat orders are worked first, not promised faster. */
export const dueAt = (collectedAt: Date, turnaroundMinutes: number) =>
  new Date(collectedAt.getTime() + turnaroundMinutes * 60_000);

/** The lab's own work: orders waiting for collection, specimens and results. Admins may do it too. */
export function requireLab(actor: Actor): void {
  if (actor.role !== 'lab' && actor.role !== 'admin') throw forbidden('Only the lab may do this');
}
