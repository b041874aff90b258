/** The medical record form of one visit: saving it completes the visit and bills the patient. */
import { useEffect, useState, type FormEvent } from 'react';
import type { Disease } from '../../domain/catalogue/catalogue.ts';
import type { ListedAppointmentJson } from '../../domain/scheduling/scheduling.ts';
import { apiPost, fetchList } from '../api.ts';
import { endpoints } from '../paths.ts';
import { Alert, failure } from './alert.tsx';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { NamedSelect } from './named-select.tsx';
import { ALL, useAlert } from './use-alert.ts';
import { useSubmit } from './use-submit.ts';

interface RecordValues {
  disease_id: string;
  diagnosis: string;
  lab_tests: string;
  prescriptions: string;
  service_type: string;
  cost: string;
  record_date: string;
}

export function RecordDialog({ appointment, onClose, onSaved }: { appointment: ListedAppointmentJson; onClose: () => void; onSaved: () => void }) {
  const [diseases, setDiseases] = useState<Disease[]>([]);
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

  useEffect(() => {
    fetchList<Disease>(endpoints.diseases, 'diseases', ALL)
      .then((list) => setDiseases(list.rows))
      .catch((error: unknown) => console.error('diseases fetch failed', error));
  }, []);

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
    <Dialog open title={`Medical record: ${appointment.patient_name}, ${appointment.date}`} onClose={onClose} className="dialog-wide">
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={save} aria-label="Medical record">
        <Field label="Disease" errors={errors.disease_id}>
          {(control) => (
            <NamedSelect control={control} required placeholder="Select disease" options={diseases} value={values.disease_id} onChange={(id) => set('disease_id', id)} />
          )}
        </Field>
        <Field label="Diagnosis" errors={errors.diagnosis}>
          {(control) => <textarea {...control} required rows={3} value={values.diagnosis} onChange={(e) => set('diagnosis', e.target.value)} />}
        </Field>
        <Field label="Lab tests" errors={errors.lab_tests}>
          {(control) => <input {...control} value={values.lab_tests} onChange={(e) => set('lab_tests', e.target.value)} />}
        </Field>
        <Field label="Prescriptions" errors={errors.prescriptions}>
          {(control) => <input {...control} value={values.prescriptions} onChange={(e) => set('prescriptions', e.target.value)} />}
        </Field>
        <Field label="Service type" errors={errors.service_type}>
          {(control) => <input {...control} required value={values.service_type} onChange={(e) => set('service_type', e.target.value)} />}
        </Field>
        <div className="form-row">
          <Field label="Cost (USD)" errors={errors.cost}>
            {(control) => <input {...control} type="number" min="0" step="0.01" inputMode="decimal" value={values.cost} onChange={(e) => set('cost', e.target.value)} />}
          </Field>
          <Field label="Record date" errors={errors.record_date}>
            {(control) => <input {...control} type="date" required value={values.record_date} onChange={(e) => set('record_date', e.target.value)} />}
          </Field>
        </div>
        <div className="form-row">
          <button type="submit" className="button button-primary" disabled={busy}>
            Save Record
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
