import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import type { PaymentStatus } from '../../../domain/billing/billing.ts';
import type { ReceiptJson } from '../../../domain/billing/billing-shapes.ts';
import type { VisitBillJson } from '../../../domain/reports/reports-shapes.ts';
import { apiGet, listAt } from '../../api.ts';
import { AdjustDialog } from '../../components/adjust-dialog.tsx';
import { Alert, failure } from '../../components/alert.tsx';
import { BillBalance } from '../../components/bill-balance.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { ListFilters, VISIT_FILTERS, useFilteredList } from '../../components/list-filters.tsx';
import { LoadingStatus } from '../../components/list-states.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ReceiptDialog } from '../../components/receipt-dialog.tsx';
import { ReceiptView } from '../../components/receipt-view.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useFetched } from '../../components/use-fetched.ts';
import { emailOrNone, formatDate, usd } from '../../format.ts';
import { endpoints, routes } from '../../paths.ts';

const loadBills = listAt<VisitBillJson>(endpoints.admin.billings, 'billings');

/** The in-app address a Print opens in a new window: this page, showing only that bill's receipt, printing it. */
export const receiptWindowUrl = (billId: number) => `${routes.admin.bills}?receipt=${billId}`;

export default function AdminBillsPage() {
  const receiptId = new URLSearchParams(useSearch()).get('receipt');
  return receiptId ? <PrintReceipt billId={receiptId} /> : <BillsList />;
}

// Every status, as the compiler checks; the UI imports only the domain's types.
const STATUSES = Object.keys({ unpaid: true, partly_paid: true, paid: true } satisfies Record<PaymentStatus, true>);

function BillsList() {
  const { alert, setAlert, dismiss } = useAlert();
  const [viewing, setViewing] = useState<VisitBillJson | null>(null);
  const [adjusting, setAdjusting] = useState<VisitBillJson | null>(null);
  const [adjusted, setAdjusted] = useState(0);
  const list = useFilteredList({
    names: VISIT_FILTERS,
    load: loadBills,
    csvPath: endpoints.admin.billingsCsv,
    what: 'bills',
    setAlert,
  });

  const columns: Column<VisitBillJson>[] = [
    { header: 'Bill', cell: (b) => `#${b.id}` },
    { header: 'Patient', text: (b) => b.patient.name },
    { header: 'Email', text: (b) => emailOrNone(b.patient.email), priority: 3 },
    { header: 'Doctor', text: (b) => b.doctor_name ?? '', priority: 3 },
    { header: 'Service', text: (b) => b.service_details, priority: 2 },
    { header: 'Date', cell: (b) => formatDate(b.billing_date) },
    { header: 'Amount', cell: (b) => usd(b.amount_cents) },
    { header: 'Balance', cell: (b) => <BillBalance bill={b} /> },
    { header: 'Status', cell: (b) => <StatusBadge status={b.payment_status} />, priority: 2 },
  ];
  const actions = (b: VisitBillJson): RowAction[] => [
    { label: 'View', name: `View bill #${b.id}`, onSelect: () => setViewing(b) },
    {
      label: 'Print',
      name: `Print bill #${b.id} (opens a new window)`,
      onSelect: () => window.open(receiptWindowUrl(b.id), '_blank', 'noopener'),
    },
    { label: 'Adjust', name: `Adjust bill #${b.id}`, onSelect: () => setAdjusting(b) },
  ];

  return (
    <>
      <PageHeader title="Bills" />
      <Alert message={alert} onDismiss={dismiss} />
      <ListFilters label="Filter bills" statuses={STATUSES} list={list} />
      <DataTable
        label="Bills"
        columns={columns}
        load={list.load}
        rowKey={(b) => b.id}
        emptyText="No bills found."
        filterKey={list.filterKey}
        reloadKey={adjusted}
        actions={actions}
      />
      {viewing && <BillDialog bill={viewing} onClose={() => setViewing(null)} />}
      {adjusting && (
        <AdjustDialog
          bill={adjusting}
          onClose={() => setAdjusting(null)}
          onAdjusted={() => setAdjusted((n) => n + 1)}
          setAlert={setAlert}
        />
      )}
    </>
  );
}

/** The whole bill as its receipt or invoice tells it: patient, doctor, visit, items, amounts, status and payment. */
function BillDialog({ bill, onClose }: { bill: VisitBillJson; onClose: () => void }) {
  const receipt = useFetched<ReceiptJson>(endpoints.receipt(bill.id), 'bill');
  return (
    <Dialog
      open
      title={`Bill #${bill.id}`}
      onClose={onClose}
      className="dialog-receipt"
      actions={
        <button
          type="button"
          className="button button-primary"
          onClick={() => window.open(receiptWindowUrl(bill.id), '_blank', 'noopener')}
        >
          Print
        </button>
      }
    >
      {receipt ? <ReceiptView receipt={receipt} /> : <LoadingStatus what="Bill" />}
    </Dialog>
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
