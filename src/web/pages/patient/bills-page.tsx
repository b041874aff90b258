import { useState } from 'react';
import { apiGet, apiPost, fetchList, type ListQuery } from '../../api.ts';
import type { Billing, Receipt } from '../../api-types.ts';
import { Alert, failure, success, type AlertMessage } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ReceiptDialog } from '../../components/receipt-dialog.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { usd } from '../../format.ts';
import { endpoints } from '../../paths.ts';

const loadBills = (query: ListQuery) => fetchList<Billing>(endpoints.patient.billings, 'billings', query);

export default function BillsPage() {
  const [alert, setAlert] = useState<AlertMessage | null>(null);
  const [reloadKey, setReloadKey] = useState(0);
  const [paying, setPaying] = useState<number | null>(null);
  const [receipt, setReceipt] = useState<Receipt | null>(null);

  const pay = async (bill: Billing) => {
    setPaying(bill.id);
    try {
      // One key per click: a retried request is not charged twice.
      const answer = await apiPost<{ message: string }>(endpoints.patient.pay(bill.id), undefined, {
        'Idempotency-Key': crypto.randomUUID(),
      });
      setAlert(success(answer.message));
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('payment failed', error);
      setAlert(failure('Error processing payment. Please try again.'));
    } finally {
      setPaying(null);
    }
  };

  const openReceipt = async (bill: Billing) => {
    try {
      setReceipt(await apiGet<Receipt>(endpoints.receipt(bill.id)));
    } catch (error) {
      console.error('receipt fetch failed', error);
      setAlert(failure('The receipt could not be loaded. Please try again.'));
    }
  };

  const columns: Column<Billing>[] = [
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
          <button type="button" className="button button-small button-primary" disabled={paying === b.id} onClick={() => pay(b)}>
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

  return (
    <>
      <PageHeader title="Your Bills" />
      <Alert message={alert} onDismiss={() => setAlert(null)} />
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
