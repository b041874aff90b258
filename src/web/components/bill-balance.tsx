/** A bill's balance, with its credit notes and any refund due after them noted beneath. */
import type { BillingJson } from '../../domain/billing/billing-shapes.ts';
import { usd } from '../format.ts';

type Balanced = Pick<BillingJson, 'balance_cents' | 'credited_cents' | 'refund_due_cents' | 'adjustments'>;

export function BillBalance({ bill }: { bill: Balanced }) {
  const credits = bill.adjustments.filter((a) => a.kind === 'credit');
  return (
    <span className="bill-balance">
      {usd(bill.balance_cents)}
      {credits.length > 0 && (
        <small title={credits.map((a) => `${usd(a.amount_cents)}: ${a.reason}`).join('\n')}>
          {' '}
          (credited {usd(bill.credited_cents)})
        </small>
      )}
      {bill.refund_due_cents > 0 && <small> Refund due {usd(bill.refund_due_cents)}</small>}
    </span>
  );
}
