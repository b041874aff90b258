/**
 * Unmatched results: results from outside (an analyser, another laboratory) whose order number matched no order,
 * oldest first, each for the lab to attach to the right order or reject with the reason.
 */
import { useState } from 'react';
import { listAt } from '../../api.ts';
import { Alert, type AlertMessage } from '../../components/alert.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { valueText, type UnmatchedResultJson } from '../../components/lab-labels.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { AttachDialog, RejectUnmatchedDialog, unmatchedText } from '../../components/unmatched-dialogs.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { formatDateTime } from '../../format.ts';
import { endpoints } from '../../paths.ts';

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

export default function UnmatchedPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [open, setOpen] = useState<{ step: Step; result: UnmatchedResultJson } | null>(null);
  const done = (message: AlertMessage) => {
    setOpen(null);
    setAlert(message);
    setReloadKey((key) => key + 1);
  };
  const Dialog = open?.step === 'attach' ? AttachDialog : RejectUnmatchedDialog;
  return (
    <>
      <PageHeader title="Unmatched results" />
      <p className="muted">
        Results received whose order number matched no order: attach each to its order, or reject it.
      </p>
      <Alert message={alert} onDismiss={dismiss} />
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
