import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { MfaSetupJson } from '../../../domain/auth/mfa-use-cases.ts';
import type { Role } from '../../../domain/shared/actor.ts';
import { ApiError } from '../../api.ts';
import { Alert, failure, info } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { Field } from '../../components/field.tsx';
import { MfaEnrolment, OneTimeCodeField, RecoveryCodes } from '../../components/mfa-enrolment.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { routes } from '../../paths.ts';
import { completeSignIn, landingFor, mfaSetupAtSignIn, signIn, type SignInStep } from '../../session.ts';

/** What the page asks for: the password, then perhaps a code, a new authenticator, or a look at new recovery codes. */
type Stage =
  | { kind: 'password' }
  | { kind: 'code'; challenge: string; recovery: boolean }
  | { kind: 'enrol'; challenge: string; setup: MfaSetupJson }
  | { kind: 'codes'; role: Role; codes: string[] };

/** A notice another page left for this one (a password just set), read once from the history entry. */
const noticeFromHistory = (): string | null => {
  const notice = (window.history.state as { notice?: unknown } | null)?.notice;
  return typeof notice === 'string' ? notice : null;
};

export default function LoginPage() {
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [code, setCode] = useState('');
  const [stage, setStage] = useState<Stage>({ kind: 'password' });
  const notice = noticeFromHistory();
  const { alert, setAlert, dismiss } = useAlert(notice ? info(notice) : null);
  const { busy, errors, run } = useSubmit('login');

  // Waits and an expired second step are the server's to explain; any other failure gets the page's words.
  const onFailure = (fallback: string) => (error: unknown) => {
    const expired = error instanceof ApiError && error.code === 'challenge_expired';
    if (expired) setStage({ kind: 'password' });
    setAlert(failure(error instanceof ApiError && (expired || error.status === 429) ? error.message : fallback));
  };

  const proceed = async (step: SignInStep) => {
    if (step.kind === 'signed-in') {
      if (step.recoveryCodes) setStage({ kind: 'codes', role: step.role, codes: step.recoveryCodes });
      else navigate(landingFor(step.role), { replace: true });
    } else if (step.mfa === 'verify') {
      setCode('');
      setStage({ kind: 'code', challenge: step.challenge, recovery: false });
    } else {
      setStage({ kind: 'enrol', challenge: step.challenge, setup: await mfaSetupAtSignIn(step.challenge) });
    }
  };

  const onPassword = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    return run(
      async () => proceed(await signIn({ email, password, remember })),
      onFailure('Login failed. Please check your credentials.'),
    );
  };

  const onCode = (challenge: string, recovery: boolean) => (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    return run(
      async () => proceed(await completeSignIn(challenge, recovery ? { recovery_code: code } : { code })),
      onFailure('That code did not work. Please try again.'),
    );
  };

  if (stage.kind === 'codes') {
    return (
      <AuthLayout title="Save your recovery codes">
        <RecoveryCodes codes={stage.codes} onDone={() => navigate(landingFor(stage.role), { replace: true })} />
      </AuthLayout>
    );
  }

  if (stage.kind === 'enrol') {
    return (
      <AuthLayout title="Set up two-step sign-in">
        <Alert message={alert} onDismiss={dismiss} />
        <p>Your clinic asks staff to confirm each sign-in with a code from their phone.</p>
        <MfaEnrolment
          setup={stage.setup}
          busy={busy}
          errors={errors.code}
          onCode={(first) =>
            void run(
              async () => proceed(await completeSignIn(stage.challenge, { code: first })),
              onFailure('That code did not work. Please try again.'),
            )
          }
        />
      </AuthLayout>
    );
  }

  if (stage.kind === 'code') {
    const { challenge, recovery } = stage;
    return (
      <AuthLayout title="Two-step sign-in">
        <Alert message={alert} onDismiss={dismiss} />
        <form className="form" onSubmit={onCode(challenge, recovery)}>
          {recovery ? (
            <Field label="Recovery code" errors={errors.recovery_code}>
              {(control) => (
                <input
                  {...control}
                  autoComplete="off"
                  required
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                />
              )}
            </Field>
          ) : (
            <OneTimeCodeField value={code} onChange={setCode} errors={errors.code} />
          )}
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            Verify
          </button>
        </form>
        <p className="auth-switch">
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setCode('');
              setStage({ kind: 'code', challenge, recovery: !recovery });
            }}
          >
            {recovery ? 'Use the code from your authenticator' : 'Use a recovery code instead'}
          </button>
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign In">
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={onPassword}>
        <Field label="Email">
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
