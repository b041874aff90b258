import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { BalanceJson, BillingJson, PaymentMethod, PaymentResult, ReceiptJson } from '../../../domain/billing/billing.ts';
import { apiGet, apiPost, listAt } from '../../api.ts';
import { Alert, failure, success, type AlertMessage } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { Field } from '../../components/field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ReceiptDialog } from '../../components/receipt-dialog.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { usd } from '../../format.ts';
import { endpoints } from '../../paths.ts';

const loadBills = listAt<BillingJson>(endpoints.patient.billings, 'billings');

const METHODS: Record<PaymentMethod, string> = { card: 'Card', cash: 'Cash', bank_transfer: 'Bank transfer', insurance: 'Insurance' };

export default function BillsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [receipt, setReceipt] = useState<ReceiptJson | null>(null);
  const [paying, setPaying] = useState<BillingJson | null>(null);
  const [balance, setBalance] = useState<BalanceJson | null>(null);
  const result = useRef<HTMLDivElement>(null);
  const [announce, setAnnounce] = useState(0);

  useEffect(() => {
    apiGet<BalanceJson>(endpoints.patient.balance)
      .then(setBalance)
      .catch((error: unknown) => console.error('balance fetch failed', error));
  }, [reloadKey]);

  // After paying, focus goes to the result rather than to the page body (the Pay button it came from is gone).
  useEffect(() => {
    if (announce > 0) result.current?.focus();
  }, [announce]);

  const openReceipt = async (bill: BillingJson) => {
    try {
      setReceipt(await apiGet<ReceiptJson>(endpoints.receipt(bill.id)));
    } catch (error) {
      console.error('receipt fetch failed', error);
      setAlert(failure('The receipt could not be loaded. Please try again.'));
    }
  };

  const columns: Column<BillingJson>[] = [
    { header: 'Bill', cell: (b) => `#${b.id}`, priority: 2 },
    { header: 'Service', text: (b) => b.service_details },
    { header: 'Date', cell: (b) => b.billing_date },
    { header: 'Amount', cell: (b) => usd(b.amount_cents) },
    {
      header: 'Status',
      cell: (b) =>
        b.payment_status === 'paid' ? (
          <StatusBadge status="paid" />
        ) : (
          <button type="button" className="button button-small button-primary" onClick={() => setPaying(b)} aria-label={`Pay bill #${b.id}`}>
            Pay
          </button>
        ),
    },
    {
      header: 'Receipt',
      cell: (b) => (
        <button type="button" className="button button-small" onClick={() => openReceipt(b)} aria-label={`Receipt of bill #${b.id}`}>
          Receipt
        </button>
      ),
    },
  ];

  const finish = (message: AlertMessage) => {
    setPaying(null);
    setAlert(message);
    setAnnounce((n) => n + 1);
  };

  return (
    <>
      <PageHeader title="Your Bills" />
      <p className="balance" aria-live="polite">
        {balance === null ? (
          '\u00a0'
        ) : balance.unpaid_bills === 0 ? (
          'Nothing outstanding'
        ) : (
          <>
            Outstanding balance: <strong>{usd(balance.outstanding_cents)}</strong> ({balance.unpaid_bills} unpaid {balance.unpaid_bills === 1 ? 'bill' : 'bills'})
          </>
        )}
      </p>
      <div ref={result} tabIndex={-1} className="result-focus">
        <Alert message={alert} onDismiss={dismiss} />
      </div>
      <DataTable label="Your bills" columns={columns} load={loadBills} rowKey={(b) => b.id} emptyText="No bills found." reloadKey={reloadKey} />
      {paying && (
        <PayDialog
          bill={paying}
          onClose={() => setPaying(null)}
          onPaid={(answer) => {
            finish(success(answer.message));
            setReloadKey((key) => key + 1);
          }}
          onFailed={() => finish(failure('Error processing payment. Please try again.'))}
        />
      )}
      <ReceiptDialog receipt={receipt} onClose={() => setReceipt(null)} />
    </>
  );
}

interface PayDialogProps {
  bill: BillingJson;
  onClose: () => void;
  onPaid: (answer: PaymentResult) => void;
  onFailed: () => void;
}

/** Paying asks first: the bill, its amount and how it is paid, then one payment however often it is clicked. */
function PayDialog({ bill, onClose, onPaid, onFailed }: PayDialogProps) {
  const [method, setMethod] = useState<PaymentMethod>('card');
  // One key per confirmed payment: a retried request is not charged twice.
  const [key] = useState(() => crypto.randomUUID());
  const { busy, run } = useSubmit('payment');

  const pay = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => onPaid(await apiPost<PaymentResult>(endpoints.patient.pay(bill.id), { method }, { 'Idempotency-Key': key })), onFailed);
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
              {Object.entries(METHODS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
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
