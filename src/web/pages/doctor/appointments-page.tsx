import type { AppointmentJson } from '../../../domain/scheduling/scheduling.ts';
import { listAt } from '../../api.ts';
import { AppointmentTable } from '../../components/appointment-table.tsx';
import type { Column } from '../../components/data-table.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { endpoints } from '../../paths.ts';

const PAGE_SIZE = 10;
const loadAppointments = listAt<AppointmentJson>(endpoints.doctor.appointments, 'appointments');

const columns: Column<AppointmentJson>[] = [
  { header: 'ID', cell: (a) => a.id },
  { header: 'Date', cell: (a) => a.date },
  { header: 'Start Time', cell: (a) => a.start_time },
  { header: 'End Time', cell: (a) => a.end_time },
  { header: 'Patient Name', cell: (a) => a.patient_name },
  { header: 'Patient Email', cell: (a) => a.patient_email },
  { header: 'Department', cell: (a) => a.department_name ?? '' },
  { header: 'Room', cell: (a) => a.room_name ?? '' },
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
