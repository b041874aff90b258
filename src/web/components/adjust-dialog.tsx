/** Adjusting a bill at the desk: a credit note against it or a supplementary bill linked to it, with an amount and a reason. */
import { useState, type FormEvent } from 'react';
import type { AdjustmentKind } from '../../domain/billing/adjustments.ts';
import type { AdjustmentResult, BillingJson } from '../../domain/billing/billing.ts';
import { apiPost } from '../api.ts';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { hasFieldErrors, useSubmit } from './use-submit.ts';
import { formatDate, usd } from '../format.ts';
import { endpoints } from '../paths.ts';

export const ADJUSTMENT_NAMES: Record<AdjustmentKind, string> = { credit: 'Credit note', supplementary: 'Supplementary bill' };

interface AdjustDialogProps {
  bill: Pick<BillingJson, 'id' | 'service_details' | 'billing_date' | 'amount_cents' | 'adjusted_amount_cents' | 'adjusted_amount' | 'paid_cents' | 'balance_cents'>;
  onClose: () => void;
  onAdjusted: (answer: AdjustmentResult) => void;
  onFailed: () => void;
}

export function AdjustDialog({ bill, onClose, onAdjusted, onFailed }: AdjustDialogProps) {
  const [kind, setKind] = useState<AdjustmentKind>(bill.adjusted_amount_cents > 0 ? 'credit' : 'supplementary');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  // One key per dialog: a double submit adjusts the bill once.
  const [key] = useState(() => crypto.randomUUID());
  const { busy, errors, run } = useSubmit('adjustment');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => onAdjusted(await apiPost<AdjustmentResult>(endpoints.desk.adjust(bill.id), { kind, amount, reason }, { 'Idempotency-Key': key })),
      (error) => hasFieldErrors(error) || onFailed(),
    );
  };

  return (
    <Dialog open title={`Adjust bill #${bill.id}`} onClose={onClose} className="dialog-confirm">
      <form className="form" onSubmit={submit} aria-label="Adjustment">
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
          <dt>Paid so far</dt>
          <dd>{usd(bill.paid_cents)}</dd>
          <dt>Balance</dt>
          <dd>{usd(bill.balance_cents)}</dd>
        </dl>
        <Field label="Type" errors={errors.kind}>
          {(control) => (
            <select {...control} value={kind} onChange={(e) => setKind(e.target.value === 'credit' ? 'credit' : 'supplementary')}>
              <option value="credit" disabled={bill.adjusted_amount_cents === 0}>
                {ADJUSTMENT_NAMES.credit}
              </option>
              <option value="supplementary">{ADJUSTMENT_NAMES.supplementary}</option>
            </select>
          )}
        </Field>
        <Field
          label="Amount"
          errors={errors.amount}
          hint={kind === 'credit' ? `Up to ${usd(bill.adjusted_amount_cents)}; what was paid beyond the new amount is owed back` : 'A new bill for the patient, linked to this one'}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode="decimal"
              min="0.01"
              step="0.01"
              max={kind === 'credit' ? bill.adjusted_amount : undefined}
              required
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
          )}
        </Field>
        <Field label="Reason" errors={errors.reason}>
          {(control) => <textarea {...control} required maxLength={1000} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />}
        </Field>
        <div className="form-row">
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {kind === 'credit' ? 'Issue credit note' : 'Issue supplementary bill'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
