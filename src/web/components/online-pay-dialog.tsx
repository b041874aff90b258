import type { FormEvent } from 'react';
import type { BillingJson, CheckoutResult, PaymentOptionsJson } from '../../domain/billing/billing-shapes.ts';
import { ApiError, apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { usd } from '../format.ts';
import { BillSummary } from './bill-summary.tsx';
import { Dialog } from './dialog.tsx';
import { useSubmit } from './use-submit.ts';

interface OnlinePayDialogProps {
  bill: BillingJson;
  options: PaymentOptionsJson;
  onClose: () => void;
  /** The checkout could not be opened; `message` says why. */
  onFailed: (message: string) => void;
}

/**
 * A patient's Pay: with a card processor, on to its payment page (the bill shows Paid once the processor confirms
 * the payment); without one, how to pay instead — at the desk, or by bank transfer quoting the bill's number.
 */
export function OnlinePayDialog({ bill, options, onClose, onFailed }: OnlinePayDialogProps) {
  return options.online_card ? (
    <CardCheckoutDialog bill={bill} onClose={onClose} onFailed={onFailed} />
  ) : (
    <HowToPayDialog bill={bill} options={options} onClose={onClose} />
  );
}

function CardCheckoutDialog({ bill, onClose, onFailed }: Omit<OnlinePayDialogProps, 'options'>) {
  const { busy, run } = useSubmit('card checkout');
  const pay = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        const { checkout_url } = await apiPost<CheckoutResult>(endpoints.patient.pay(bill.id), { method: 'card' });
        window.location.assign(checkout_url);
      },
      // A refusal (409) or an unreachable processor (503) says why; anything else cannot be helped by the patient.
      (error) =>
        onFailed(
          error instanceof ApiError && [409, 503].includes(error.status)
            ? error.message
            : 'Error processing payment. Please try again.',
        ),
    );
  };
  return (
    <Dialog open title="Pay by card" onClose={onClose} className="dialog-confirm">
      <form className="form" onSubmit={pay} aria-label="Payment">
        <BillSummary bill={bill} />
        <p>
          You pay on our card processor's secure page and come back here. The bill shows Paid once the payment is
          confirmed.
        </p>
        <div className="form-row">
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy}>
            {`Continue to pay ${usd(bill.balance_cents)}`}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function HowToPayDialog({ bill, options, onClose }: Omit<OnlinePayDialogProps, 'onFailed'>) {
  const { desk } = options;
  const where = [desk.name, desk.address, desk.phone].filter(Boolean).join(' · ');
  return (
    <Dialog
      open
      title="How to pay this bill"
      onClose={onClose}
      className="dialog-confirm"
      actions={
        <button type="button" className="button button-primary" onClick={onClose}>
          Close
        </button>
      }
    >
      <BillSummary bill={bill} />
      <p>Online card payment is not available. You can pay {usd(bill.balance_cents)}:</p>
      <ul className="how-to-pay">
        <li>
          <strong>At the front desk</strong> by card or cash: {where}
        </li>
        {options.bank_transfer !== null && (
          <li>
            <strong>By bank transfer</strong> to {options.bank_transfer}, quoting the reference{' '}
            <strong>{bill.bill_number}</strong>
          </li>
        )}
      </ul>
    </Dialog>
  );
}
