/** The lab's steps on one test ordered, each in a dialog: collect (then its label), reject the specimen, enter or correct a result. */
import { useState } from 'react';
import type { FieldErrors } from '../../domain/shared/errors.ts';
import { apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { REJECTION_LABELS, type WorkOrderJson } from './lab-labels.ts';
import { SpecimenLabel } from './specimen-label.tsx';

export type WorkItem = WorkOrderJson['items'][number];

interface StepProps {
  order: WorkOrderJson;
  item: WorkItem;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}

/** A specimen id to start from: the order number and the test's place in it (R for a second collection). */
const suggestedCode = (order: WorkOrderJson, item: WorkItem) =>
  `${order.order_number}-${order.items.indexOf(item) + 1}${item.status === 'rejected' ? 'R' : ''}`;

/** Records the specimen, then hands its id on, for its label to be printed at once. */
export function CollectDialog({
  order,
  item,
  onClose,
  onCollected,
}: Omit<StepProps, 'onDone'> & { onCollected: (message: AlertMessage, specimenCode: string) => void }) {
  const [code, setCode] = useState(suggestedCode(order, item));
  return (
    <ActionDialog
      title={`Collect: ${item.name}`}
      label="Collect specimen"
      submitLabel="Record collection"
      send={async () => {
        await apiPost(endpoints.lab.itemStep(item.id, 'collect'), { specimen_code: code });
        return `Specimen ${code} collected`;
      }}
      failureText="The collection could not be recorded"
      onClose={onClose}
      onDone={(message) => onCollected(message, code)}
    >
      {(errors) => (
        <Field
          label="Specimen id"
          hint="Letters, digits and dashes: it is printed on the label as a barcode"
          errors={errors.specimen_code}
        >
          {(control) => (
            <input
              {...control}
              required
              maxLength={40}
              pattern="[A-Za-z0-9\-]+"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          )}
        </Field>
      )}
    </ActionDialog>
  );
}

export function LabelDialog({ order, item, onClose }: Omit<StepProps, 'onDone'>) {
  return (
    <Dialog
      open
      title="Specimen label"
      onClose={onClose}
      className="dialog-label"
      actions={
        <button type="button" className="button button-primary" onClick={() => window.print()}>
          Print label
        </button>
      }
    >
      <SpecimenLabel
        facts={{
          specimenCode: item.specimen_code ?? '',
          patient: order.patient,
          test: item.name,
          specimenType: item.specimen_type,
          orderNumber: order.order_number,
        }}
      />
    </Dialog>
  );
}

export function RejectDialog({ item, onClose, onDone }: StepProps) {
  const [reason, setReason] = useState<keyof typeof REJECTION_LABELS>('haemolysed');
  const [note, setNote] = useState('');
  return (
    <ActionDialog
      title={`Reject specimen: ${item.name}`}
      label="Reject specimen"
      submitLabel="Reject specimen"
      send={async () => {
        await apiPost(endpoints.lab.itemStep(item.id, 'reject'), { reason, note });
        return `Specimen ${item.specimen_code ?? ''} rejected: collect ${item.name} again`;
      }}
      failureText="The specimen could not be rejected"
      onClose={onClose}
      onDone={onDone}
    >
      {(errors) => (
        <>
          <Field label="Reason" errors={errors.reason}>
            {(control) => (
              <select
                {...control}
                value={reason}
                onChange={(e) => {
                  const chosen = Object.keys(REJECTION_LABELS).find((key) => key === e.target.value);
                  if (chosen) setReason(chosen as keyof typeof REJECTION_LABELS);
                }}
              >
                {Object.entries(REJECTION_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Note (optional)" errors={errors.note}>
            {(control) => <input {...control} value={note} onChange={(e) => setNote(e.target.value)} />}
          </Field>
        </>
      )}
    </ActionDialog>
  );
}

interface ResultValues {
  value: string;
  unit: string;
  text: string;
}

/** A result's fields as its test takes it: a number and its unit, a coded answer, or a report's text. */
function ResultFields({
  item,
  values,
  set,
  errors,
}: {
  item: WorkItem;
  values: ResultValues;
  set: (values: ResultValues) => void;
  errors: FieldErrors;
}) {
  if (item.result_type === 'quantity')
    return (
      <div className="form-row">
        <Field label="Value" errors={errors.value}>
          {(control) => (
            <input
              {...control}
              required
              inputMode="decimal"
              value={values.value}
              onChange={(e) => set({ ...values, value: e.target.value })}
            />
          )}
        </Field>
        <Field label="Unit (UCUM)" errors={errors.unit}>
          {(control) => (
            <input
              {...control}
              required
              value={values.unit}
              onChange={(e) => set({ ...values, unit: e.target.value })}
            />
          )}
        </Field>
      </div>
    );
  const label = item.result_type === 'coded' ? 'Answer' : 'Report';
  return (
    <Field label={label} errors={item.result_type === 'coded' ? errors.code : errors.text}>
      {(control) => (
        <textarea
          {...control}
          required
          rows={item.result_type === 'coded' ? 1 : 6}
          value={values.text}
          onChange={(e) => set({ ...values, text: e.target.value })}
        />
      )}
    </Field>
  );
}

/** The request body of a result as typed; a value that is no number goes as typed, for the server to name. */
function resultBody(item: WorkItem, values: ResultValues) {
  if (item.result_type === 'quantity') {
    const value = Number(values.value.replace(',', '.'));
    return { type: 'quantity', value: Number.isFinite(value) ? value : values.value, unit: values.unit.trim() };
  }
  if (item.result_type === 'coded') return { type: 'coded', code: values.text.trim() };
  return { type: 'text', text: values.text };
}

const startingValues = (item: WorkItem): ResultValues => ({
  value: item.result?.value === null || item.result?.value === undefined ? '' : String(item.result.value),
  unit: item.result?.unit ?? item.unit ?? '',
  text: item.result?.text ?? item.result?.answer ?? '',
});

export function ResultDialog({ item, onClose, onDone }: StepProps) {
  const [values, setValues] = useState(startingValues(item));
  return (
    <ActionDialog
      title={`Result: ${item.name}`}
      label="Enter result"
      submitLabel="Save result"
      send={async () => {
        const saved = await apiPost<{ interpretation: string | null }>(
          endpoints.lab.itemStep(item.id, 'result'),
          resultBody(item, values),
        );
        return `Result of ${item.name} saved${saved.interpretation ? ` (${saved.interpretation})` : ''}`;
      }}
      failureText="The result could not be saved"
      onClose={onClose}
      onDone={onDone}
      wide={item.result_type === 'text'}
    >
      {(errors) => <ResultFields item={item} values={values} set={setValues} errors={errors} />}
    </ActionDialog>
  );
}

/** A new version of a result, naming the version it corrects and why; the earlier one stays in its history. */
export function CorrectDialog({ item, onClose, onDone }: StepProps) {
  const [values, setValues] = useState(startingValues(item));
  const [reason, setReason] = useState('');
  const result = item.result;
  if (!result) return null;
  return (
    <ActionDialog
      title={`Correct: ${item.name}`}
      label="Correct result"
      submitLabel="Save correction"
      send={async () => {
        await apiPost(endpoints.lab.correct(result.observation_id), {
          ...resultBody(item, values),
          version: result.version,
          reason,
        });
        return `Result of ${item.name} corrected`;
      }}
      failureText="The correction could not be saved"
      onClose={onClose}
      onDone={onDone}
      wide={item.result_type === 'text'}
    >
      {(errors) => (
        <>
          <ResultFields item={item} values={values} set={setValues} errors={errors} />
          <Field label="Reason for the correction" errors={errors.reason ?? errors.version}>
            {(control) => <input {...control} required value={reason} onChange={(e) => setReason(e.target.value)} />}
          </Field>
        </>
      )}
    </ActionDialog>
  );
}
