import { useState } from 'react';
import type { AppointmentJson } from '../../domain/scheduling/scheduling.ts';
import { apiPost } from '../api.ts';
import { Alert, success, type AlertMessage } from './alert.tsx';
import { BookingForm } from './booking-form.tsx';
import { Dialog } from './dialog.tsx';
import { useAlert } from './use-alert.ts';
import { formatTime, formatDay } from '../format.ts';
import { endpoints } from '../paths.ts';

interface RescheduleDialogProps {
  appointment: AppointmentJson;
  onClose: () => void;
  onMoved: () => void;
}

/**
 * A list's "Reschedule": `reschedule(a)` opens the dialog for `a`; once it moved, the dialog closes, the page's
 * alert says so and `onMoved` reloads the list. Render `dialog` beside the list.
 */
export function useReschedule({
  setAlert,
  onMoved,
}: {
  setAlert: (message: AlertMessage) => void;
  onMoved: () => void;
}) {
  const [moving, setMoving] = useState<AppointmentJson | null>(null);
  const dialog = moving && (
    <RescheduleDialog
      appointment={moving}
      onClose={() => setMoving(null)}
      onMoved={() => {
        setMoving(null);
        setAlert(success('Appointment rescheduled'));
        onMoved();
      }}
    />
  );
  return { reschedule: setMoving, dialog };
}

/** Moving an appointment to another free slot, of its doctor on its day (shown first) or another; the server checks the rest. */
function RescheduleDialog({ appointment, onClose, onMoved }: RescheduleDialogProps) {
  const { alert, setAlert, dismiss } = useAlert();
  return (
    <Dialog
      open
      title={`Reschedule ${formatDay(appointment.date)} at ${formatTime(appointment.start_time)}`}
      onClose={onClose}
      className="dialog-wide"
    >
      <Alert message={alert} onDismiss={dismiss} />
      <BookingForm
        presetDoctor={String(appointment.doctor.id)}
        presetDate={appointment.date}
        submitLabel="Move appointment here"
        failureText="Rescheduling failed. Please try again."
        setAlert={setAlert}
        submit={async (choice) => {
          await apiPost(endpoints.reschedule(appointment.id), choice);
          return 'Appointment rescheduled';
        }}
        onDone={onMoved}
      />
    </Dialog>
  );
}
