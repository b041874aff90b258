import { emailOrNone, formatDate, formatTime } from '../../format.ts';
import { useState } from 'react';
import type { AppointmentJson, AppointmentStatus } from '../../../domain/scheduling/scheduling.ts';
import { listAt } from '../../api.ts';
import { Alert } from '../../components/alert.tsx';
import { AppointmentTable } from '../../components/appointment-table.tsx';
import type { Column } from '../../components/data-table.tsx';
import { ListFilters, VISIT_FILTERS, useFilteredList } from '../../components/list-filters.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useCancelAppointment } from '../../components/use-cancel-appointment.ts';
import { endpoints } from '../../paths.ts';

const PAGE_SIZE = 10;
// Every status, as the compiler checks; the UI imports only the domain's types.
const STATUSES = Object.keys({
  scheduled: true,
  checked_in: true,
  completed: true,
  no_show: true,
  cancelled: true,
} satisfies Record<AppointmentStatus, true>);
const loadAppointments = listAt<AppointmentJson>(endpoints.admin.appointments, 'appointments');

export default function AdminAppointmentsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const list = useFilteredList({
    names: VISIT_FILTERS,
    load: loadAppointments,
    csvPath: endpoints.admin.appointmentsCsv,
    what: 'appointments',
    setAlert,
  });

  const cancel = useCancelAppointment({
    path: endpoints.admin.cancelAppointment,
    question: (a) =>
      `Are you sure you want to cancel appointment #${a.id} of ${a.patient_name} on ${formatDate(a.date)} at ${formatTime(a.start_time)}?`,
    setAlert,
    onCancelled: () => setReloadKey((key) => key + 1),
  });

  const columns: Column<AppointmentJson>[] = [
    { header: 'Appointment ID', cell: (a) => a.id, priority: 2 },
    { header: 'Patient Name', text: (a) => a.patient_name },
    { header: 'Patient Email', text: (a) => emailOrNone(a.patient_email), priority: 2 },
    { header: 'Doctor Name', text: (a) => a.doctor_name, priority: 2 },
    { header: 'Doctor Email', text: (a) => a.doctor_email, priority: 2 },
    { header: 'Department', text: (a) => a.department_name ?? '', priority: 2 },
    { header: 'Date', cell: (a) => `${formatDate(a.date)}, ${formatTime(a.start_time)}` },
  ];
  const actions = (a: AppointmentJson): RowAction[] => [
    // The spec's View button has no visible effect.
    { label: 'View', name: `View appointment ${a.id}` },
    ...(a.status === 'scheduled'
      ? [{ label: 'Cancel', name: `Cancel appointment ${a.id}`, onSelect: () => cancel(a), tone: 'danger' as const }]
      : []),
  ];

  return (
    <>
      <PageHeader title="Appointments" />
      <Alert message={alert} onDismiss={dismiss} />
      <ListFilters label="Filter appointments" statuses={STATUSES} list={list} />
      <AppointmentTable
        label="Appointments"
        columns={columns}
        load={list.load}
        pageSize={PAGE_SIZE}
        reloadKey={reloadKey}
        filterKey={list.filterKey}
        actions={actions}
        actionsNote={(a) => a.status !== 'scheduled' && <StatusBadge status={a.status} />}
      />
    </>
  );
}
