/**
 * Results from outside (an analyser, another laboratory, HL7 ORU^R01) whose order number matched no order, oldest
 * first: each attached to the order it belongs to or rejected with the reason. The lab's screen and the admin's
 * Interfaces screen show this one table.
 */
import { useState } from 'react';
import { listAt } from '../api.ts';
import { formatDateTime } from '../format.ts';
import { endpoints } from '../paths.ts';
import type { AlertMessage } from './alert.tsx';
import { DataTable, type Column } from './data-table.tsx';
import { valueText, type UnmatchedResultJson } from './lab-labels.ts';
import { AttachDialog, RejectUnmatchedDialog, unmatchedText } from './unmatched-dialogs.tsx';

const loadUnmatched = listAt<UnmatchedResultJson>(endpoints.lab.unmatched, 'results');

const columns: Column<UnmatchedResultJson>[] = [
  { header: 'Received', text: (r) => formatDateTime(r.received_at) },
  { header: 'Order number given', text: (r) => r.order_number },
  { header: 'Code', text: (r) => `${r.code} (${r.code_system === 'loinc' ? 'LOINC' : 'local'})` },
  { header: 'Result', text: (r) => valueText(r) },
  { header: 'Taken', text: (r) => formatDateTime(r.effective_at), priority: 2 },
  { header: 'From', text: (r) => `${r.source} · ${r.message_id}`, priority: 3 },
];

type Step = 'attach' | 'reject';

interface UnmatchedResultsProps {
  /** Says on the page how an attach or reject went. */
  onDone: (message: AlertMessage) => void;
}

export function UnmatchedResults({ onDone }: UnmatchedResultsProps) {
  const [reloadKey, setReloadKey] = useState(0);
  const [open, setOpen] = useState<{ step: Step; result: UnmatchedResultJson } | null>(null);
  const done = (message: AlertMessage) => {
    setOpen(null);
    setReloadKey((key) => key + 1);
    onDone(message);
  };
  const Dialog = open?.step === 'attach' ? AttachDialog : RejectUnmatchedDialog;
  return (
    <>
      <DataTable
        label="Unmatched results"
        columns={columns}
        load={loadUnmatched}
        rowKey={(r) => r.id}
        rowName={unmatchedText}
        emptyText="No unmatched results."
        searchable={false}
        reloadKey={reloadKey}
        actions={(r) => [
          {
            label: 'Attach',
            name: `Attach ${unmatchedText(r)}`,
            onSelect: () => setOpen({ step: 'attach', result: r }),
          },
          {
            label: 'Reject',
            name: `Reject ${unmatchedText(r)}`,
            onSelect: () => setOpen({ step: 'reject', result: r }),
          },
        ]}
      />
      {open && <Dialog result={open.result} onClose={() => setOpen(null)} onDone={done} />}
    </>
  );
}
