/** A nurse or doctor writes a nursing note on a stay, or corrects one by a new note. */
import { useState } from 'react';
import { apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { ActionDialog } from './action-dialog.tsx';
import type { AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';

export function NursingNoteDialog({
  admissionId,
  corrects,
  onClose,
  onDone,
}: {
  admissionId: number;
  /** The note this one corrects, if any. */
  corrects?: number;
  onClose: () => void;
  onDone: (message: AlertMessage) => void;
}) {
  const [body, setBody] = useState('');
  return (
    <ActionDialog
      onClose={onClose}
      onDone={onDone}
      title={corrects === undefined ? 'Nursing note' : 'Correct a nursing note'}
      label="Write nursing note"
      submitLabel="Sign note"
      failureText="The note could not be saved. Please try again."
      wide
      send={async () => {
        await apiPost(
          endpoints.vitals.nursingNotes(admissionId),
          corrects === undefined ? { body } : { body, corrects },
        );
        return corrects === undefined ? 'Nursing note signed' : 'Correction signed';
      }}
    >
      {(errors) => (
        <Field label="Note" errors={errors.body}>
          {(control) => <textarea {...control} rows={5} value={body} onChange={(e) => setBody(e.target.value)} />}
        </Field>
      )}
    </ActionDialog>
  );
}
