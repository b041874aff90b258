/** A nurse or doctor records a set of vital signs for the patient in a bed, from the bed board. */
import { useState } from 'react';
import { apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { bedPlace, type BedJson } from './ward.ts';
import type { VitalSetJson } from '../../domain/vitals/vitals-shapes.ts';

const NUMBERS = [
  ['respiratory_rate', 'Respiratory rate (/min)'],
  ['spo2', 'SpO2 (%)'],
  ['systolic', 'Systolic BP (mm Hg)'],
  ['diastolic', 'Diastolic BP (mm Hg)'],
  ['heart_rate', 'Pulse (/min)'],
  ['temperature', 'Temperature'],
  ['weight', 'Weight (kg)'],
  ['height', 'Height (cm)'],
  ['pain_score', 'Pain (0-10)'],
] as const;
type NumberKey = (typeof NUMBERS)[number][0];

const ACVPU_LABELS = { A: 'Alert', C: 'New confusion', V: 'Voice', P: 'Pain', U: 'Unresponsive' } as const;

export function VitalsDialog({
  bed,
  onClose,
  onDone,
}: {
  bed: BedJson;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}) {
  const [values, setValues] = useState<Record<NumberKey, string>>({
    respiratory_rate: '',
    spo2: '',
    systolic: '',
    diastolic: '',
    heart_rate: '',
    temperature: '',
    weight: '',
    height: '',
    pain_score: '',
  });
  const [unit, setUnit] = useState('Cel');
  const [oxygen, setOxygen] = useState(false);
  const [consciousness, setConsciousness] = useState('A');
  // One key per opened dialog: a double submit, or a retry after a lost answer, stores the set once.
  const [key] = useState(() => crypto.randomUUID());
  const admissionId = bed.occupant?.admission_id;
  return (
    <ActionDialog
      onClose={onClose}
      onDone={onDone}
      title={`Vital signs: ${bed.occupant?.patient.name ?? bedPlace(bed)}`}
      label="Record vital signs"
      submitLabel="Record"
      failureText="The vital signs could not be recorded. Please try again."
      send={async () => {
        const numbers = Object.fromEntries(
          Object.entries(values)
            .filter(([, v]) => v.trim() !== '')
            .map(([k, v]) => [k, Number(v)]),
        );
        const set = await apiPost<VitalSetJson>(
          endpoints.vitals.sets,
          {
            admission_id: admissionId,
            ...numbers,
            temperature_unit: unit,
            on_oxygen: oxygen,
            consciousness,
          },
          { 'Idempotency-Key': key },
        );
        return set.news2
          ? `NEWS2 ${set.news2.total} (${set.news2.risk} risk) for ${set.patient.name}`
          : `Vital signs recorded for ${set.patient.name}`;
      }}
    >
      {(errors) => (
        <>
          {NUMBERS.map(([name, label]) => (
            <Field key={name} label={label} errors={errors[name]}>
              {(control) => (
                <input
                  {...control}
                  inputMode="decimal"
                  value={values[name]}
                  onChange={(e) => setValues((was) => ({ ...was, [name]: e.target.value }))}
                />
              )}
            </Field>
          ))}
          <Field label="Temperature unit" errors={errors.temperature_unit}>
            {(control) => (
              <select {...control} value={unit} onChange={(e) => setUnit(e.target.value)}>
                <option value="Cel">°C</option>
                <option value="[degF]">°F</option>
              </select>
            )}
          </Field>
          <Field label="Consciousness (ACVPU)" errors={errors.consciousness}>
            {(control) => (
              <select {...control} value={consciousness} onChange={(e) => setConsciousness(e.target.value)}>
                {Object.entries(ACVPU_LABELS).map(([code, text]) => (
                  <option key={code} value={code}>
                    {code}: {text}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <label className="checkbox">
            <input type="checkbox" checked={oxygen} onChange={(e) => setOxygen(e.target.checked)} /> On supplemental
            oxygen
          </label>
        </>
      )}
    </ActionDialog>
  );
}
