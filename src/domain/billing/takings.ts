import { centsToDecimal } from '../shared/money.ts';
import { CURRENCY, PAYMENT_METHODS, billNumber, type DayPayment } from './billing.ts';
import type { TakingsJson } from './billing-shapes.ts';

/** One day's takings: each method's count and sum (every method listed, none taken is 0), their total, and each payment. */
export function takingsJson(date: string, timeZone: string, taken: DayPayment[]): TakingsJson {
  const methods = PAYMENT_METHODS.map((method) => {
    const mine = taken.filter((p) => p.method === method);
    const cents = mine.reduce((sum, p) => sum + p.amountCents, 0);
    return { method, payments: mine.length, amount: centsToDecimal(cents), amount_cents: cents };
  });
  const totalCents = methods.reduce((sum, m) => sum + m.amount_cents, 0);
  return {
    date,
    time_zone: timeZone,
    currency: CURRENCY,
    methods,
    payments: taken.length,
    total: centsToDecimal(totalCents),
    total_cents: totalCents,
    taken: taken.map((p) => ({
      id: p.id,
      paid_at: p.paidAt.toISOString(),
      patient: p.patient,
      bill_id: p.billingId,
      bill_number: billNumber(p.billingId),
      method: p.method,
      amount: centsToDecimal(p.amountCents),
      amount_cents: p.amountCents,
      taken_by: p.takenBy,
    })),
  };
}
