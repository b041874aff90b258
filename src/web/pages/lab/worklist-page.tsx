/**
 * The lab's worklist: orders waiting for collection or results, stat first; or one order found by its number
 * (to correct a signed-off result). The lab sees the tests, specimens and values, never a note, diagnosis or bill.
 */
import { useState, type FormEvent } from 'react';
import type { ListJson } from '../../../http/answers.ts';
import { apiPost } from '../../api.ts';
import { Alert, success, type AlertMessage } from '../../components/alert.tsx';
import { Field } from '../../components/field.tsx';
import {
  FLAG_LABELS,
  ITEM_STATUS_LABELS,
  PRIORITY_LABELS,
  REPORT_STATUS_LABELS,
  valueText,
  type WorkOrderJson,
} from '../../components/lab-labels.ts';
import {
  CollectDialog,
  CorrectDialog,
  LabelDialog,
  RejectDialog,
  ResultDialog,
  type WorkItem,
} from '../../components/lab-work-dialogs.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { ALL, failureFor, useAlert } from '../../components/use-alert.ts';
import { useLoaded } from '../../components/use-fetched.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { formatDate, formatDateTime } from '../../format.ts';
import { endpoints } from '../../paths.ts';

type Step = 'collect' | 'label' | 'reject' | 'result' | 'correct';
const DIALOGS = {
  reject: RejectDialog,
  result: ResultDialog,
  correct: CorrectDialog,
} as const;

export default function WorklistPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [typed, setTyped] = useState('');
  const [orderNumber, setOrderNumber] = useState('');
  const [open, setOpen] = useState<{ step: Step; order: WorkOrderJson; item: WorkItem } | null>(null);
  const { loaded, retry } = useLoaded<ListJson<'orders', WorkOrderJson>>(
    endpoints.lab.worklist,
    'Worklist',
    { ...ALL, order_number: orderNumber || undefined },
    reloadKey,
  );

  const done = (message: AlertMessage, next?: { step: Step; order: WorkOrderJson; item: WorkItem }) => {
    setAlert(message);
    setOpen(next ?? null);
    setReloadKey((key) => key + 1);
  };
  const find = (event: FormEvent) => {
    event.preventDefault();
    setOrderNumber(typed.trim());
  };

  return (
    <>
      <PageHeader title={orderNumber ? `Order ${orderNumber}` : 'Worklist'} />
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form-row lab-find" onSubmit={find} aria-label="Find an order">
        <Field label="Order number" hint="Any order, whatever its status: to correct a signed-off result">
          {(control) => <input {...control} value={typed} onChange={(e) => setTyped(e.target.value)} />}
        </Field>
        <button type="submit" className="button">
          Find
        </button>
        {orderNumber && (
          <button
            type="button"
            className="button"
            onClick={() => {
              setTyped('');
              setOrderNumber('');
            }}
          >
            Back to the worklist
          </button>
        )}
      </form>
      <PanelBody loaded={loaded} retry={retry} what="The worklist" skeleton={<div className="card lab-order" />}>
        {({ orders }) =>
          orders.length === 0 ? (
            <p className="empty">{orderNumber ? `No order ${orderNumber}.` : 'Nothing waits for the lab.'}</p>
          ) : (
            <div className="lab-orders">
              {orders.map((order) => (
                <WorkOrderCard
                  key={order.id}
                  order={order}
                  onStep={(step, item) => setOpen({ step, order, item })}
                  setAlert={setAlert}
                  onFinalized={() => setReloadKey((key) => key + 1)}
                />
              ))}
            </div>
          )
        }
      </PanelBody>
      {open?.step === 'label' && <LabelDialog order={open.order} item={open.item} onClose={() => setOpen(null)} />}
      {open?.step === 'collect' && (
        <CollectDialog
          order={open.order}
          item={open.item}
          onClose={() => setOpen(null)}
          onCollected={(message, code) =>
            done(message, { step: 'label', order: open.order, item: { ...open.item, specimen_code: code } })
          }
        />
      )}
      {open && open.step !== 'label' && open.step !== 'collect' && (
        <StepDialog step={open.step} order={open.order} item={open.item} onClose={() => setOpen(null)} onDone={done} />
      )}
    </>
  );
}

