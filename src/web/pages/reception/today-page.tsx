import { Alert } from '../../components/alert.tsx';
import { DeskAppointments } from '../../components/desk-appointments.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';

/** The day at the front desk: each visit with its patient, doctor and status, to check in or mark a no-show. */
export default function TodayPage() {
  const { alert, setAlert, dismiss } = useAlert();
  return (
    <>
      <PageHeader title="Today's Appointments" />
      <Alert message={alert} onDismiss={dismiss} />
      <DeskAppointments label="Today's appointments" setAlert={setAlert} />
    </>
  );
}
