/**
 * The front desk's appointment list (a day's, or one patient's) with its actions: check in, no-show, undo either,
 * reschedule, cancel. Check-in, no-show and their undo are offered as the server says it would accept them now.
 */
import { useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { apiPost, fetchList, type ListQuery } from '../api.ts';
import { success, type AlertMessage } from './alert.tsx';
import { AppointmentTable } from './appointment-table.tsx';
import { useConfirm } from './confirm.tsx';
import type { Column } from './data-table.tsx';
import { useReschedule } from './reschedule-dialog.tsx';
import type { RowAction } from './row-actions.tsx';
import { StatusBadge } from './status-badge.tsx';
import { serverFailure } from './use-alert.ts';
import { useCancelAppointment } from './use-cancel-appointment.ts';
import { clinicTimeNow, formatDate, formatDay, formatTime } from '../format.ts';
import { endpoints, routes, withId } from '../paths.ts';
import type { DeskAppointmentJson } from '../../domain/scheduling/scheduling-shapes.ts';
import type { AppointmentStatus } from '../../domain/scheduling/scheduling.ts';

/** A busy day whole on one page: the desk scrolls the day rather than paging it. */
const DAY_PAGE = 100;

/** The desk's changes to a visit, in the order their buttons stand, each offered when the server lists it. */
const DESK_ACTIONS: {
  action: DeskAppointmentJson['desk_actions'][number];
  label: string;
  primary?: boolean;
  path: (id: number) => string;
  ariaLabel: (a: DeskAppointmentJson) => string;
  done: (a: DeskAppointmentJson) => string;
  /** Asked first, for the one change the patient is not there to see. */
  question?: (a: DeskAppointmentJson) => string;
}[] = [
  {
    action: 'check_in',
    label: 'Check in',
    primary: true,
    path: endpoints.desk.checkIn,
    ariaLabel: (a) => `Check in ${a.patient_name} at ${formatTime(a.start_time)}`,
    done: (a) => `${a.patient_name} is checked in`,
  },
  {
    action: 'undo_check_in',
    label: 'Undo check-in',
    path: endpoints.desk.undoCheckIn,
    ariaLabel: (a) => `Undo check-in of ${a.patient_name} at ${formatTime(a.start_time)}`,
    done: (a) => `${a.patient_name}'s check-in is undone`,
  },
  {
    action: 'undo_no_show',
    label: 'Undo no-show',
    path: endpoints.desk.undoNoShow,
    ariaLabel: (a) => `Undo no-show of ${a.patient_name} at ${formatTime(a.start_time)}`,
    done: (a) => `${a.patient_name} is no longer marked as a no-show`,
  },
  {
    action: 'no_show',
    label: 'No-show',
    path: endpoints.desk.noShow,
    ariaLabel: (a) => `No-show of ${a.patient_name} at ${formatTime(a.start_time)}`,
    done: (a) => `${a.patient_name} is marked as a no-show`,
    question: (a) => `Mark ${a.patient_name} as not having come at ${formatTime(a.start_time)}?`,
  },
];

interface DeskAppointmentsProps {
  label: string;
  /** One patient's appointments; without it, a day's at the desk. */
  patientId?: number;
  /** The day ('' for today), of one doctor ('' for all); only its visits of `status` with one (cancelled only so). */
  day?: { date: string; doctorId: string; status?: AppointmentStatus };
  /** The day is today: a line marks the first visit still to come. */
  nowOn?: boolean;
  setAlert: (message: AlertMessage) => void;
  /** Change it to load the list again (a booking made beside it). */
  reloadKey?: number;
  /** Called after the desk changed a visit, so what sums the list up loads again. */
  onChanged?: () => void;
  /** What stands below the list, shown with its first rows (see DataTable). */
  after?: ReactNode;
}

export function DeskAppointments({
  label,
  patientId,
  day,
  nowOn = false,
  setAlert,
  reloadKey = 0,
  onChanged,
  after,
}: DeskAppointmentsProps) {
  const [changed, setChanged] = useState(0);
  // The first visit still to come on the page; marked once the day is known to be today.
  const [upcomingId, setUpcomingId] = useState<number>();
  const nextId = nowOn ? upcomingId : undefined;
  const confirm = useConfirm();
  const reload = () => {
    setChanged((n) => n + 1);
    onChanged?.();
  };
  const { reschedule, dialog } = useReschedule({ setAlert, onMoved: reload });

  const cancel = useCancelAppointment({
    path: endpoints.desk.cancel,
    question: (a) =>
      `Cancel the appointment of ${a.patient_name} with ${a.doctor_name} on ${formatDate(a.date)} at ${formatTime(a.start_time)}?`,
    setAlert,
    onCancelled: reload,
  });

  const act = async (a: DeskAppointmentJson, path: (id: number) => string, done: string, question?: string) => {
    if (question && !(await confirm({ message: question, confirmLabel: 'Yes' }))) return;
    try {
      await apiPost(path(a.id));
      setAlert(success(done));
      reload();
    } catch (error) {
      console.error('desk action failed', error);
      setAlert(serverFailure(error, 'The appointment could not be changed. Please try again.'));
    }
  };

  const columns: Column<DeskAppointmentJson>[] = [
    ...(patientId === undefined ? [] : [{ header: 'Date', cell: (a: DeskAppointmentJson) => formatDay(a.date) }]),
    {
      header: 'Time',
      cell: (a) =>
        a.id === nextId ? (
          <>
            <span className="now-marker">Now</span> {formatTime(a.start_time)}
          </>
        ) : (
          formatTime(a.start_time)
        ),
    },
    ...(patientId !== undefined
      ? []
      : [
          {
            header: 'Patient',
            cell: (a: DeskAppointmentJson) => (
              <Link href={withId(routes.reception.patient, a.patient.id)}>{a.patient_name}</Link>
            ),
          },
        ]),
    { header: 'Doctor', text: (a) => a.doctor_name },
    { header: 'Room', text: (a) => a.room_name ?? '—', priority: 2 },
    { header: 'Status', cell: (a) => <StatusBadge status={a.status} /> },
  ];

  const actions = (a: DeskAppointmentJson): RowAction[] => [
    ...DESK_ACTIONS.filter((d) => a.desk_actions.includes(d.action)).map(
      (d): RowAction => ({
        label: d.label,
        name: d.ariaLabel(a),
        onSelect: () => void act(a, d.path, d.done(a), d.question?.(a)),
        tone: d.primary ? 'primary' : undefined,
      }),
    ),
    ...(a.status === 'scheduled'
      ? [
          {
            label: 'Reschedule',
            name: `Reschedule ${a.patient_name} at ${formatTime(a.start_time)}`,
            onSelect: () => reschedule(a),
          },
        ]
      : []),
    ...(a.status === 'scheduled' || a.status === 'checked_in'
      ? [
          {
            label: 'Cancel',
            name: `Cancel ${a.patient_name} at ${formatTime(a.start_time)}`,
            onSelect: () => cancel(a),
            tone: 'danger' as const,
          },
        ]
      : []),
  ];

  const load = async (query: ListQuery, signal: AbortSignal) => {
    const page = await fetchList<DeskAppointmentJson>(
      endpoints.desk.appointments,
      'appointments',
      {
        ...query,
        patient_id: patientId,
        date: day?.date || undefined,
        doctor_id: day?.doctorId || undefined,
        status: day?.status,
      },
      signal,
    );
    const now = clinicTimeNow();
    // Wire times are 'HH:mm:ss': compared as text, the first visit at or after now's 'HH:mm'.
    setUpcomingId(page.rows.find((a) => a.start_time >= now)?.id);
    return page;
  };

  return (
    <>
      <AppointmentTable
        label={label}
        columns={columns}
        load={load}
        pageSize={patientId === undefined ? DAY_PAGE : 10}
        dense={patientId === undefined}
        rowClass={(a) => (a.id === nextId ? 'now-row' : undefined)}
        reloadKey={reloadKey + changed}
        filterKey={JSON.stringify(day ?? {})}
        actions={actions}
        after={after}
      />
      {dialog}
    </>
  );
}
