import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { ApiError, apiPost } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { Field } from '../../components/field.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { endpoints, routes } from '../../paths.ts';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('password reset request');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    return run(
      async () =>
        setAlert(success((await apiPost<{ message: string }>(endpoints.passwordResetRequests, { email })).message)),
      (error) =>
        setAlert(
          failure(
            error instanceof ApiError && error.status === 429
              ? error.message
              : 'The link could not be sent. Please try again.',
          ),
        ),
    );
  };

  return (
    <AuthLayout title="Forgot Password?">
      <Alert message={alert} onDismiss={dismiss} />
      <p>Enter the e-mail address you sign in with, and we will send you a link to choose a new password.</p>
      <form className="form" onSubmit={onSubmit}>
        <Field label="Email" errors={errors.email}>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          Send me a link
        </button>
      </form>
      <p>No access to that mailbox? The clinic's front desk can give you a link in person or by phone.</p>
      <p className="auth-switch">
        <Link href={routes.login}>Back to Sign In</Link>
      </p>
    </AuthLayout>
  );
}
