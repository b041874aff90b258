import { clinicDateTime } from '../shared/clock.ts';
import { centsToDecimal } from '../shared/money.ts';
import type { Adjustment } from './adjustments.ts';
import {
  CURRENCY,
  adjustedAmountOf,
  balanceOf,
  billNumber,
  refundDueOf,
  type Bill,
  type BilledVisitOf,
  type ClinicContact,
  type TakenPayment,
} from './billing.ts';
import type { AdjustmentJson, BillingJson, ReceiptJson } from './billing-shapes.ts';

// Bills as the wire carries them (billing-shapes.ts).

export function billingJson(bill: Bill): BillingJson {
  return {
    id: bill.id,
    bill_number: billNumber(bill.id),
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

export const adjustmentJson = (a: Adjustment): AdjustmentJson => ({
  id: a.id,
  kind: a.kind,
  amount: centsToDecimal(a.amountCents),
  amount_cents: a.amountCents,
  reason: a.reason,
  supplementary_bill_id: a.supplementaryBillId,
  created_at: a.createdAt.toISOString(),
});

/** A receipt's credit notes, oldest first, dated in the clinic's zone. */
export const creditNotesJson = (adjustments: Adjustment[], timeZone: string) =>
  adjustments
    .filter((a) => a.kind === 'credit')
    .map((a) => ({
      date: clinicDateTime(a.createdAt, timeZone).date,
      reason: a.reason,
      amount: centsToDecimal(a.amountCents),
      amount_cents: a.amountCents,
    }));

/** What a printed receipt (paid in full or in part) or invoice (unpaid) shows; one bill is one itemized service. */
export function receiptJson(
  bill: Bill,
  payments: TakenPayment[],
  visit: BilledVisitOf | undefined,
  clinic: ClinicContact,
): ReceiptJson {
  const last = payments.at(-1);
  return {
    clinic_name: clinic.name,
    clinic: { name: clinic.name, address: clinic.address, phone: clinic.phone },
    bill_number: billNumber(bill.id),
    patient: { ...bill.patient, birth_date: bill.patientBirthDate },
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
      taken_by: p.takenBy,
    })),
    payment_date: last ? clinicDateTime(last.paidAt, clinic.timeZone).date : null,
    payment_method: last?.method ?? null,
    payment_status: bill.paymentStatus,
    currency: CURRENCY,
  };
}
