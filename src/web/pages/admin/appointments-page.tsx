import { useState } from 'react';
import { ApiError, apiPost, fetchList, type ListQuery } from '../../api.ts';
import type { Appointment } from '../../api-types.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { useConfirm } from '../../components/confirm.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { endpoints } from '../../paths.ts';

const PAGE_SIZE = 10;
const loadAppointments = (query: ListQuery) => fetchList<Appointment>(endpoints.admin.appointments, 'appointments', query);

export default function AdminAppointmentsPage() {
  const confirm = useConfirm();
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);

  const cancel = async (appointment: Appointment) => {
    const confirmed = await confirm({
      title: 'Cancel appointment',
      message: `Are you sure you want to cancel appointment #${appointment.id} of ${appointment.patient_name} on ${appointment.date} at ${appointment.start_time}?`,
      confirmLabel: 'Cancel appointment',
      cancelLabel: 'Keep it',
    });
    if (!confirmed) return;
    try {
      await apiPost(endpoints.admin.cancelAppointment(appointment.id));
      setAlert(success('Appointment cancelled successfully'));
      setReloadKey((key) => key + 1);
    } catch (error) {
      console.error('cancel failed', error);
      setAlert(failure(error instanceof ApiError ? error.message : 'Failed to cancel appointment'));
    }
  };

  const columns: Column<Appointment>[] = [
    { header: 'Appointment ID', cell: (a) => a.id },
    { header: 'Patient Name', cell: (a) => a.patient_name },
    { header: 'Patient Email', cell: (a) => a.patient_email },
    { header: 'Doctor Name', cell: (a) => a.doctor_name },
    { header: 'Doctor Email', cell: (a) => a.doctor_email },
    { header: 'Department', cell: (a) => a.department_name ?? '' },
    { header: 'Date', cell: (a) => `${a.date} ${a.start_time}` },
    {
      header: 'Actions',
      cell: (a) => (
        <div className="row-actions">
          {/* The spec's View button has no visible effect. */}
          <button type="button" className="button button-small" aria-label={`View appointment ${a.id}`}>
            View
          </button>
          {a.status === 'scheduled' ? (
            <button type="button" className="button button-small button-danger" onClick={() => cancel(a)} aria-label={`Cancel appointment ${a.id}`}>
              Cancel
            </button>
          ) : (
            <StatusBadge status={a.status} />
          )}
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Appointments" />
      <Alert message={alert} onDismiss={dismiss} />
      <DataTable
        label="Appointments"
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
