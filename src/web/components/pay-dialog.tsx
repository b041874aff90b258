import { useState, type FormEvent } from 'react';
import type { PaymentMethod } from '../../domain/billing/billing.ts';
import type { BillingJson, PaymentResult } from '../../domain/billing/billing-shapes.ts';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { hasFieldErrors, useSubmit } from './use-submit.ts';
import { usd } from '../format.ts';
import { AmountInput } from './amount-input.tsx';
import { BillSummary } from './bill-summary.tsx';

export const METHOD_NAMES: Record<PaymentMethod, string> = {
  card: 'Card',
  cash: 'Cash',
  bank_transfer: 'Bank transfer',
  insurance: 'Insurance',
};

/** What the front desk records (the server's PAYMENT_METHODS), cash first. */
export const DESK_METHODS: PaymentMethod[] = ['cash', 'card', 'bank_transfer', 'insurance'];

/** A payment as the dialog sends it; no amount pays the whole balance. */
export interface PaymentForm {
  method: PaymentMethod;
  amount?: string;
}

interface PayDialogProps {
  bill: BillingJson;
  /** The ways offered, the first chosen. */
  methods: readonly PaymentMethod[];
  /** Part of the balance may be taken. */
  partial?: boolean;
  /** Pays as the form says, `key` the same for every retry of this payment. */
  pay: (payment: PaymentForm, key: string) => Promise<PaymentResult>;
  onClose: () => void;
  onPaid: (answer: PaymentResult) => void;
  onFailed: () => void;
}

/** Paying asks first: the bill, its balance and how it is paid, then one payment however often it is clicked. */
export function PayDialog({ bill, methods, partial = false, pay: send, onClose, onPaid, onFailed }: PayDialogProps) {
  const [method, setMethod] = useState<PaymentMethod>(methods[0] ?? 'card');
  const [amount, setAmount] = useState(bill.balance);
  // One key per confirmed payment: a retried request is not charged twice.
  const [key] = useState(() => crypto.randomUUID());
  const { busy, errors, run } = useSubmit('payment');

  const pay = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => onPaid(await send(partial ? { method, amount } : { method }, key)),
      // A refused amount or method is shown by its field, and the dialog stays open to correct it.
      (error) => hasFieldErrors(error) || onFailed(),
    );
  };

  return (
    <Dialog open title="Confirm payment" onClose={onClose} className="dialog-confirm">
      <form className="form" onSubmit={pay} aria-label="Payment">
        <BillSummary bill={bill}>
          {methods.length === 1 && (
            <>
              <dt>Payment method</dt>
              <dd>{METHOD_NAMES[method]}</dd>
            </>
          )}
        </BillSummary>
        {methods.length > 1 && (
          <Field label="Payment method" errors={errors.method}>
            {(control) => (
              <select {...control} value={method} onChange={(e) => setMethod(e.target.value as PaymentMethod)}>
                {methods.map((value) => (
                  <option key={value} value={value}>
                    {METHOD_NAMES[value]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {partial && (
          <Field label="Amount paid" errors={errors.amount} hint={`Up to the balance of ${usd(bill.balance_cents)}`}>
            {(control) => <AmountInput control={control} max={bill.balance} value={amount} onChange={setAmount} />}
          </Field>
        )}
        <div className="form-row">
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {partial ? 'Record payment' : `Pay ${usd(bill.balance_cents)}`}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
