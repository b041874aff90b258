/** Where a waitlist offer's e-mail link leads: the held time, with its hold's end, to accept or decline. */
import { Link } from 'wouter';
import type { WaitlistOfferJson } from '../../../domain/scheduling/waitlist-use-cases.ts';
import { apiPost } from '../../api.ts';
import { Alert, success } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { useSubmit } from '../../components/use-submit.ts';
import { linkFailure, useTokenLink } from '../../components/use-token-link.ts';
import { formatDay, formatDayTime, formatTime } from '../../format.ts';
import { endpoints, routes } from '../../paths.ts';

export default function WaitlistOfferPage() {
  const { token, preview, outcome, setOutcome, done, setDone } = useTokenLink<{ offer: WaitlistOfferJson }>(
    endpoints.waitlistOfferPreview,
  );
  const offer = preview?.offer;
  const { busy, run } = useSubmit('waitlist offer');

  const answer = (path: string, message: string) =>
    run(
      async () => {
        await apiPost(path, { token });
        setDone(true);
        setOutcome(success(message));
      },
      (error) => setOutcome(linkFailure(error)),
    );

  return (
    <AuthLayout title="A time is free for you">
      <Alert message={outcome} onDismiss={() => setOutcome(null)} />
      {offer && !done && (
        <>
          <dl className="details">
            <dt>Doctor</dt>
            <dd>{offer.doctor.name}</dd>
            <dt>Date</dt>
            <dd>{formatDay(offer.date)}</dd>
            <dt>Time</dt>
            <dd>
              {formatTime(offer.start_time)} – {formatTime(offer.end_time)}
            </dd>
            <dt>Held for you until</dt>
            <dd>{formatDayTime(offer.hold_until)}</dd>
          </dl>
          <div className="form-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() =>
                void answer(endpoints.waitlistOfferAccept, 'Your appointment is booked. It is in My Appointments.')
              }
            >
              Accept
            </button>
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() =>
                void answer(
                  endpoints.waitlistOfferDecline,
                  'You declined this time. It goes to the next patient; you stay on the waitlist for other times.',
                )
              }
            >
              Decline
            </button>
          </div>
        </>
      )}
      {!offer && !outcome && <p role="status">Loading…</p>}
      <p className="auth-switch">
        <Link href={routes.login}>Sign in to see your appointments</Link>
      </p>
    </AuthLayout>
  );
}
