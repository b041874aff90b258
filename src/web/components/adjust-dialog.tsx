/** Adjusting a bill at the desk: a credit note against it or a supplementary bill linked to it, with an amount and a reason. */
import { useState, type FormEvent } from 'react';
import type { AdjustmentKind } from '../../domain/billing/adjustments.ts';
import type { AdjustmentResult, BillingJson } from '../../domain/billing/billing-shapes.ts';
import { apiPost } from '../api.ts';
import { failure, success, type AlertMessage } from './alert.tsx';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { hasFieldErrors, useSubmit } from './use-submit.ts';
import { usd } from '../format.ts';
import { AmountInput } from './amount-input.tsx';
import { BillSummary, type SummarizedBill } from './bill-summary.tsx';
import { endpoints } from '../paths.ts';

export const ADJUSTMENT_NAMES: Record<AdjustmentKind, string> = {
  credit: 'Credit note',
  supplementary: 'Supplementary bill',
};

interface AdjustDialogProps {
  bill: SummarizedBill & Pick<BillingJson, 'adjusted_amount'>;
  onClose: () => void;
  /** After the dialog closed on an adjustment, for the page to load its bills again. */
  onAdjusted: () => void;
  /** Says how it went, on the page's alert. */
  setAlert: (message: AlertMessage) => void;
}

export function AdjustDialog({ bill, onClose, onAdjusted, setAlert }: AdjustDialogProps) {
  const [kind, setKind] = useState<AdjustmentKind>(bill.adjusted_amount_cents > 0 ? 'credit' : 'supplementary');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  // One key per dialog: a double submit adjusts the bill once.
  const [key] = useState(() => crypto.randomUUID());
  const { busy, errors, run } = useSubmit('adjustment');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        const answer = await apiPost<AdjustmentResult>(
          endpoints.desk.adjust(bill.id),
          { kind, amount, reason },
          { 'Idempotency-Key': key },
        );
        onClose();
        setAlert(success(answer.message));
        onAdjusted();
      },
      // A refused amount or reason is shown by its field, and the dialog stays open to correct it.
      (error) => {
        if (hasFieldErrors(error)) return;
        onClose();
        setAlert(failure('The bill could not be adjusted. Please try again.'));
      },
    );
  };

  return (
    <Dialog open title={`Adjust bill #${bill.id}`} onClose={onClose} className="dialog-confirm">
      <form className="form" onSubmit={submit} aria-label="Adjustment">
        <BillSummary bill={bill} />
        <Field label="Type" errors={errors.kind}>
          {(control) => (
            <select
              {...control}
              value={kind}
              onChange={(e) => setKind(e.target.value === 'credit' ? 'credit' : 'supplementary')}
            >
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
          hint={
            kind === 'credit'
              ? `Up to ${usd(bill.adjusted_amount_cents)}; what was paid beyond the new amount is owed back`
              : 'A new bill for the patient, linked to this one'
          }
        >
          {(control) => (
            <AmountInput
              control={control}
              max={kind === 'credit' ? bill.adjusted_amount : undefined}
              value={amount}
              onChange={setAmount}
            />
          )}
        </Field>
        <Field label="Reason" errors={errors.reason}>
          {(control) => (
            <textarea
              {...control}
              required
              maxLength={1000}
              rows={3}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          )}
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
