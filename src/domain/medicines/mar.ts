import { conflict, invalid } from '../shared/errors.ts';

/**
 * A dose on the medication administration record: scheduled (`due`) until a nurse records it as given, held,
 * refused or missed; a dose of a discontinued order still due then is cancelled.
 */
export const DOSE_STATUSES = ['due', 'given', 'held', 'refused', 'missed', 'cancelled'] as const;
export type DoseStatus = (typeof DOSE_STATUSES)[number];

/** What a nurse records of a dose. */
export const DOSE_OUTCOMES = ['given', 'held', 'refused', 'missed'] as const;
export type DoseOutcome = (typeof DOSE_OUTCOMES)[number];

export const ORDER_STATUSES = ['active', 'discontinued', 'completed'] as const;
export type MedicationOrderStatus = (typeof ORDER_STATUSES)[number];

/** A dose still due this long after its time is late: shown so on the ward's MAR and the bed board. */
export const LATE_AFTER_MINUTES = 60;

export const MAX_DOSE_REASON = 500;

export function isLate(dose: { status: DoseStatus; dueAt: Date | null }, now: Date): boolean {
  return (
    dose.status === 'due' && dose.dueAt !== null && now.getTime() - dose.dueAt.getTime() > LATE_AFTER_MINUTES * 60_000
  );
}

/**
 * What a nurse records, checked: a given dose needs its amount and a time not in the future; held, refused and
 * missed need a reason (422 naming the field).
 */
export function doseRecordOf(
  input: { outcome: DoseOutcome; givenAt?: Date; amount?: number; reason?: string },
  now: Date,
): { outcome: DoseOutcome; givenAt: Date | null; amount: number | null; reason: string | null } {
  if (input.outcome === 'given') {
    const errors: Record<string, string[]> = {};
    if (input.amount === undefined) errors.dose = ['is required for a dose given'];
    else if (!(input.amount > 0)) errors.dose = ['must be more than 0'];
    const givenAt = input.givenAt ?? now;
    if (givenAt.getTime() > now.getTime()) errors.given_at = ['must not be in the future'];
    if (Object.keys(errors).length > 0) throw invalid(errors);
    return { outcome: 'given', givenAt, amount: input.amount ?? null, reason: input.reason || null };
  }
  const reason = input.reason?.trim() ?? '';
  if (reason === '') throw invalid({ reason: [`is required for a dose ${input.outcome}`] });
  if (reason.length > MAX_DOSE_REASON) throw invalid({ reason: [`must be at most ${MAX_DOSE_REASON} characters`] });
  return { outcome: input.outcome, givenAt: null, amount: null, reason };
}

/** A dose is recorded once, and only while its order runs: 409 otherwise, naming which. */
export function requireRecordable(order: { status: MedicationOrderStatus }, dose: { status: DoseStatus }): void {
  if (order.status === 'discontinued')
    throw conflict('order_discontinued', 'The order was discontinued; its doses can no longer be recorded');
  if (dose.status !== 'due')
    throw conflict('dose_already_recorded', `This dose was already recorded as ${dose.status}`);
}

/** A dose given as needed is recorded only while the order runs. */
export function requireRunning(order: { status: MedicationOrderStatus }): void {
  if (order.status === 'discontinued')
    throw conflict('order_discontinued', 'The order was discontinued; its doses can no longer be recorded');
  if (order.status === 'completed') throw conflict('order_completed', 'The order has ended');
}

/** When the request says its first dose is: an instant, or a 422 naming `field`. */
export function instantOf(raw: string | undefined, field: string, now: Date): Date {
  if (raw === undefined) return now;
  const at = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || Number.isNaN(at)) throw invalid({ [field]: ['must be a date-time'] });
  return new Date(at);
}
