/** Where a verification e-mail's link leads: the address is confirmed as soon as the page opens. */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, apiPost } from '../../api.ts';
import { Alert, failure, success, type AlertMessage } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { endpoints, routes } from '../../paths.ts';
import { tokenFromAddress } from '../../token-link.ts';

export default function VerifyEmailPage() {
  const [outcome, setOutcome] = useState<AlertMessage | null>(null);
  useEffect(() => {
    const token = tokenFromAddress();
    if (!token) return setOutcome(failure('This link is incomplete. Sign in to send a new one.'));
    apiPost<{ email: string }>(endpoints.emailVerification, { token })
      .then(({ email }) => setOutcome(success(`Thank you: ${email} is confirmed. We will send your appointment reminders there.`)))
      .catch((error: unknown) => setOutcome(failure(error instanceof ApiError ? error.message : 'The address could not be confirmed. Please try again.')));
  }, []);

  return (
    <AuthLayout title="Confirm your e-mail address">
      {outcome ? <Alert message={outcome} onDismiss={() => setOutcome(null)} /> : <p role="status">Confirming…</p>}
      <p className="auth-switch">
        <Link href={routes.login}>Sign In</Link>
      </p>
    </AuthLayout>
  );
}
