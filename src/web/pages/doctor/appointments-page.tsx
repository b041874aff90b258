import { emailOrNone, formatDate, formatTime } from '../../format.ts';
import { listAt } from '../../api.ts';
import { AppointmentTable } from '../../components/appointment-table.tsx';
import type { Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { endpoints } from '../../paths.ts';
import type { AppointmentJson } from '../../../domain/scheduling/scheduling-shapes.ts';

const PAGE_SIZE = 10;
const loadAppointments = listAt<AppointmentJson>(endpoints.doctor.appointments, 'appointments');

const columns: Column<AppointmentJson>[] = [
  { header: 'ID', cell: (a) => a.id, priority: 3 },
  { header: 'Date', cell: (a) => formatDate(a.date) },
  { header: 'Start Time', cell: (a) => formatTime(a.start_time) },
  { header: 'End Time', cell: (a) => formatTime(a.end_time), priority: 2 },
  { header: 'Patient Name', text: (a) => a.patient_name },
  { header: 'Patient Email', text: (a) => emailOrNone(a.patient_email), priority: 3 },
  { header: 'Department', text: (a) => a.department_name ?? '', priority: 3 },
  { header: 'Room', text: (a) => a.room_name ?? '' },
  { header: 'Status', cell: (a) => <StatusBadge status={a.status} /> },
];

export default function DoctorAppointmentsPage() {
  return (
    <>
      <PageHeader title="Doctor's Appointments" />
      <AppointmentTable label="Your appointments" columns={columns} load={loadAppointments} pageSize={PAGE_SIZE} />
    </>
  );
}
