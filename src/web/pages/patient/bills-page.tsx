import { useState } from 'react';
import type { BillingJson, PaymentResult, ReceiptJson } from '../../../domain/billing/billing.ts';
import { apiGet, apiPost, listAt } from '../../api.ts';
import { Alert, failure, success, type AlertMessage } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ReceiptDialog } from '../../components/receipt-dialog.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { usd } from '../../format.ts';
import { endpoints } from '../../paths.ts';

const loadBills = listAt<BillingJson>(endpoints.patient.billings, 'billings');

export default function BillsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [receipt, setReceipt] = useState<ReceiptJson | null>(null);

  const openReceipt = async (bill: BillingJson) => {
    try {
      setReceipt(await apiGet<ReceiptJson>(endpoints.receipt(bill.id)));
    } catch (error) {
      console.error('receipt fetch failed', error);
      setAlert(failure('The receipt could not be loaded. Please try again.'));
    }
  };

  const columns: Column<BillingJson>[] = [
    { header: 'Bill', cell: (b) => `#${b.id}` },
    { header: 'Service', cell: (b) => b.service_details },
    { header: 'Date', cell: (b) => b.billing_date },
    { header: 'Amount', cell: (b) => usd(b.amount_cents) },
    {
      header: 'Status',
      cell: (b) =>
        b.payment_status === 'paid' ? (
          <StatusBadge status="paid" />
        ) : (
          <PayButton bill={b} setAlert={setAlert} onPaid={() => setReloadKey((key) => key + 1)} />
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

  return (
    <>
      <PageHeader title="Your Bills" />
      <Alert message={alert} onDismiss={dismiss} />
      <DataTable
        label="Your bills"
        columns={columns}
        load={loadBills}
        rowKey={(b) => b.id}
        emptyText="No bills found."
        reloadKey={reloadKey}
      />
      <ReceiptDialog receipt={receipt} onClose={() => setReceipt(null)} />
    </>
  );
}

interface PayButtonProps {
  bill: BillingJson;
  setAlert: (message: AlertMessage) => void;
  onPaid: () => void;
}

/** An unpaid bill's Pay button, disabled while its payment runs. */
function PayButton({ bill, setAlert, onPaid }: PayButtonProps) {
  const { busy, run } = useSubmit('payment');
  const pay = () =>
    run(
      async () => {
        // One key per click: a retried request is not charged twice.
        const answer = await apiPost<PaymentResult>(endpoints.patient.pay(bill.id), undefined, { 'Idempotency-Key': crypto.randomUUID() });
        setAlert(success(answer.message));
        onPaid();
      },
      () => setAlert(failure('Error processing payment. Please try again.')),
    );
  return (
    <button type="button" className="button button-small button-primary" disabled={busy} onClick={pay}>
      Pay
    </button>
  );
}
