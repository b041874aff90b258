/** Where a reminder's cancel link leads: the visit is shown, and cancelled only when the patient confirms. */
import { Link } from 'wouter';
import type { AppointmentJson } from '../../../domain/scheduling/scheduling.ts';
import { apiPost } from '../../api.ts';
import { Alert, success } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { useSubmit } from '../../components/use-submit.ts';
import { linkFailure, useTokenLink } from '../../components/use-token-link.ts';
import { endpoints, routes } from '../../paths.ts';
import { formatDate, formatTime } from '../../format.ts';

export default function CancelAppointmentPage() {
  const { token, preview, outcome, setOutcome, done, setDone } = useTokenLink<{ appointment: AppointmentJson }>(
    endpoints.appointmentLinkPreview,
  );
  const appointment = preview?.appointment;
  const { busy, run } = useSubmit('cancel by link');

  const cancel = () =>
    run(
      async () => {
        await apiPost(endpoints.appointmentLinkCancel, { token });
        setDone(true);
        setOutcome(
          success('Your appointment is cancelled. Thank you for letting us know: someone else can have the time.'),
        );
      },
      (error) => setOutcome(linkFailure(error)),
    );

  return (
    <AuthLayout title="Cancel your appointment">
      <Alert message={outcome} onDismiss={() => setOutcome(null)} />
      {appointment && !done && (
        <>
          <p>
            Do you want to cancel your appointment with <strong>{appointment.doctor.name}</strong> on{' '}
            <strong>{formatDate(appointment.date)}</strong> at <strong>{formatTime(appointment.start_time)}</strong>?
          </p>
          <div className="form-actions">
            <button type="button" className="button button-danger" disabled={busy} onClick={() => void cancel()}>
              Yes, cancel it
            </button>
            <Link href={routes.home} className="button">
              No, keep it
            </Link>
          </div>
        </>
      )}
      {!appointment && !outcome && <p role="status">Loading…</p>}
      <p className="auth-switch">
        <Link href={routes.login}>Sign in to see your appointments</Link>
      </p>
    </AuthLayout>
  );
}
