/**
 * How a bill changes, never by editing it: a credit note lowers what the bill asks for; a supplementary bill is a
 * new bill, paid like any other, linked to the one it adds to.
 */
export const ADJUSTMENT_KINDS = ['credit', 'supplementary'] as const;
export type AdjustmentKind = (typeof ADJUSTMENT_KINDS)[number];
export const MAX_ADJUSTMENT_REASON_LENGTH = 1000;

export interface Adjustment {
  id: number;
  kind: AdjustmentKind;
  amountCents: number;
  reason: string;
  /** The bill a supplementary adjustment raised; null for a credit note. */
  supplementaryBillId: number | null;
  createdAt: Date;
}

export interface NewAdjustment {
  billingId: number;
  kind: AdjustmentKind;
  amountCents: number;
  reason: string;
  supplementaryBillId: number | null;
  createdBy: number;
  createdAt: Date;
}

/** The service a supplementary bill names: the bill it adds to and why. */
export const supplementaryService = (originalNumber: string, reason: string) =>
  `Supplement to ${originalNumber}: ${reason}`;
