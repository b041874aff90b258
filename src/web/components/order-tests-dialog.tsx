/** A doctor orders lab tests and imaging from a visit or a hospital stay: tests or panels, a priority, a clinical note. */
import { useState } from 'react';
import { apiPost } from '../api.ts';
import { usd } from '../format.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { PRIORITY_LABELS, type LabTestJson } from './lab-labels.ts';
import { useSearchedList } from './use-searched-list.ts';

type Priority = keyof typeof PRIORITY_LABELS;

interface OrderTestsDialogProps {
  /** Where the order comes from: the visit's appointment or the stay's admission. */
  source: { appointment_id: number } | { admission_id: number };
  patientName: string;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}

export function OrderTestsDialog({ source, patientName, onClose, onDone }: OrderTestsDialogProps) {
  const tests = useSearchedList<LabTestJson>(endpoints.lab.tests, 'tests');
  const [chosen, setChosen] = useState<LabTestJson[]>([]);
  const [priority, setPriority] = useState<Priority>('routine');
  const [note, setNote] = useState('');
  const isChosen = (test: LabTestJson) => chosen.some((t) => t.id === test.id);
  const toggle = (test: LabTestJson) =>
    setChosen(isChosen(test) ? chosen.filter((t) => t.id !== test.id) : [...chosen, test]);

  const send = async () => {
    const placed = await apiPost<{ order_number: string }>(endpoints.lab.orders, {
      ...source,
      test_ids: chosen.map((t) => t.id),
      priority,
      note,
    });
    return `Order ${placed.order_number} placed for ${patientName}`;
  };

  return (
    <ActionDialog
      title={`Order tests for ${patientName}`}
      label="Order tests"
      submitLabel="Place order"
      send={send}
      failureText="The order could not be placed"
      onClose={onClose}
      onDone={onDone}
      wide
    >
      {(errors) => (
        <>
          <Field label="Find a test or panel" hint="By name or code, e.g. potassium or 2823-3" errors={errors.test_ids}>
            {(control) => (
              <input
                {...control}
                type="search"
                value={tests.search}
                onChange={(e) => tests.setSearch(e.target.value)}
              />
            )}
          </Field>
          <fieldset className="test-picker">
            <legend>Tests</legend>
            {tests.failed && <p className="field-error">The catalogue could not be loaded.</p>}
            <ul>
              {(tests.list?.rows ?? [])
                .filter((t) => t.active)
                .map((test) => (
                  <li key={test.id}>
                    <label>
                      <input type="checkbox" checked={isChosen(test)} onChange={() => toggle(test)} />
                      {test.name}
                      <span className="muted">
                        {' '}
                        · {test.kind === 'panel' ? `panel of ${test.member_ids.length}` : test.code} ·{' '}
                        {usd(test.price_cents)}
                      </span>
                    </label>
                  </li>
                ))}
            </ul>
            {tests.list && tests.list.total > tests.list.rows.length && (
              <button type="button" className="button button-small" onClick={tests.showMore}>
                Show more
              </button>
            )}
          </fieldset>
          <p aria-live="polite">
            {chosen.length === 0 ? 'No test chosen yet.' : `Chosen: ${chosen.map((t) => t.name).join(', ')}`}
          </p>
          <Field label="Priority" errors={errors.priority}>
            {(control) => (
              <select {...control} value={priority} onChange={(e) => setPriority(e.target.value as Priority)}>
                {Object.entries(PRIORITY_LABELS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Clinical note for the lab" errors={errors.note}>
            {(control) => (
              <textarea {...control} rows={3} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
            )}
          </Field>
        </>
      )}
    </ActionDialog>
  );
}
