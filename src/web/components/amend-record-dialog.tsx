/** Amending a record's clinical content, saying why; the service and its cost stay as billed. */
import { useState, type FormEvent } from 'react';
import type { MedicalRecordJson } from '../../domain/records/records-shapes.ts';
import { ApiError, apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { Alert, failure } from './alert.tsx';
import { ClinicalFields, type ClinicalValues } from './clinical-fields.tsx';
import { Dialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { SubmitRow } from './submit-row.tsx';
import { useAlert } from './use-alert.ts';
import { hasFieldErrors, useSubmit } from './use-submit.ts';
import { formatDate } from '../format.ts';

interface AmendValues extends ClinicalValues {
  reason: string;
}

interface AmendRecordDialogProps {
  record: MedicalRecordJson;
  onClose: () => void;
  onAmended: (record: MedicalRecordJson) => void;
}

export function AmendRecordDialog({ record, onClose, onAmended }: AmendRecordDialogProps) {
  const [values, setValues] = useState<AmendValues>({
    disease_id: record.disease ? String(record.disease.id) : '',
    diagnosis: record.diagnosis,
    lab_tests: record.lab_tests,
    prescriptions: record.prescriptions,
    reason: '',
  });
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('record amendment');

  const set = <K extends keyof AmendValues>(key: K, value: string) => setValues((was) => ({ ...was, [key]: value }));

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      // The version this form was filled from: one amended meanwhile is refused rather than overwritten unseen.
      async () =>
        onAmended(
          await apiPost<MedicalRecordJson>(endpoints.doctor.amendRecord(record.id), {
            ...values,
            disease_id: Number(values.disease_id),
            version: record.version,
          }),
        ),
      (error) =>
        error instanceof ApiError && error.code === 'record_changed'
          ? setAlert(failure(`${error.message} Close this form and open the record again to see it.`))
          : hasFieldErrors(error) || setAlert(failure('The record could not be amended. Please try again.')),
    );
  };

  return (
    <Dialog open title={`Amend record of ${formatDate(record.record_date)}`} onClose={onClose} className="dialog-wide">
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={save} aria-label="Amend record">
        <ClinicalFields values={values} errors={errors} set={set} />
        <Field
          label="Reason for the amendment"
          errors={errors.reason}
          hint="Kept with this version in the record's history"
        >
          {(control) => (
            <input
              {...control}
              required
              maxLength={1000}
              value={values.reason}
              onChange={(e) => set('reason', e.target.value)}
            />
          )}
        </Field>
        <p className="muted">The service ({record.service_type}) and its cost stay as billed.</p>
        <SubmitRow label="Save amendment" busy={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