function StepDialog({
  step,
  ...props
}: {
  step: Exclude<Step, 'label' | 'collect'>;
  order: WorkOrderJson;
  item: WorkItem;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}) {
  const Chosen = DIALOGS[step];
  return <Chosen {...props} />;
}

const SIGNED_OFF = ['final', 'corrected', 'amended'];

/** What the lab may do next with a test ordered. */
function stepsOf(order: WorkOrderJson, item: WorkItem): { step: Step; label: string }[] {
  if (order.status === 'cancelled' || item.status === 'cancelled') return [];
  const needsSpecimen = item.specimen_type !== 'none';
  switch (item.status) {
    case 'waiting':
      return needsSpecimen ? [{ step: 'collect', label: 'Collect' }] : [{ step: 'result', label: 'Enter report' }];
    case 'rejected':
      return [{ step: 'collect', label: 'Collect again' }];
    case 'collected':
      return [
        { step: 'result', label: 'Enter result' },
        { step: 'label', label: 'Label' },
        { step: 'reject', label: 'Reject specimen' },
      ];
    case 'resulted':
      return [{ step: 'correct', label: SIGNED_OFF.includes(order.report_status) ? 'Correct' : 'Change' }];
  }
}

function WorkOrderCard({
  order,
  onStep,
  setAlert,
  onFinalized,
}: {
  order: WorkOrderJson;
  onStep: (step: Step, item: WorkItem) => void;
  setAlert: (message: AlertMessage) => void;
  onFinalized: () => void;
}) {
  const { busy, run } = useSubmit(`Finalize ${order.order_number}`);
  const headingId = `work-order-${order.id}`;
  const finalize = () =>
    run(
      async () => {
        await apiPost(endpoints.lab.finalize(order.id));
        setAlert(success(`Report of order ${order.order_number} is final`));
        onFinalized();
      },
      (error) => setAlert(failureFor(error, 'The report could not be finalized')),
    );
  const { patient } = order;
  return (
    <article className="card lab-order" aria-labelledby={headingId}>
      <header className="lab-order-header">
        <h2 id={headingId}>Order {order.order_number}</h2>
        <StatusBadge status={order.priority} label={PRIORITY_LABELS[order.priority]} />
        <StatusBadge status={`report-${order.report_status}`} label={REPORT_STATUS_LABELS[order.report_status]} />
      </header>
      <p className="muted">
        {patient.name}
        {patient.sex ? `, ${patient.sex}` : ''}
        {patient.birth_date ? `, born ${formatDate(patient.birth_date)}` : ''} · ordered{' '}
        {formatDateTime(order.ordered_at)} by {order.doctor}
      </p>
      <div className="table-scroll">
        <table className="lab-results">
          <caption className="visually-hidden">Tests of order {order.order_number}</caption>
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col">Specimen</th>
              <th scope="col">Status</th>
              <th scope="col">Result</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item) => (
              <tr key={item.id}>
                <th scope="row">{item.name}</th>
                <td data-label="Specimen">
                  {item.specimen_type === 'none' ? '—' : item.specimen_type}
                  {item.specimen_code && <span className="muted"> · {item.specimen_code}</span>}
                </td>
                <td data-label="Status">{ITEM_STATUS_LABELS[item.status]}</td>
                <td data-label="Result">
                  {item.result ? valueText(item.result) : ''}
                  {item.result?.interpretation && item.result.interpretation !== 'N' && (
                    <strong> {FLAG_LABELS[item.result.interpretation]}</strong>
                  )}
                </td>
                <td className="lab-steps" data-label="Actions">
                  {stepsOf(order, item).map(({ step, label }) => (
                    <button
                      key={step}
                      type="button"
                      className="button button-small"
                      aria-label={`${label}: ${item.name}`}
                      onClick={() => onStep(step, item)}
                    >
                      {label}
                    </button>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {order.report_status === 'preliminary' && (
        <button type="button" className="button button-primary" disabled={busy} onClick={() => void finalize()}>
          Finalize report
        </button>
      )}
    </article>
  );
}
