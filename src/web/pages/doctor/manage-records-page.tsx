import { useState } from 'react';
import type { ListedAppointmentJson } from '../../../domain/scheduling/scheduling.ts';
import { listAt } from '../../api.ts';
import { Alert, success } from '../../components/alert.tsx';
import { AppointmentTable } from '../../components/appointment-table.tsx';
import type { Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { RecordDialog } from '../../components/record-dialog.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { endpoints } from '../../paths.ts';
import { dayMonth, emailOrNone } from '../../format.ts';

const PAGE_SIZE = 10;
const loadAppointments = listAt<ListedAppointmentJson>(endpoints.doctor.appointments, 'appointments');

export default function ManageRecordsPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const [editing, setEditing] = useState<ListedAppointmentJson | null>(null);

  const columns: Column<ListedAppointmentJson>[] = [
    { header: 'ID', cell: (a) => a.id, priority: 3 },
    { header: 'Date', cell: (a) => a.date },
    { header: 'Time', cell: (a) => `${a.start_time} – ${a.end_time}` },
    { header: 'Patient Name', text: (a) => a.patient_name },
    { header: 'Patient Email', text: (a) => emailOrNone(a.patient_email), priority: 3 },
    { header: 'Status', cell: (a) => <StatusBadge status={a.status} /> },
    {
      header: 'Actions',
      // The server records a visit, checked in or not, only once it has begun; until then the row says from when.
      cell: (a) =>
        a.status !== 'scheduled' && a.status !== 'checked_in' ? null : a.has_started ? (
          <button type="button" className="button button-small button-primary" onClick={() => setEditing(a)} aria-label={`Edit Record of ${a.patient_name}, ${a.date} ${a.start_time}`}>
            Edit Record
          </button>
        ) : (
          <span className="muted">
            From {a.start_time} on {dayMonth(a.date)}
          </span>
        ),
    },
  ];

  return (
    <>
      <PageHeader title="Manage Records" />
      <Alert message={alert} onDismiss={dismiss} />
      <AppointmentTable label="Appointments" columns={columns} load={loadAppointments} pageSize={PAGE_SIZE} reloadKey={reloadKey} />
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
