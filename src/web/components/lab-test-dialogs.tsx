/**
 * An admin adds a test to the lab catalogue (with its unit, ranges and critical limits) or edits one: its name,
 * price and turnaround, and for a quantity its physical limits, ranges and critical limits by sex and age band.
 */
import { useState } from 'react';
import { apiPost, apiPut } from '../api.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { BandEditor, bandsOf, draftsOf } from './lab-band-editor.tsx';
import type { LabTestJson } from './lab-labels.ts';

interface DialogProps {
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}

const SPECIMENS = ['blood', 'serum', 'plasma', 'urine', 'stool', 'csf', 'swab', 'sputum', 'none'] as const;
const NUMBERS = [
  ['range_low', 'Usual range from'],
  ['range_high', 'Usual range to'],
  ['critical_low', 'Critical below'],
  ['critical_high', 'Critical above'],
  ['physical_low', 'Possible from'],
  ['physical_high', 'Possible to'],
] as const;

type NewTest = Record<
  'code_system' | 'code' | 'name' | 'category' | 'specimen_type' | 'result_type' | 'unit' | 'price' | 'turnaround',
  string
> &
  Record<(typeof NUMBERS)[number][0], string>;

const EMPTY: NewTest = {
  code_system: 'loinc',
  code: '',
  name: '',
  category: 'laboratory',
  specimen_type: 'serum',
  result_type: 'quantity',
  unit: '',
  price: '',
  turnaround: '60',
  range_low: '',
  range_high: '',
  critical_low: '',
  critical_high: '',
  physical_low: '',
  physical_high: '',
};

/** The number typed, or the text itself for the server to name; an empty box is left out. */
const numberOrText = (text: string) => (Number.isFinite(Number(text)) ? Number(text) : text);

function createBody(t: NewTest) {
  const quantity = t.result_type === 'quantity';
  const numbers = quantity
    ? Object.fromEntries(NUMBERS.filter(([key]) => t[key].trim() !== '').map(([key]) => [key, numberOrText(t[key])]))
    : {};
  return {
    code_system: t.code_system,
    code: t.code,
    name: t.name,
    category: t.category,
    specimen_type: t.specimen_type,
    result_type: t.result_type,
    ...(quantity ? { unit: t.unit } : {}),
    ...numbers,
    price: t.price,
    turnaround_minutes: numberOrText(t.turnaround),
  };
}

