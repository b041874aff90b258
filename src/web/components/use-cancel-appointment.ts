import { ApiError, apiPost } from '../api.ts';
import type { Appointment } from '../api-types.ts';
import { failure, success, type AlertMessage } from './alert.tsx';
import { useConfirm } from './confirm.tsx';

interface CancelAppointmentOptions {
  path: (id: number) => string;
  /** The question put to the user before cancelling. */
  question: (appointment: Appointment) => string;
  setAlert: (message: AlertMessage) => void;
  onCancelled: () => void;
}

/** Cancelling an appointment once the user confirms; a refusal shows the server's own reason. */
export function useCancelAppointment({ path, question, setAlert, onCancelled }: CancelAppointmentOptions) {
  const confirm = useConfirm();
  return async (appointment: Appointment) => {
    const confirmed = await confirm({
      title: 'Cancel appointment',
      message: question(appointment),
      confirmLabel: 'Cancel appointment',
      cancelLabel: 'Keep it',
    });
    if (!confirmed) return;
    try {
      await apiPost(path(appointment.id));
      setAlert(success('Appointment cancelled successfully'));
      onCancelled();
    } catch (error) {
      console.error('cancel failed', error);
      setAlert(failure(error instanceof ApiError ? error.message : 'Failed to cancel appointment'));
    }
  };
}
