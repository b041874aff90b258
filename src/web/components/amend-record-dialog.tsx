/** Amending a record's clinical content, saying why; the service and its cost stay as billed. */
import { useEffect, useState, type FormEvent } from 'react';
import type { Disease } from '../../domain/catalogue/catalogue.ts';
import type { MedicalRecordJson } from '../../domain/records/records.ts';
import { apiPost, fetchList } from '../api.ts';
import { endpoints } from '../paths.ts';
import { Alert, failure } from './alert.tsx';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { NamedSelect } from './named-select.tsx';
import { ALL, useAlert } from './use-alert.ts';
import { hasFieldErrors, useSubmit } from './use-submit.ts';

interface AmendValues {
  disease_id: string;
  diagnosis: string;
  lab_tests: string;
  prescriptions: string;
  reason: string;
}

interface AmendRecordDialogProps {
  record: MedicalRecordJson;
  onClose: () => void;
  onAmended: (record: MedicalRecordJson) => void;
}

export function AmendRecordDialog({ record, onClose, onAmended }: AmendRecordDialogProps) {
  const [diseases, setDiseases] = useState<Disease[]>([]);
  const [values, setValues] = useState<AmendValues>({
    disease_id: record.disease ? String(record.disease.id) : '',
    diagnosis: record.diagnosis,
    lab_tests: record.lab_tests,
    prescriptions: record.prescriptions,
    reason: '',
  });
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('record amendment');

  useEffect(() => {
    fetchList<Disease>(endpoints.diseases, 'diseases', ALL)
      .then((list) => setDiseases(list.rows))
      .catch((error: unknown) => console.error('diseases fetch failed', error));
  }, []);

  const set = <K extends keyof AmendValues>(key: K, value: string) => setValues((was) => ({ ...was, [key]: value }));

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => onAmended(await apiPost<MedicalRecordJson>(endpoints.doctor.amendRecord(record.id), { ...values, disease_id: Number(values.disease_id) })),
      (error) => hasFieldErrors(error) || setAlert(failure('The record could not be amended. Please try again.')),
    );
  };

  return (
    <Dialog open title={`Amend record of ${record.record_date}`} onClose={onClose} className="dialog-wide">
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={save} aria-label="Amend record">
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
        <Field label="Reason for the amendment" errors={errors.reason} hint="Kept with this version in the record's history">
          {(control) => <input {...control} required maxLength={1000} value={values.reason} onChange={(e) => set('reason', e.target.value)} />}
        </Field>
        <p className="muted">The service ({record.service_type}) and its cost stay as billed.</p>
        <div className="form-row">
          <button type="submit" className="button button-primary" disabled={busy}>
            Save amendment
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
