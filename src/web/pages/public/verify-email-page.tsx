/**
 * Where a verification e-mail's link leads. The account's own address is confirmed as soon as the page opens; a
 * new sign-in address the clinic entered also needs the account's password, so reading that address is not enough.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { VerificationPreviewJson } from '../../../domain/auth/confirm-email-use-cases.ts';
import type { VerificationPurpose } from '../../../domain/notifications/templates.ts';
import { ApiError, apiPost } from '../../api.ts';
import { Alert, success } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { Field } from '../../components/field.tsx';
import { useSubmit } from '../../components/use-submit.ts';
import { linkFailure, useTokenLink } from '../../components/use-token-link.ts';
import { endpoints, routes } from '../../paths.ts';

const CONFIRMED: Record<VerificationPurpose, (email: string) => string> = {
  own: (email) => `Thank you: ${email} is confirmed. We will send your appointment reminders there.`,
  change: (email) => `Thank you: ${email} is now your sign-in e-mail. Sign in with it from now on.`,
  first: (email) => `Thank you: ${email} is confirmed. To sign in, choose a password through "Forgot password".`,
};

export default function VerifyEmailPage() {
  const { token, preview, outcome, setOutcome, done, setDone } = useTokenLink<VerificationPreviewJson>(
    endpoints.emailVerificationPreview,
  );
  const [password, setPassword] = useState('');
  const { busy, errors, run } = useSubmit('e-mail confirmation');

  const confirm = (link: VerificationPreviewJson, body: { password?: string } = {}) =>
    run(
      async () => {
        const { email } = await apiPost<{ email: string }>(endpoints.emailVerification, { token, ...body });
        setDone(true);
        setOutcome(success(CONFIRMED[link.purpose](email)));
      },
      // A wrong or missing password is said beside its field; anything else ends the page's business.
      (error) => setOutcome(link.purpose === 'change' && hasPasswordProblem(error) ? null : linkFailure(error)),
    );

  useEffect(() => {
    if (preview && preview.purpose !== 'change') void confirm(preview);
  }, [preview]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (preview) return confirm(preview, { password });
  };

  return (
    <AuthLayout title="Confirm your e-mail address">
      <Alert message={outcome} onDismiss={() => setOutcome(null)} />
      {preview?.purpose === 'change' && !done && (
        <form className="form" onSubmit={onSubmit}>
          <p>
            The clinic entered <strong>{preview.email}</strong> as your new sign-in e-mail. Enter your Medora password
            to start using it. Until you do, you keep signing in with your previous address.
          </p>
          <Field label="Password" errors={errors.password}>
            {(control) => (
              <input
                {...control}
                type="password"
                required
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            Confirm new e-mail
          </button>
          <p className="field-hint">
            Forgot your password? <Link href={routes.forgotPassword}>Choose a new one</Link> with your previous address,
            then follow this link again.
          </p>
        </form>
      )}
      {!outcome && preview?.purpose !== 'change' && <p role="status">Confirming…</p>}
      {preview?.purpose === 'first' && done && (
        <p className="auth-switch">
          <Link href={routes.forgotPassword}>Choose a password</Link>
        </p>
      )}
      <p className="auth-switch">
        <Link href={routes.login}>Sign In</Link>
      </p>
    </AuthLayout>
  );
}

const hasPasswordProblem = (error: unknown): boolean =>
  error instanceof ApiError && error.errors.password !== undefined;
