/** The medical record form of one visit: saving it completes the visit and bills the patient. */
import { useState, type FormEvent } from 'react';
import type { ListedAppointmentJson } from '../../domain/scheduling/scheduling.ts';
import { apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { Alert, failure } from './alert.tsx';
import { ClinicalFields, type ClinicalValues } from './clinical-fields.tsx';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { SubmitRow } from './submit-row.tsx';
import { useAlert } from './use-alert.ts';
import { useSubmit } from './use-submit.ts';
import { formatDate } from '../format.ts';

interface RecordValues extends ClinicalValues {
  service_type: string;
  cost: string;
  record_date: string;
}

export function RecordDialog({
  appointment,
  onClose,
  onSaved,
}: {
  appointment: ListedAppointmentJson;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [values, setValues] = useState<RecordValues>({
    disease_id: '',
    diagnosis: '',
    lab_tests: '',
    prescriptions: '',
    service_type: '',
    cost: '',
    record_date: appointment.date,
  });
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('medical record save');

  const set = <K extends keyof RecordValues>(key: K, value: string) => setValues((was) => ({ ...was, [key]: value }));

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        await apiPost(endpoints.doctor.medicalRecord(appointment.id), {
          ...values,
          disease_id: Number(values.disease_id),
          cost: values.cost === '' ? '0' : values.cost,
        });
        onSaved();
      },
      () => setAlert(failure('An error occurred while saving the medical record')),
    );
  };

  return (
    <Dialog
      open
      title={`Medical record: ${appointment.patient_name}, ${formatDate(appointment.date)}`}
      onClose={onClose}
      className="dialog-wide"
    >
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={save} aria-label="Medical record">
        <ClinicalFields values={values} errors={errors} set={set} />
        <Field label="Service type" errors={errors.service_type}>
          {(control) => (
            <input
              {...control}
              required
              value={values.service_type}
              onChange={(e) => set('service_type', e.target.value)}
            />
          )}
        </Field>
        <div className="form-row">
          <Field label="Cost (USD)" errors={errors.cost}>
            {(control) => (
              <input
                {...control}
                type="number"
                min="0"
                step="0.01"
                inputMode="decimal"
                value={values.cost}
                onChange={(e) => set('cost', e.target.value)}
              />
            )}
          </Field>
          <Field label="Record date" errors={errors.record_date}>
            {(control) => (
              <input
                {...control}
                type="date"
                required
                value={values.record_date}
                onChange={(e) => set('record_date', e.target.value)}
              />
            )}
          </Field>
        </div>
        <SubmitRow label="Save Record" busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
