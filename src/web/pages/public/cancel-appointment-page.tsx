/** Where a reminder's cancel link leads: the visit is shown, and cancelled only when the patient confirms. */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { AppointmentJson } from '../../../domain/scheduling/scheduling.ts';
import { ApiError, apiPost } from '../../api.ts';
import { Alert, failure, success, type AlertMessage } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { useSubmit } from '../../components/use-submit.ts';
import { endpoints, routes } from '../../paths.ts';
import { tokenFromAddress } from '../../token-link.ts';

const failed = (error: unknown) => failure(error instanceof ApiError ? error.message : 'Something went wrong. Please try again.');

export default function CancelAppointmentPage() {
  const [token] = useState(tokenFromAddress);
  const [appointment, setAppointment] = useState<AppointmentJson | null>(null);
  const [outcome, setOutcome] = useState<AlertMessage | null>(token ? null : failure('This link is incomplete.'));
  const [done, setDone] = useState(false);
  const { busy, run } = useSubmit('cancel by link');

  useEffect(() => {
    if (!token) return;
    apiPost<{ appointment: AppointmentJson }>(endpoints.appointmentLinkPreview, { token })
      .then((answer) => setAppointment(answer.appointment))
      .catch((error: unknown) => setOutcome(failed(error)));
  }, [token]);

  const cancel = () =>
    run(async () => {
      await apiPost(endpoints.appointmentLinkCancel, { token });
      setDone(true);
      setOutcome(success('Your appointment is cancelled. Thank you for letting us know: someone else can have the time.'));
    }, (error) => setOutcome(failed(error)));

  return (
    <AuthLayout title="Cancel your appointment">
      <Alert message={outcome} onDismiss={() => setOutcome(null)} />
      {appointment && !done && (
        <>
          <p>
            Do you want to cancel your appointment with <strong>{appointment.doctor.name}</strong> on <strong>{appointment.date}</strong> at{' '}
            <strong>{appointment.start_time.slice(0, 5)}</strong>?
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
