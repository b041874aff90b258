import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import type { BillingJson, ReceiptJson } from '../../../domain/billing/billing.ts';
import { apiGet, listAt } from '../../api.ts';
import { Alert, failure } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ReceiptDialog } from '../../components/receipt-dialog.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { usd } from '../../format.ts';
import { endpoints, routes } from '../../paths.ts';

const loadBills = listAt<BillingJson>(endpoints.admin.billings, 'billings');

/** The in-app address a Print opens in a new window: this page, showing only that bill's receipt, printing it. */
export const receiptWindowUrl = (billId: number) => `${routes.admin.bills}?receipt=${billId}`;

export default function AdminBillsPage() {
  const receiptId = new URLSearchParams(useSearch()).get('receipt');
  return receiptId ? <PrintReceipt billId={receiptId} /> : <BillsList />;
}

function BillsList() {
  const [viewing, setViewing] = useState<BillingJson | null>(null);

  const columns: Column<BillingJson>[] = [
    { header: 'Bill', cell: (b) => `#${b.id}` },
    { header: 'Patient', text: (b) => b.patient.name },
    { header: 'Email', text: (b) => b.patient.email, priority: 3 },
    { header: 'Service', text: (b) => b.service_details, priority: 2 },
    { header: 'Date', cell: (b) => b.billing_date },
    { header: 'Amount', cell: (b) => usd(b.amount_cents) },
    { header: 'Status', cell: (b) => <StatusBadge status={b.payment_status} />, priority: 2 },
    {
      header: 'Actions',
      cell: (b) => (
        <div className="row-actions">
          <button type="button" className="button button-small" onClick={() => setViewing(b)} aria-label={`View bill #${b.id}`}>
            View
          </button>
          <button
            type="button"
            className="button button-small button-primary"
            aria-label={`Print bill #${b.id} (opens a new window)`}
            onClick={() => window.open(receiptWindowUrl(b.id), '_blank', 'noopener')}
          >
            Print
          </button>
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Bills" />
      <DataTable label="Bills" columns={columns} load={loadBills} rowKey={(b) => b.id} emptyText="No bills found." />
      <Dialog open={viewing !== null} title={viewing ? `Bill #${viewing.id}` : 'Bill'} onClose={() => setViewing(null)}>
        {viewing && (
          <dl className="details">
            <dt>Patient</dt>
            <dd>
              {viewing.patient.name} ({viewing.patient.email})
            </dd>
            <dt>Service</dt>
            <dd>{viewing.service_details}</dd>
            <dt>Billing date</dt>
            <dd>{viewing.billing_date}</dd>
            <dt>Amount</dt>
            <dd>{usd(viewing.amount_cents)}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={viewing.payment_status} />
            </dd>
          </dl>
        )}
      </Dialog>
    </>
  );
}

function PrintReceipt({ billId }: { billId: string }) {
  const [receipt, setReceipt] = useState<ReceiptJson | null>(null);
  const { alert, setAlert, dismiss } = useAlert();

  useEffect(() => {
    apiGet<ReceiptJson>(endpoints.receipt(billId))
      .then(setReceipt)
      .catch((error: unknown) => {
        console.error('receipt fetch failed', error);
        setAlert(failure('The receipt could not be loaded. Please try again.'));
      });
  }, [billId, setAlert]);

  useEffect(() => {
    if (receipt) window.print();
  }, [receipt]);

  return (
    <>
      <PageHeader title="Receipt" />
      <Alert message={alert} onDismiss={dismiss} />
      <ReceiptDialog receipt={receipt} onClose={() => window.close()} />
    </>
  );
}
