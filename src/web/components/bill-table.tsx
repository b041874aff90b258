/** A patient's bills, each with its balance, with Pay (or the desk's Take payment) on each not paid in full, and its receipt to open and print. */
import { useState } from 'react';
import type { BillingJson, ReceiptJson } from '../../domain/billing/billing.ts';
import { apiGet, type ListPage, type ListQuery } from '../api.ts';
import { failure, type AlertMessage } from './alert.tsx';
import { DataTable, type Column } from './data-table.tsx';
import { ReceiptDialog } from './receipt-dialog.tsx';
import { StatusBadge } from './status-badge.tsx';
import { usd } from '../format.ts';
import { endpoints } from '../paths.ts';

interface BillTableProps {
  label: string;
  load: (query: ListQuery, signal: AbortSignal) => Promise<ListPage<BillingJson>>;
  reloadKey: number;
  /** The button on an unpaid bill: "Pay", or the desk's "Take payment". */
  payLabel: string;
  onPay: (bill: BillingJson) => void;
  setAlert: (message: AlertMessage) => void;
  searchable?: boolean;
}

export function BillTable({ label, load, reloadKey, payLabel, onPay, setAlert, searchable }: BillTableProps) {
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
    { header: 'Bill', cell: (b) => `#${b.id}`, priority: 2 },
    { header: 'Service', text: (b) => b.service_details },
    { header: 'Date', cell: (b) => b.billing_date },
    { header: 'Amount', cell: (b) => usd(b.amount_cents) },
    { header: 'Balance', cell: (b) => usd(b.balance_cents) },
    {
      header: 'Status',
      cell: (b) =>
        b.payment_status === 'paid' ? (
          <StatusBadge status="paid" />
        ) : (
          <span className="status-pay">
            {b.payment_status === 'partly_paid' && <StatusBadge status="partly_paid" />}
            <button type="button" className="button button-small button-primary" onClick={() => onPay(b)} aria-label={`${payLabel} bill #${b.id}`}>
              {payLabel}
            </button>
          </span>
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
      <DataTable label={label} columns={columns} load={load} rowKey={(b) => b.id} emptyText="No bills found." reloadKey={reloadKey} searchable={searchable} />
      <ReceiptDialog receipt={receipt} onClose={() => setReceipt(null)} />
    </>
  );
}
