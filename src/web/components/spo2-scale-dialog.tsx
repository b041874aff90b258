/** The stay's doctor sets the SpO2 scale NEWS2 scores by: scale 2 for hypercapnic respiratory failure. */
import { useState } from 'react';
import { apiPut } from '../api.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';

export function Spo2ScaleDialog({
  admissionId,
  scale,
  onClose,
  onDone,
}: {
  admissionId: number;
  scale: number;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}) {
  const [chosen, setChosen] = useState(String(scale));
  return (
    <ActionDialog
      onClose={onClose}
      onDone={onDone}
      title="SpO2 scale"
      label="Set the SpO2 scale"
      submitLabel="Set scale"
      failureText="The scale could not be set. Please try again."
      send={async () => {
        await apiPut(endpoints.vitals.spo2Scale(admissionId), { scale: Number(chosen) });
        return `NEWS2 scores this stay's SpO2 on scale ${chosen} from now on`;
      }}
    >
      {(errors) => (
        <Field label="Scale" errors={errors.scale}>
          {(control) => (
            <select {...control} value={chosen} onChange={(e) => setChosen(e.target.value)}>
              <option value="1">Scale 1 (target 96% or more)</option>
              <option value="2">Scale 2 (hypercapnic respiratory failure, target 88-92%)</option>
            </select>
          )}
        </Field>
      )}
    </ActionDialog>
  );
}
