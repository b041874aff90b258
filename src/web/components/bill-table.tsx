/** A patient's bills, each with its balance and status, with Pay (or the desk's Take payment) on each not paid in full, and its receipt to open and print. */
import { useState } from 'react';
import type { BillingJson, ReceiptJson } from '../../domain/billing/billing-shapes.ts';
import { apiGet, type ListPage, type ListQuery } from '../api.ts';
import { failure, type AlertMessage } from './alert.tsx';
import { DataTable, type Column } from './data-table.tsx';
import { BillBalance } from './bill-balance.tsx';
import { ReceiptDialog } from './receipt-dialog.tsx';
import type { RowAction } from './row-actions.tsx';
import { StatusBadge } from './status-badge.tsx';
import { formatDate, usd } from '../format.ts';
import { endpoints } from '../paths.ts';

interface BillTableProps {
  label: string;
  load: (query: ListQuery, signal: AbortSignal) => Promise<ListPage<BillingJson>>;
  reloadKey: number;
  /** The button on an unpaid bill: "Pay", or the desk's "Take payment". */
  payLabel: string;
  onPay: (bill: BillingJson) => void;
  /** The desk's Adjust: a credit note or a supplementary bill. */
  onAdjust?: (bill: BillingJson) => void;
  setAlert: (message: AlertMessage) => void;
  searchable?: boolean;
}

export function BillTable({ label, load, reloadKey, payLabel, onPay, onAdjust, setAlert, searchable }: BillTableProps) {
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
    { header: 'Date', cell: (b) => formatDate(b.billing_date) },
    { header: 'Amount', cell: (b) => usd(b.amount_cents) },
    { header: 'Balance', cell: (b) => <BillBalance bill={b} /> },
    { header: 'Status', cell: (b) => <StatusBadge status={b.payment_status} /> },
  ];
  const actions = (b: BillingJson): RowAction[] => [
    ...(b.payment_status === 'paid'
      ? []
      : [{ label: payLabel, name: `${payLabel} bill #${b.id}`, onSelect: () => onPay(b), tone: 'primary' as const }]),
    { label: 'Receipt', name: `Receipt of bill #${b.id}`, onSelect: () => void openReceipt(b) },
    ...(onAdjust ? [{ label: 'Adjust', name: `Adjust bill #${b.id}`, onSelect: () => onAdjust(b) }] : []),
  ];

  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        load={load}
        rowKey={(b) => b.id}
        emptyText="No bills found."
        reloadKey={reloadKey}
        searchable={searchable}
        actions={actions}
        rowName={(b) => `bill #${b.id}`}
      />
      <ReceiptDialog receipt={receipt} onClose={() => setReceipt(null)} />
    </>
  );
}
