import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { Alert, failure, type AlertMessage } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { Field } from '../../components/field.tsx';
import { routes } from '../../paths.ts';
import { landingFor, signIn } from '../../session.ts';

export default function LoginPage() {
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<AlertMessage | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setAlert(null);
    try {
      const role = await signIn({ email, password, remember });
      navigate(landingFor(role), { replace: true });
    } catch (error) {
      console.error('login failed', error);
      setAlert(failure('Login failed. Please check your credentials.'));
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Sign In">
      <Alert message={alert} onDismiss={() => setAlert(null)} />
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
