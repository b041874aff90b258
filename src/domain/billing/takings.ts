import { centsToDecimal } from '../shared/money.ts';
import { CURRENCY, PAYMENT_METHODS, type PaymentMethod } from './billing.ts';
import type { TakingsJson } from './billing-shapes.ts';
import type { MethodTakings } from './ports.ts';

/** One day's takings, every method listed (none taken is 0), and the total that sums them. */
export function takingsJson(date: string, timeZone: string, taken: MethodTakings[]): TakingsJson {
  const byMethod = new Map<PaymentMethod, MethodTakings>(taken.map((t) => [t.method, t]));
  const methods = PAYMENT_METHODS.map((method) => {
    const { payments, cents } = byMethod.get(method) ?? { payments: 0, cents: 0 };
    return { method, payments, amount: centsToDecimal(cents), amount_cents: cents };
  });
  const totalCents = methods.reduce((sum, m) => sum + m.amount_cents, 0);
  return {
    date,
    time_zone: timeZone,
    currency: CURRENCY,
    methods,
    payments: methods.reduce((sum, m) => sum + m.payments, 0),
    total: centsToDecimal(totalCents),
    total_cents: totalCents,
  };
}
