import { apiPost } from '../api.ts';
import { endpoints } from '../paths.ts';
import { success, type AlertMessage } from './alert.tsx';
import { useConfirm } from './confirm.tsx';
import { wardFailure, type AdmissionJson } from './ward.ts';

/** A step of an admission that needs no more than a yes: cancelled, undone, or the patient confirmed gone. */
export interface ConfirmedStep {
  step: 'cancel' | 'undo' | 'discharge';
  question: string;
  confirmLabel: string;
  doneText: string;
}

/** A request or reservation withdrawn, by a doctor or the desk. */
export const cancelStep = (name: string): ConfirmedStep => ({
  step: 'cancel',
  question: `Cancel the admission of ${name}?`,
  confirmLabel: 'Cancel admission',
  doneText: `The admission of ${name} is cancelled`,
});

/** Takes a confirmed step once the user says yes; the outcome goes to `onDone` (and the table reloads) or the alert. */
export function useAdmissionStep({
  setAlert,
  onDone,
}: {
  setAlert: (message: AlertMessage) => void;
  onDone: (message: AlertMessage) => void;
}) {
  const confirm = useConfirm();
  return async (admission: AdmissionJson, { step, question, confirmLabel, doneText }: ConfirmedStep) => {
    if (!(await confirm({ message: question, confirmLabel }))) return;
    try {
      await apiPost(endpoints.ward.admissionStep(admission.id, step));
      onDone(success(doneText));
    } catch (error) {
      console.error(`admission ${step} failed`, error);
      setAlert(wardFailure(error, 'That did not work. Please try again.'));
    }
  };
}
