import { useState } from 'react';
import type { AppointmentJson } from '../../../domain/scheduling/scheduling.ts';
import { listAt } from '../../api.ts';
import { Alert, info } from '../../components/alert.tsx';
import { AppointmentTable } from '../../components/appointment-table.tsx';
import type { Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useReschedule } from '../../components/reschedule-dialog.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useCancelAppointment } from '../../components/use-cancel-appointment.ts';
import { endpoints } from '../../paths.ts';

const PAGE_SIZE = 5;

const loadAppointments = listAt<AppointmentJson>(endpoints.patient.appointments, 'appointments');

/** Only a scheduled appointment that has not started yet can be cancelled or moved; the server has the last word. */
const isCancellable = (appointment: AppointmentJson) =>
  appointment.status === 'scheduled' && new Date(`${appointment.date}T${appointment.start_time}`) > new Date();

export default function PatientAppointmentsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const { reschedule, dialog } = useReschedule({ setAlert, onMoved: () => setReloadKey((key) => key + 1) });

  const cancel = useCancelAppointment({
    path: endpoints.patient.cancelAppointment,
    question: (a) => `Are you sure you want to cancel this appointment on ${a.date} at ${a.start_time}?`,
    setAlert,
    onCancelled: () => setReloadKey((key) => key + 1),
  });

  const columns: Column<AppointmentJson>[] = [
    { header: 'Date', cell: (a) => a.date },
    { header: 'Start Time', cell: (a) => a.start_time },
    { header: 'End Time', cell: (a) => a.end_time, priority: 2 },
    { header: 'Doctor', text: (a) => a.doctor_name },
    { header: 'Department', text: (a) => a.department_name ?? '—', priority: 3 },
    { header: 'Room', text: (a) => a.room_name ?? '—', priority: 2 },
    {
      header: 'Actions',
      cell: (a) => (
        <div className="row-actions">
          <button type="button" className="button button-small" onClick={() => setAlert(info(`Appointment date: ${a.date}`))}>
            View Details
          </button>
          {isCancellable(a) ? (
            <>
              <button type="button" className="button button-small" onClick={() => reschedule(a)} aria-label={`Reschedule ${a.date} at ${a.start_time}`}>
                Reschedule
              </button>
              <button type="button" className="button button-small button-danger" onClick={() => cancel(a)}>
                Cancel
              </button>
            </>
          ) : (
            a.status !== 'scheduled' && <StatusBadge status={a.status} />
          )}
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Scheduled Appointments" />
      <Alert message={alert} onDismiss={dismiss} />
      <AppointmentTable label="Your appointments" columns={columns} load={loadAppointments} pageSize={PAGE_SIZE} reloadKey={reloadKey} />
      {dialog}
    </>
  );
}
