import { useState } from 'react';
import { ApiError, apiPost, fetchList, type ListQuery } from '../../api.ts';
import type { Appointment } from '../../api-types.ts';
import { Alert, failure, info, success, type AlertMessage } from '../../components/alert.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { endpoints } from '../../paths.ts';

const PAGE_SIZE = 5;

const loadAppointments = (query: ListQuery) => fetchList<Appointment>(endpoints.patient.appointments, 'appointments', query);

/** Only a scheduled appointment that has not started yet can be cancelled; the server has the last word. */
const isCancellable = (appointment: Appointment) =>
  appointment.status === 'scheduled' && new Date(`${appointment.date}T${appointment.start_time}`) > new Date();

export default function PatientAppointmentsPage() {
  const confirm = useConfirm();
  const [alert, setAlert] = useState<AlertMessage | null>(null);
  const [reloadKey, setReloadKey] = useState(0);

  const cancel = async (appointment: Appointment) => {
    const confirmed = await confirm({
      title: 'Cancel appointment',
      message: `Are you sure you want to cancel this appointment on ${appointment.date} at ${appointment.start_time}?`,
      confirmLabel: 'Cancel appointment',
      cancelLabel: 'Keep it',
    });
    if (!confirmed) return;
    try {
      await apiPost(endpoints.patient.cancelAppointment(appointment.id));
      setAlert(success('Appointment cancelled successfully'));
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('cancel failed', error);
      setAlert(failure(error instanceof ApiError ? error.message : 'Failed to cancel appointment'));
    }
  };

  const columns: Column<Appointment>[] = [
    { header: 'Date', cell: (a) => a.date },
    { header: 'Start Time', cell: (a) => a.start_time },
    { header: 'End Time', cell: (a) => a.end_time },
    { header: 'Doctor', cell: (a) => a.doctor_name },
    { header: 'Department', cell: (a) => a.department_name ?? '—' },
    { header: 'Room', cell: (a) => a.room_name ?? '—' },
    {
      header: 'Actions',
      cell: (a) => (
        <div className="row-actions">
          <button type="button" className="button button-small" onClick={() => setAlert(info(`Appointment date: ${a.date}`))}>
            View Details
          </button>
          {isCancellable(a) ? (
            <button type="button" className="button button-small button-danger" onClick={() => cancel(a)}>
              Cancel
            </button>
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
      <Alert message={alert} onDismiss={() => setAlert(null)} />
      <DataTable
        label="Your appointments"
        columns={columns}
        load={loadAppointments}
        rowKey={(a) => a.id}
        pageSize={PAGE_SIZE}
        emptyText="No appointments found."
        reloadKey={reloadKey}
      />
    </>
  );
}
