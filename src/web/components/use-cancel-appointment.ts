import type { AppointmentJson } from '../../domain/scheduling/scheduling-shapes.ts';
import { apiPost } from '../api.ts';
import { success, type AlertMessage } from './alert.tsx';
import { useConfirm } from './confirm.tsx';
import { serverFailure } from './use-alert.ts';

interface CancelAppointmentOptions {
  path: (id: number) => string;
  /** The question put to the user before cancelling. */
  question: (appointment: AppointmentJson) => string;
  setAlert: (message: AlertMessage) => void;
  onCancelled: () => void;
}

/** Cancelling an appointment once the user confirms; a refusal shows the server's own reason. */
export function useCancelAppointment({ path, question, setAlert, onCancelled }: CancelAppointmentOptions) {
  const confirm = useConfirm();
  return async (appointment: AppointmentJson) => {
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
      setAlert(serverFailure(error, 'Failed to cancel appointment'));
    }
  };
}