export function AddLabTestDialog({ onClose, onDone }: DialogProps) {
  const [t, setT] = useState(EMPTY);
  const text = (key: keyof NewTest, label: string, errorsOf: string[] | undefined, hint?: string) => (
    <Field key={key} label={label} errors={errorsOf} hint={hint}>
      {(control) => <input {...control} value={t[key]} onChange={(e) => setT({ ...t, [key]: e.target.value })} />}
    </Field>
  );
  const choice = (key: keyof NewTest, label: string, options: readonly string[], errorsOf: string[] | undefined) => (
    <Field key={key} label={label} errors={errorsOf}>
      {(control) => (
        <select {...control} value={t[key]} onChange={(e) => setT({ ...t, [key]: e.target.value })}>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  return (
    <ActionDialog
      title="Add a lab test"
      label="New lab test"
      submitLabel="Add test"
      send={async () => {
        const created = await apiPost<LabTestJson>(endpoints.lab.adminTests, createBody(t));
        return `${created.name} added to the catalogue`;
      }}
      failureText="The test could not be added"
      onClose={onClose}
      onDone={onDone}
      wide
    >
      {(errors) => (
        <>
          <div className="form-row">
            {choice('code_system', 'Code system', ['loinc', 'local'], errors.code_system)}
            {text('code', 'Code', errors.code, 'LOINC where one exists')}
          </div>
          {text('name', 'Name', errors.name)}
          <div className="form-row">
            {choice('category', 'Category', ['laboratory', 'imaging'], errors.category)}
            {choice('specimen_type', 'Specimen', SPECIMENS, errors.specimen_type)}
            {choice('result_type', 'Result', ['quantity', 'text'], errors.result_type)}
          </div>
          {t.result_type === 'quantity' && (
            <>
              {text('unit', 'Unit (UCUM)', errors.unit, 'e.g. mmol/L, g/dL, 10*9/L')}
              <div className="form-row form-row-wrap">
                {NUMBERS.map(([key, label]) => text(key, label, errors[key]))}
              </div>
            </>
          )}
          <div className="form-row">
            {text('price', 'Price ($)', errors.price)}
            {text('turnaround', 'Turnaround (minutes)', errors.turnaround_minutes)}
          </div>
        </>
      )}
    </ActionDialog>
  );
}

export function EditLabTestDialog({ test, onClose, onDone }: DialogProps & { test: LabTestJson }) {
  const [name, setName] = useState(test.name);
  const [price, setPrice] = useState(test.price);
  const [turnaround, setTurnaround] = useState(String(test.turnaround_minutes));
  const [active, setActive] = useState(test.active);
  const quantity = test.kind === 'test' && test.result_type === 'quantity';
  const [physicalLow, setPhysicalLow] = useState(test.physical_low === null ? '' : String(test.physical_low));
  const [physicalHigh, setPhysicalHigh] = useState(test.physical_high === null ? '' : String(test.physical_high));
  const [ranges, setRanges] = useState(draftsOf(test.ranges));
  const [critical, setCritical] = useState(draftsOf(test.critical_limits));
  const boxed = (typed: string) => (typed.trim() === '' ? null : numberOrText(typed));
  return (
    <ActionDialog
      title={`Edit ${test.name}`}
      label="Edit lab test"
      submitLabel="Save"
      send={async () => {
        const saved = await apiPut<LabTestJson>(endpoints.lab.adminTest(test.id), {
          name,
          price,
          turnaround_minutes: numberOrText(turnaround),
          active,
          row_version: test.row_version,
          ...(quantity
            ? {
                physical_low: boxed(physicalLow),
                physical_high: boxed(physicalHigh),
                ranges: bandsOf(ranges),
                critical_limits: bandsOf(critical),
              }
            : {}),
        });
        return `${saved.name} saved`;
      }}
      failureText="The test could not be saved"
      onClose={onClose}
      onDone={onDone}
      wide={quantity}
    >
      {(errors) => (
        <>
          <Field label="Name" errors={errors.name}>
            {(control) => <input {...control} required value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Price ($)" errors={errors.price}>
            {(control) => <input {...control} required value={price} onChange={(e) => setPrice(e.target.value)} />}
          </Field>
          <Field label="Turnaround (minutes)" errors={errors.turnaround_minutes}>
            {(control) => (
              <input
                {...control}
                required
                inputMode="numeric"
                value={turnaround}
                onChange={(e) => setTurnaround(e.target.value)}
              />
            )}
          </Field>
          <label className="checkbox">
            <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> Orderable
          </label>
          {quantity && (
            <>
              <p className="field-hint">
                Values in {test.unit}. Results already read keep the range and reading they were given.
              </p>
              <div className="form-row">
                <Field label="Possible from" errors={errors.physical_low}>
                  {(control) => (
                    <input
                      {...control}
                      inputMode="decimal"
                      value={physicalLow}
                      onChange={(e) => setPhysicalLow(e.target.value)}
                    />
                  )}
                </Field>
                <Field label="Possible to" errors={errors.physical_high}>
                  {(control) => (
                    <input
                      {...control}
                      inputMode="decimal"
                      value={physicalHigh}
                      onChange={(e) => setPhysicalHigh(e.target.value)}
                    />
                  )}
                </Field>
              </div>
              <BandEditor
                field="ranges"
                legend="Reference ranges"
                bands={ranges}
                onChange={setRanges}
                errors={errors}
              />
              <BandEditor
                field="critical_limits"
                legend="Critical limits"
                bands={critical}
                onChange={setCritical}
                errors={errors}
              />
            </>
          )}
        </>
      )}
    </ActionDialog>
  );
}
