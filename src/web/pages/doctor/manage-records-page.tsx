import { useState } from 'react';
import type { ListedAppointmentJson } from '../../../domain/scheduling/scheduling.ts';
import { listAt } from '../../api.ts';
import { Alert, success } from '../../components/alert.tsx';
import { AppointmentTable } from '../../components/appointment-table.tsx';
import type { Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import type { RowAction } from '../../components/row-actions.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { RecordDialog } from '../../components/record-dialog.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { endpoints } from '../../paths.ts';
import { emailOrNone, formatDate, formatDay, formatTime } from '../../format.ts';

const PAGE_SIZE = 10;
const loadAppointments = listAt<ListedAppointmentJson>(endpoints.doctor.appointments, 'appointments');
/** The server records a visit, checked in or not, only once it has begun; until then the row says from when. */
const recordable = (a: ListedAppointmentJson) => a.status === 'scheduled' || a.status === 'checked_in';

export default function ManageRecordsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [editing, setEditing] = useState<ListedAppointmentJson | null>(null);

  const columns: Column<ListedAppointmentJson>[] = [
    { header: 'ID', cell: (a) => a.id, priority: 3 },
    { header: 'Date', cell: (a) => formatDate(a.date) },
    { header: 'Time', cell: (a) => `${formatTime(a.start_time)} – ${formatTime(a.end_time)}` },
    { header: 'Patient Name', text: (a) => a.patient_name },
    { header: 'Patient Email', text: (a) => emailOrNone(a.patient_email), priority: 3 },
    {
      header: 'Status',
      cell: (a) => (
        <>
          <StatusBadge status={a.status} />
          {recordable(a) && !a.has_started && (
            <span className="muted">
              {' '}
              From {formatTime(a.start_time)} on {formatDay(a.date)}
            </span>
          )}
        </>
      ),
    },
  ];
  const actions = (a: ListedAppointmentJson): RowAction[] =>
    recordable(a) && a.has_started
      ? [
          {
            label: 'Edit Record',
            name: `Edit Record of ${a.patient_name}, ${formatDay(a.date)}, ${formatTime(a.start_time)}`,
            onSelect: () => setEditing(a),
            tone: 'primary',
          },
        ]
      : [];

  return (
    <>
      <PageHeader title="Manage Records" />
      <Alert message={alert} onDismiss={dismiss} />
      <AppointmentTable
        label="Appointments"
        columns={columns}
        load={loadAppointments}
        pageSize={PAGE_SIZE}
        reloadKey={reloadKey}
        actions={actions}
      />
      {editing && (
        <RecordDialog
          appointment={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setAlert(success('Medical record saved successfully'));
            setReloadKey((key) => key + 1);
          }}
        />
      )}
    </>
  );
}
