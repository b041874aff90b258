import { useState, type FormEvent } from 'react';
import type { BillingJson, DESK_PAYMENT_METHODS, PaymentMethod, PaymentResult } from '../../domain/billing/billing.ts';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { useSubmit } from './use-submit.ts';
import { usd } from '../format.ts';

const METHOD_NAMES: Record<PaymentMethod, string> = { card: 'Card', cash: 'Cash', bank_transfer: 'Bank transfer', insurance: 'Insurance' };

/** Every way a patient may pay their own bill online. */
export const ALL_METHODS = Object.keys(METHOD_NAMES) as PaymentMethod[];
/** What the front desk takes (the server's DESK_PAYMENT_METHODS). */
export const DESK_METHODS: (typeof DESK_PAYMENT_METHODS)[number][] = ['cash', 'card'];

interface PayDialogProps {
  bill: BillingJson;
  /** The ways offered, the first chosen: a patient's online, or the desk's cash and card. */
  methods: readonly PaymentMethod[];
  /** Pays with the method chosen, `key` the same for every retry of this payment. */
  pay: (method: PaymentMethod, key: string) => Promise<PaymentResult>;
  onClose: () => void;
  onPaid: (answer: PaymentResult) => void;
  onFailed: () => void;
}

/** Paying asks first: the bill, its amount and how it is paid, then one payment however often it is clicked. */
export function PayDialog({ bill, methods, pay: send, onClose, onPaid, onFailed }: PayDialogProps) {
  const [method, setMethod] = useState<PaymentMethod>(methods[0] ?? 'card');
  // One key per confirmed payment: a retried request is not charged twice.
  const [key] = useState(() => crypto.randomUUID());
  const { busy, run } = useSubmit('payment');

  const pay = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => onPaid(await send(method, key)), onFailed);
  };

  return (
    <Dialog open title="Confirm payment" onClose={onClose} className="dialog-confirm">
      <form className="form" onSubmit={pay} aria-label="Payment">
        <dl className="details">
          <dt>Bill</dt>
          <dd>
            #{bill.id}, {bill.service_details} ({bill.billing_date})
          </dd>
          <dt>Amount</dt>
          <dd>{usd(bill.amount_cents)}</dd>
        </dl>
        <Field label="Payment method">
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
        <div className="form-row">
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            Pay {usd(bill.amount_cents)}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
