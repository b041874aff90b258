/**
 * Results from outside (HL7 ORU^R01) that matched no order number, oldest first: each attached to the order it
 * belongs to, named by its order number, or rejected with a note. The lab's and the admin's.
 */
import { useState } from 'react';
import type { UnmatchedResultJson } from '../../domain/lab/lab-shapes.ts';
import { apiPost, listAt } from '../api.ts';
import type { AlertMessage } from './alert.tsx';
import { ActionDialog } from './action-dialog.tsx';
import { DataTable, type Column } from './data-table.tsx';
import { Field } from './field.tsx';
import { formatDateTime } from '../format.ts';
import { endpoints } from '../paths.ts';

const loadUnmatched = listAt<UnmatchedResultJson>(endpoints.lab.unmatched, 'results');

const resultText = (r: UnmatchedResultJson) =>
  r.value !== null ? [r.value, r.unit].filter(Boolean).join(' ') : (r.answer ?? r.text ?? '—');

type Step = { result: UnmatchedResultJson; step: 'attach' | 'reject' };

interface UnmatchedResultsProps {
  /** Says on the page how an attach or reject went. */
  onDone: (message: AlertMessage) => void;
}

export function UnmatchedResults({ onDone }: UnmatchedResultsProps) {
  const [reloadKey, setReloadKey] = useState(0);
  const [step, setStep] = useState<Step | null>(null);

  const columns: Column<UnmatchedResultJson>[] = [
    { header: 'Order number', text: (r) => r.order_number },
    { header: 'Test', text: (r) => r.code },
    { header: 'Result', text: resultText },
    { header: 'From', text: (r) => r.source, priority: 2 },
    { header: 'Message', text: (r) => r.message_id, priority: 3 },
    { header: 'Received', cell: (r) => formatDateTime(r.received_at), priority: 2 },
  ];
  const done = (message: AlertMessage) => {
    setStep(null);
    setReloadKey((key) => key + 1);
    onDone(message);
  };

  return (
    <>
      <DataTable
        label="Unmatched results"
        columns={columns}
        load={loadUnmatched}
        rowKey={(r) => r.id}
        rowName={(r) => `${r.code} for ${r.order_number}`}
        emptyText="No unmatched results."
        reloadKey={reloadKey}
        searchable={false}
        actions={(r) => [
          {
            label: 'Attach',
            name: `Attach ${r.code} for ${r.order_number}`,
            onSelect: () => setStep({ result: r, step: 'attach' }),
          },
          {
            label: 'Reject',
            name: `Reject ${r.code} for ${r.order_number}`,
            tone: 'danger',
            onSelect: () => setStep({ result: r, step: 'reject' }),
          },
        ]}
      />
      {step?.step === 'attach' && <AttachDialog result={step.result} onClose={() => setStep(null)} onDone={done} />}
      {step?.step === 'reject' && <RejectDialog result={step.result} onClose={() => setStep(null)} onDone={done} />}
    </>
  );
}

interface StepDialogProps {
  result: UnmatchedResultJson;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}

function AttachDialog({ result, onClose, onDone }: StepDialogProps) {
  const [orderNumber, setOrderNumber] = useState('');
  return (
    <ActionDialog
      title={`Attach ${result.code} (${resultText(result)})`}
      label="Attach result"
      submitLabel="Attach"
      send={async () => {
        await apiPost(endpoints.lab.unmatchedStep(result.id, 'attach'), { order_number: orderNumber.trim() });
        return `${result.code} attached to order ${orderNumber.trim()}`;
      }}
      failureText="The result could not be attached"
      onClose={onClose}
      onDone={onDone}
    >
      {(errors) => (
        <Field label="Order number" errors={errors.order_number} hint={`It came as ${result.order_number}`}>
          {(control) => (
            <input {...control} required value={orderNumber} onChange={(e) => setOrderNumber(e.target.value)} />
          )}
        </Field>
      )}
    </ActionDialog>
  );
}

function RejectDialog({ result, onClose, onDone }: StepDialogProps) {
  const [note, setNote] = useState('');
  return (
    <ActionDialog
      title={`Reject ${result.code} for ${result.order_number}`}
      label="Reject result"
      submitLabel="Reject"
      send={async () => {
        await apiPost(endpoints.lab.unmatchedStep(result.id, 'reject'), { note });
        return `${result.code} for ${result.order_number} rejected`;
      }}
      failureText="The result could not be rejected"
      onClose={onClose}
      onDone={onDone}
    >
      {(errors) => (
        <Field label="Reason" errors={errors.note}>
          {(control) => <textarea {...control} required value={note} onChange={(e) => setNote(e.target.value)} />}
        </Field>
      )}
    </ActionDialog>
  );
}
