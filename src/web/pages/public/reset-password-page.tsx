/** Where a reset link leads: the token comes in the address's fragment, which never reaches a server log. */
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { ApiError, apiPost } from '../../api.ts';
import { Alert, failure } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { NewPasswordFields, useNewPassword } from '../../components/new-password-fields.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { endpoints, routes } from '../../paths.ts';
import { tokenFromAddress } from '../../token-link.ts';

export default function ResetPasswordPage() {
  const [, navigate] = useLocation();
  const [token] = useState(tokenFromAddress);
  const password = useNewPassword();
  const { alert, setAlert, dismiss } = useAlert(
    token ? null : failure('This link is incomplete. Ask the front desk for a new one.'),
  );
  const { busy, errors, run } = useSubmit('password reset');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password.mismatch) return;
    setAlert(null);
    return run(
      async () => {
        await apiPost(endpoints.passwordReset, { token, password: password.password });
        navigate(routes.login, { replace: true, state: { notice: 'Your new password is set. Sign in with it.' } });
      },
      (error) =>
        setAlert(
          failure(error instanceof ApiError && !errors.password ? error.message : 'The password could not be set.'),
        ),
    );
  };

  return (
    <AuthLayout title="Choose a new password">
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={onSubmit}>
        <NewPasswordFields state={password} errors={errors.password} />
        <button type="submit" className="button button-primary button-block" disabled={busy || !token}>
          Set password
        </button>
      </form>
      <p className="auth-switch">
        <Link href={routes.login}>Back to Sign In</Link>
      </p>
    </AuthLayout>
  );
}
