/**
 * The lab's steps on a result from outside that matched no order: attach it to the order whose number they give
 * (the order found is shown before they attach), or reject it with the reason.
 */
import { useState } from 'react';
import type { ListJson } from '../../http/answers.ts';
import { apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { ITEM_STATUS_LABELS, valueText, type UnmatchedResultJson, type WorkOrderJson } from './lab-labels.ts';
import { ALL } from './use-alert.ts';
import { useLoaded } from './use-fetched.ts';

interface StepProps {
  result: UnmatchedResultJson;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}

/** What the result is, in one line: "2345-7 = 100 mg/dL". */
export const unmatchedText = (r: UnmatchedResultJson) => `${r.code} = ${valueText(r)}`;

/** The order a number names, as the lab would attach to it: its patient and its test of the result's code. */
function OrderFound({ orderNumber, code }: { orderNumber: string; code: string }) {
  const { loaded } = useLoaded<ListJson<'orders', WorkOrderJson>>(endpoints.lab.worklist, 'The order', {
    ...ALL,
    order_number: orderNumber,
  });
  if (loaded.state !== 'loaded') return <p className="muted">Looking up order {orderNumber}…</p>;
  const order = loaded.value.orders[0];
  if (!order) return <p className="field-error">No order has the number {orderNumber}.</p>;
  const item = order.items.find((i) => i.code === code);
  return (
    <p className={item ? 'muted' : 'field-error'}>
      Order {order.order_number} for {order.patient.name}
      {order.patient.birth_date ? ` (born ${order.patient.birth_date})` : ''}:{' '}
      {item ? `${item.name}, ${ITEM_STATUS_LABELS[item.status].toLowerCase()}` : `no test of code ${code}`}
    </p>
  );
}

export function AttachDialog({ result, onClose, onDone }: StepProps) {
  const [orderNumber, setOrderNumber] = useState(result.order_number);
  const [looked, setLooked] = useState(result.order_number);
  return (
    <ActionDialog
      title={`Attach ${unmatchedText(result)}`}
      label="Attach result to an order"
      submitLabel="Attach"
      send={async () => {
        await apiPost(endpoints.lab.unmatchedStep(result.id, 'attach'), { order_number: orderNumber.trim() });
        return `Result attached to order ${orderNumber.trim()}`;
      }}
      failureText="The result could not be attached"
      onClose={onClose}
      onDone={onDone}
    >
      {(errors) => (
        <>
          <Field
            label="Order number"
            errors={errors.order_number}
            hint={`The sender gave ${result.order_number}, which matches no order`}
          >
            {(control) => (
              <input
                {...control}
                required
                value={orderNumber}
                onChange={(e) => setOrderNumber(e.target.value)}
                onBlur={() => setLooked(orderNumber.trim())}
              />
            )}
          </Field>
          {looked && <OrderFound key={looked} orderNumber={looked} code={result.code} />}
        </>
      )}
    </ActionDialog>
  );
}

export function RejectUnmatchedDialog({ result, onClose, onDone }: StepProps) {
  const [note, setNote] = useState('');
  return (
    <ActionDialog
      title={`Reject ${unmatchedText(result)}`}
      label="Reject unmatched result"
      submitLabel="Reject result"
      send={async () => {
        await apiPost(endpoints.lab.unmatchedStep(result.id, 'reject'), { note });
        return `Result ${unmatchedText(result)} rejected`;
      }}
      failureText="The result could not be rejected"
      onClose={onClose}
      onDone={onDone}
    >
      {(errors) => (
        <Field label="Reason" errors={errors.note} hint="Kept with the result, e.g. not a patient of this clinic">
          {(control) => <input {...control} required value={note} onChange={(e) => setNote(e.target.value)} />}
        </Field>
      )}
    </ActionDialog>
  );
}
