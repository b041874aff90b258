/** The doctor's dialogs on the ward: a patient's admission requested, a stay's discharge ordered with its summary. */
import { useState } from 'react';
import { apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { NamedSelect } from './named-select.tsx';
import { useFetched } from './use-fetched.ts';
import type { AdmissionJson, BedBoardJson } from './ward.ts';

interface DoneProps {
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}

interface RequestAdmissionProps extends DoneProps {
  patient: { id: number; name: string };
  /** The visit the admission comes from, if any. */
  appointmentId?: number;
}

/** Asks the desk for a bed on a ward (the wards with beds) for the patient, with the expected stay and why. */
export function RequestAdmissionDialog({ patient, appointmentId, ...done }: RequestAdmissionProps) {
  const wards = useFetched<BedBoardJson>(endpoints.ward.bedBoard, 'bed board')?.wards ?? [];
  const [values, setValues] = useState({ department_id: '', expected_nights: '1', reason: '' });
  const set = (key: keyof typeof values, value: string) => setValues((was) => ({ ...was, [key]: value }));
  return (
    <ActionDialog
      {...done}
      title={`Request admission: ${patient.name}`}
      label="Request admission"
      submitLabel="Request admission"
      failureText="The admission could not be requested. Please try again."
      send={async () => {
        await apiPost(endpoints.ward.admissions, {
          patient_id: patient.id,
          department_id: Number(values.department_id),
          expected_nights: Number(values.expected_nights),
          reason: values.reason,
          ...(appointmentId ? { appointment_id: appointmentId } : {}),
        });
        return `Admission requested: the desk will assign ${patient.name} a bed`;
      }}
    >
      {(errors) => (
        <>
          <Field label="Ward" errors={errors.department_id}>
            {(control) => (
              <NamedSelect
                control={control}
                required
                placeholder="Select ward"
                options={wards}
                value={values.department_id}
                onChange={(id) => set('department_id', id)}
              />
            )}
          </Field>
          <Field label="Expected nights" errors={errors.expected_nights}>
            {(control) => (
              <input
                {...control}
                type="number"
                required
                min="1"
                max="365"
                step="1"
                inputMode="numeric"
                value={values.expected_nights}
                onChange={(e) => set('expected_nights', e.target.value)}
              />
            )}
          </Field>
          <Field label="Reason" errors={errors.reason}>
            {(control) => (
              <textarea
                {...control}
                required
                rows={3}
                value={values.reason}
                onChange={(e) => set('reason', e.target.value)}
              />
            )}
          </Field>
        </>
      )}
    </ActionDialog>
  );
}

const SUMMARY_FIELDS = [
  ['diagnosis', 'Diagnosis', true],
  ['treatment', 'Treatment', true],
  ['medication', 'Medication', false],
  ['instructions', 'Instructions', false],
  ['follow_up', 'Follow-up', false],
] as const;

type SummaryValues = Record<(typeof SUMMARY_FIELDS)[number][0], string>;

/** Orders the patient's discharge with the summary they leave with; the desk then confirms they left. */
export function OrderDischargeDialog({ admission, ...done }: DoneProps & { admission: AdmissionJson }) {
  const [values, setValues] = useState<SummaryValues>({
    diagnosis: '',
    treatment: '',
    medication: '',
    instructions: '',
    follow_up: '',
  });
  return (
    <ActionDialog
      {...done}
      wide
      title={`Order discharge: ${admission.patient.name}`}
      label="Discharge summary"
      submitLabel="Order discharge"
      failureText="The discharge could not be ordered. Please try again."
      send={async () => {
        await apiPost(endpoints.ward.admissionStep(admission.id, 'discharge-order'), values);
        return `Discharge of ${admission.patient.name} ordered: the desk confirms when they leave`;
      }}
    >
      {(errors) =>
        SUMMARY_FIELDS.map(([key, label, required]) => (
          <Field key={key} label={label} errors={errors[key]}>
            {(control) => (
              <textarea
                {...control}
                required={required}
                rows={required ? 3 : 2}
                value={values[key]}
                onChange={(e) => setValues((was) => ({ ...was, [key]: e.target.value }))}
              />
            )}
          </Field>
        ))
      }
    </ActionDialog>
  );
}
