import { useState } from 'react';
import { Link } from 'wouter';
import type { AppointmentJson } from '../../../domain/scheduling/scheduling.ts';
import { fetchList, type ListQuery } from '../../api.ts';
import { Alert, info } from '../../components/alert.tsx';
import { AppointmentTable } from '../../components/appointment-table.tsx';
import type { Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { useReschedule } from '../../components/reschedule-dialog.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useCancelAppointment } from '../../components/use-cancel-appointment.ts';
import { endpoints, routes } from '../../paths.ts';
import { formatDate, formatTime } from '../../format.ts';

const PAGE_SIZE = 5;

/** Visits to come (scheduled or checked in, today or later) or every other one, as the server splits them. */
type When = 'upcoming' | 'past';

const VIEWS: { when: When; label: string }[] = [
  { when: 'upcoming', label: 'Upcoming' },
  { when: 'past', label: 'Past' },
];

const loadAppointments = (when: When, query: ListQuery, signal?: AbortSignal) =>
  fetchList<AppointmentJson>(endpoints.patient.appointments, 'appointments', { ...query, when }, signal);

/** Only a scheduled appointment that has not started yet can be cancelled or moved; the server has the last word. */
const isCancellable = (appointment: AppointmentJson) =>
  appointment.status === 'scheduled' && new Date(`${appointment.date}T${appointment.start_time}`) > new Date();

/** A patient without a single visit, upcoming or past, is offered the way to book one instead of an empty table. */
function NoAppointmentsYet() {
  return (
    <div className="card empty-state">
      <p>You have no appointments yet.</p>
      <Link href={routes.patient.book} className="button button-primary">
        Book your first appointment
      </Link>
    </div>
  );
}

export default function PatientAppointmentsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [when, setWhen] = useState<When>('upcoming');
  const [noVisits, setNoVisits] = useState(false);
  const { reschedule, dialog } = useReschedule({ setAlert, onMoved: () => setReloadKey((key) => key + 1) });

  const cancel = useCancelAppointment({
    path: endpoints.patient.cancelAppointment,
    question: (a) =>
      `Are you sure you want to cancel this appointment on ${formatDate(a.date)} at ${formatTime(a.start_time)}?`,
    setAlert,
    onCancelled: () => setReloadKey((key) => key + 1),
  });

  /** The shown list's page; an unsearched, empty first answer asks whether the other list is empty too. */
  const load = async (query: ListQuery, signal: AbortSignal) => {
    const page = await loadAppointments(when, query, signal);
    if (page.total === 0 && query.q === '' && query.page === 1) {
      const other = await loadAppointments(
        when === 'upcoming' ? 'past' : 'upcoming',
        { q: '', page: 1, per_page: 1 },
        signal,
      );
      if (other.total === 0) setNoVisits(true);
    }
    return page;
  };

  const columns: Column<AppointmentJson>[] = [
    { header: 'Date', cell: (a) => formatDate(a.date) },
    { header: 'Start Time', cell: (a) => formatTime(a.start_time) },
    { header: 'End Time', cell: (a) => formatTime(a.end_time), priority: 2 },
    { header: 'Doctor', text: (a) => a.doctor_name },
    { header: 'Department', text: (a) => a.department_name ?? '—', priority: 2 },
    { header: 'Room', text: (a) => a.room_name ?? '—', priority: 2 },
  ];
  const actions = (a: AppointmentJson): RowAction[] => [
    { label: 'View Details', onSelect: () => setAlert(info(`Appointment date: ${formatDate(a.date)}`)) },
    ...(isCancellable(a)
      ? [
          {
            label: 'Reschedule',
            name: `Reschedule ${formatDate(a.date)} at ${formatTime(a.start_time)}`,
            onSelect: () => reschedule(a),
          },
          {
            label: 'Cancel',
            name: `Cancel ${formatDate(a.date)} at ${formatTime(a.start_time)}`,
            onSelect: () => cancel(a),
            tone: 'danger' as const,
          },
        ]
      : []),
  ];

  return (
    <>
      <PageHeader title="Scheduled Appointments">
        {!noVisits && (
          // biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form's fieldset
          <div className="view-switch" role="group" aria-label="Show">
            {VIEWS.map((view) => (
              <button
                key={view.when}
                type="button"
                className="button button-small"
                aria-pressed={when === view.when}
                onClick={() => setWhen(view.when)}
              >
                {view.label}
              </button>
            ))}
          </div>
        )}
      </PageHeader>
      <Alert message={alert} onDismiss={dismiss} />
      {noVisits ? (
        <NoAppointmentsYet />
      ) : (
        <AppointmentTable
          label={when === 'upcoming' ? 'Your upcoming appointments' : 'Your past appointments'}
          columns={columns}
          load={load}
          pageSize={PAGE_SIZE}
          reloadKey={reloadKey}
          filterKey={when}
          actions={actions}
          actionsNote={(a) => a.status !== 'scheduled' && <StatusBadge status={a.status} />}
        />
      )}
      {dialog}
    </>
  );
}
