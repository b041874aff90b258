/** What a dialog about a bill shows of it first: which bill, what it asks for after credit notes, what is paid and owed. */
import type { ReactNode } from 'react';
import type { BillingJson } from '../../domain/billing/billing-shapes.ts';
import { formatDate, usd } from '../format.ts';

export type SummarizedBill = Pick<
  BillingJson,
  'id' | 'service_details' | 'billing_date' | 'amount_cents' | 'adjusted_amount_cents' | 'paid_cents' | 'balance_cents'
>;

export function BillSummary({ bill, children }: { bill: SummarizedBill; children?: ReactNode }) {
  return (
    <dl className="details">
      <dt>Bill</dt>
      <dd>
        #{bill.id}, {bill.service_details} ({formatDate(bill.billing_date)})
      </dd>
      <dt>Amount</dt>
      <dd>{usd(bill.amount_cents)}</dd>
      {bill.adjusted_amount_cents !== bill.amount_cents && (
        <>
          <dt>After credit notes</dt>
          <dd>{usd(bill.adjusted_amount_cents)}</dd>
        </>
      )}
      {bill.paid_cents > 0 && (
        <>
          <dt>Paid so far</dt>
          <dd>{usd(bill.paid_cents)}</dd>
        </>
      )}
      <dt>Balance</dt>
      <dd>{usd(bill.balance_cents)}</dd>
      {children}
    </dl>
  );
}
