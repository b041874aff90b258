import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { Alert, failure } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { Field } from '../../components/field.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { routes } from '../../paths.ts';
import { landingFor, signIn } from '../../session.ts';

export default function LoginPage() {
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, run } = useSubmit('login');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    return run(
      async () => {
        const role = await signIn({ email, password, remember });
        navigate(landingFor(role), { replace: true });
      },
      () => setAlert(failure('Login failed. Please check your credentials.')),
    );
  };

  return (
    <AuthLayout title="Sign In">
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={onSubmit}>
        <Field label="Email">
          {(control) => (
            <input {...control} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          )}
        </Field>
        <Field label="Password">
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <div className="form-row">
          <label className="checkbox">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember me
          </label>
          <Link href={routes.forgotPassword}>Forgot Password?</Link>
        </div>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          Sign In
        </button>
      </form>
      <p className="auth-switch">
        Don't have an account? <Link href={routes.signup}>Sign up</Link>
      </p>
    </AuthLayout>
  );
}
