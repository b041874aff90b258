import type { ReceiptJson } from '../../domain/billing/billing-shapes.ts';
import { Dialog } from './dialog.tsx';
import { ReceiptView, receiptKind } from './receipt-view.tsx';

/** A bill's receipt (or, unpaid, its invoice) in a dialog, open while there is one, with a Print button. */
export function ReceiptDialog({ receipt, onClose }: { receipt: ReceiptJson | null; onClose: () => void }) {
  return (
    <Dialog
      open={receipt !== null}
      title={receipt ? receiptKind(receipt) : 'Receipt'}
      onClose={onClose}
      className="dialog-receipt"
      actions={
        <button type="button" className="button button-primary" onClick={() => window.print()}>
          Print
        </button>
      }
    >
      {receipt && <ReceiptView receipt={receipt} />}
    </Dialog>
  );
}
