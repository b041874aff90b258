/**
 * A doctor prescribes at a visit or orders a medicine for a stay: the formulary's medicine, its dose, route and
 * frequency. A recorded allergy answers 409 `allergy_conflict`: the warning names it, and the doctor may go on only
 * with a reason for the override.
 */
import { useState, type FormEvent } from 'react';
import type { FormularyEntryJson, MedicationOrderJson } from '../../domain/medicines/medicines-shapes.ts';
import type { FrequencyKind } from '../../domain/medicines/prescriptions.ts';
import { ApiError, apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { Alert } from './alert.tsx';
import { AllergyBanner } from './allergy-banner.tsx';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { SubmitRow } from './submit-row.tsx';
import { ALL, useAlert } from './use-alert.ts';
import { useFetched } from './use-fetched.ts';
import { hasFieldErrors, useSubmit } from './use-submit.ts';
import { wardFailure } from './ward.ts';

const FREQUENCY_LABELS: Record<FrequencyKind, string> = {
  times_a_day: 'Times a day',
  every_hours: 'Every N hours',
  at_times: 'At given times',
  as_needed: 'As needed',
};

interface PrescribeDialogProps {
  patient: { id: number; name: string };
  /** A visit's prescription, or a stay's inpatient order. */
  source: { appointmentId: number } | { admissionId: number };
  onClose: () => void;
  onDone: (order: MedicationOrderJson) => void;
}

export function PrescribeDialog({ patient, source, onClose, onDone }: PrescribeDialogProps) {
  const stay = 'admissionId' in source;
  const formulary =
    useFetched<{ medicines: FormularyEntryJson[] }>(endpoints.medicines.formulary, 'formulary', {
      per_page: ALL.per_page,
    })?.medicines ?? [];
  const [values, setValues] = useState({
    medicine_id: '',
    dose: '',
    dose_unit: '',
    route: '',
    frequency: 'times_a_day' as FrequencyKind,
    times_a_day: '3',
    every_hours: '8',
    at_times: '08:00, 20:00',
    min_interval_hours: '4',
    max_per_day: '4',
    duration_days: '5',
    quantity: '',
    instructions: '',
    continue_on_discharge: false,
  });
  const [conflict, setConflict] = useState<string | null>(null);
  const [overrideReason, setOverrideReason] = useState('');
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('Prescription');
  const set = <K extends keyof typeof values>(key: K, value: (typeof values)[K]) =>
    setValues((was) => ({ ...was, [key]: value }));
  const medicine = formulary.find((m) => String(m.id) === values.medicine_id);

  const frequency = (): Record<string, unknown> => {
    switch (values.frequency) {
      case 'times_a_day':
        return { times_a_day: Number(values.times_a_day) };
      case 'every_hours':
        return { every_hours: Number(values.every_hours) };
      case 'at_times':
        return { at_times: values.at_times.split(/[\s,]+/).filter(Boolean) };
      case 'as_needed':
        return { min_interval_hours: Number(values.min_interval_hours), max_per_day: Number(values.max_per_day) };
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        const order = await apiPost<MedicationOrderJson>(endpoints.medicines.orders, {
          ...('admissionId' in source
            ? { admission_id: source.admissionId }
            : { appointment_id: source.appointmentId }),
          medicine_id: Number(values.medicine_id),
          dose: Number(values.dose),
          dose_unit: values.dose_unit,
          route: values.route,
          frequency: values.frequency,
          ...frequency(),
          ...(values.duration_days ? { duration_days: Number(values.duration_days) } : {}),
          ...(!stay && values.quantity ? { quantity: Number(values.quantity) } : {}),
          ...(values.instructions ? { instructions: values.instructions } : {}),
          ...(stay ? { continue_on_discharge: values.continue_on_discharge } : {}),
          ...(conflict ? { allergy_override_reason: overrideReason } : {}),
        });
        onDone(order);
      },
      (error) => {
        if (error instanceof ApiError && error.code === 'allergy_conflict') {
          setConflict(error.message);
          setAlert(null);
        } else if (!hasFieldErrors(error))
          setAlert(wardFailure(error, 'The medicine could not be prescribed. Please try again.'));
      },
    );
  };

  return (
    <Dialog
      open
      title={`${stay ? 'Order a medicine' : 'Prescribe'}: ${patient.name}`}
      onClose={onClose}
      className="dialog-wide"
    >
      <Alert message={alert} onDismiss={dismiss} />
      <AllergyBanner patientId={patient.id} />
      <form className="form" onSubmit={submit} aria-label={stay ? 'Medicine order' : 'Prescription'}>
        <Field label="Medicine" errors={errors.medicine_id}>
          {(control) => (
            <select
              {...control}
              required
              value={values.medicine_id}
              onChange={(e) => {
                const chosen = formulary.find((m) => String(m.id) === e.target.value);
                setConflict(null);
                setValues((was) => ({
                  ...was,
                  medicine_id: e.target.value,
                  dose_unit: chosen?.dose_unit ?? '',
                  route: chosen?.routes[0] ?? '',
                }));
              }}
            >
              <option value="">Select medicine</option>
              {formulary.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="form-row">
          <Field label="Dose" errors={errors.dose}>
            {(control) => (
              <input
                {...control}
                type="number"
                required
                min="0"
                step="any"
                inputMode="decimal"
                value={values.dose}
                onChange={(e) => set('dose', e.target.value)}
              />
            )}
          </Field>
          <Field label="Unit" errors={errors.dose_unit} hint="UCUM, e.g. mg, mL, g">
            {(control) => (
              <input
                {...control}
                required
                value={values.dose_unit}
                onChange={(e) => set('dose_unit', e.target.value)}
              />
            )}
          </Field>
          <Field label="Route" errors={errors.route}>
            {(control) => (
              <select {...control} required value={values.route} onChange={(e) => set('route', e.target.value)}>
                {(medicine?.routes ?? []).map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Field label="Frequency" errors={errors.frequency}>
          {(control) => (
            <select
              {...control}
              value={values.frequency}
              onChange={(e) => set('frequency', e.target.value as FrequencyKind)}
            >
              {(Object.keys(FREQUENCY_LABELS) as FrequencyKind[]).map((kind) => (
                <option key={kind} value={kind}>
                  {FREQUENCY_LABELS[kind]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {values.frequency === 'times_a_day' && (
          <Field label="Times a day" errors={errors.times_a_day}>
            {(control) => (
              <input
                {...control}
                type="number"
                min="1"
                max="24"
                required
                value={values.times_a_day}
                onChange={(e) => set('times_a_day', e.target.value)}
              />
            )}
          </Field>
        )}
        {values.frequency === 'every_hours' && (
          <Field label="Every (hours)" errors={errors.every_hours}>
            {(control) => (
              <input
                {...control}
                type="number"
                min="1"
                max="168"
                required
                value={values.every_hours}
                onChange={(e) => set('every_hours', e.target.value)}
              />
            )}
          </Field>
        )}
        {values.frequency === 'at_times' && (
          <Field label="At times" errors={errors.at_times} hint="Clock times, e.g. 08:00, 20:00">
            {(control) => (
              <input {...control} required value={values.at_times} onChange={(e) => set('at_times', e.target.value)} />
            )}
          </Field>
        )}
        {values.frequency === 'as_needed' && (
          <div className="form-row">
            <Field label="At least (hours apart)" errors={errors.min_interval_hours}>
              {(control) => (
                <input
                  {...control}
                  type="number"
                  min="0"
                  step="any"
                  required
                  value={values.min_interval_hours}
                  onChange={(e) => set('min_interval_hours', e.target.value)}
                />
              )}
            </Field>
            <Field label="At most a day" errors={errors.max_per_day}>
              {(control) => (
                <input
                  {...control}
                  type="number"
                  min="1"
                  required
                  value={values.max_per_day}
                  onChange={(e) => set('max_per_day', e.target.value)}
                />
              )}
            </Field>
          </div>
        )}
        <div className="form-row">
          <Field label="Duration (days)" errors={errors.duration_days}>
            {(control) => (
              <input
                {...control}
                type="number"
                min="1"
                required={stay}
                value={values.duration_days}
                onChange={(e) => set('duration_days', e.target.value)}
              />
            )}
          </Field>
          {!stay && (
            <Field label="Quantity" errors={errors.quantity}>
              {(control) => (
                <input
                  {...control}
                  type="number"
                  min="1"
                  value={values.quantity}
                  onChange={(e) => set('quantity', e.target.value)}
                />
              )}
            </Field>
          )}
        </div>
        <Field label="Instructions" errors={errors.instructions}>
          {(control) => (
            <textarea
              {...control}
              rows={2}
              value={values.instructions}
              onChange={(e) => set('instructions', e.target.value)}
            />
          )}
        </Field>
        {stay && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={values.continue_on_discharge}
              onChange={(e) => set('continue_on_discharge', e.target.checked)}
            />{' '}
            Continue after discharge
          </label>
        )}
        {conflict && (
          <div className="alert alert-error allergy-warning" role="alert">
            <p>
              <strong>Allergy warning.</strong> {conflict}
            </p>
            <Field label="Reason to prescribe anyway" errors={errors.allergy_override_reason}>
              {(control) => (
                <textarea
                  {...control}
                  required
                  rows={2}
                  value={overrideReason}
                  onChange={(e) => setOverrideReason(e.target.value)}
                />
              )}
            </Field>
          </div>
        )}
        <SubmitRow
          label={conflict ? 'Override and prescribe' : stay ? 'Order medicine' : 'Prescribe'}
          busy={busy}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
