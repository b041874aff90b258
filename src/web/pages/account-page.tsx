/**
 * Every user's own sign-in settings: a new password, signing out everywhere, for staff the authenticator
 * of two-step sign-in with its recovery codes, and for doctors and patients their private calendar feed.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, apiGet, apiPost, apiPut } from '../api.ts';
import { useSignals } from '@preact/signals-react/runtime';
import { role, startSession } from '../auth.ts';
import { CalendarFeedSection } from '../components/calendar-feed-section.tsx';
import { RecordOpeningsSection } from '../components/record-openings-section.tsx';
import { Alert, failure, success, type AlertMessage } from '../components/alert.tsx';
import { useConfirm } from '../components/confirm.tsx';
import { Field } from '../components/field.tsx';
import { LoadingStatus } from '../components/list-states.tsx';
import { MfaEnrolment, RecoveryCodes } from '../components/mfa-enrolment.tsx';
import { NewPasswordFields, useNewPassword } from '../components/new-password-fields.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useAlert } from '../components/use-alert.ts';
import { hasFieldErrors, useSubmit } from '../components/use-submit.ts';
import { endpoints } from '../paths.ts';
import { signOutEverywhere } from '../session.ts';
import type { Role } from '../../domain/shared/actor.ts';
import type { MfaSetupJson, MfaStatusJson } from '../../domain/auth/auth-shapes.ts';
import type { UserJson } from '../../domain/shared/shared-shapes.ts';

const complain = (setAlert: (m: AlertMessage) => void, fallback: string) => (error: unknown) => {
  if (!hasFieldErrors(error)) setAlert(failure(error instanceof ApiError ? error.message : fallback));
};

export default function AccountPage() {
  useSignals();
  const { alert, setAlert, dismiss } = useAlert();
  const currentRole = role.value;
  return (
    <>
      <PageHeader title="Sign-in & Security" />
      <Alert message={alert} onDismiss={dismiss} />
      <div className="account-sections">
        <ChangePassword setAlert={setAlert} />
        {/* Only admins and doctors may use it (the server's rule, domain/auth/mfa-use-cases.ts): only their page keeps its room while its status loads. */}
        {(currentRole === 'admin' || currentRole === 'doctor') && <TwoStepSignIn setAlert={setAlert} />}
        {(currentRole === 'doctor' || currentRole === 'patient') && (
          <CalendarFeedSection namesPatients={currentRole === 'doctor'} setAlert={setAlert} />
        )}
        <SignOutEverywhere setAlert={setAlert} />
        {currentRole === 'patient' && <RecordOpeningsSection />}
      </div>
    </>
  );
}

interface SectionProps {
  setAlert: (message: AlertMessage | null) => void;
}

function ChangePassword({ setAlert }: SectionProps) {
  const [current, setCurrent] = useState('');
  const next = useNewPassword();
  const { busy, errors, run } = useSubmit('password change');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (next.mismatch) return;
    setAlert(null);
    return run(
      async () => {
        // The server ends every session and opens this one anew, in a new cookie.
        startSession(
          await apiPut<{ user: UserJson; role: Role }>(endpoints.password, {
            current_password: current,
            new_password: next.password,
          }),
        );
        setCurrent('');
        next.clear();
        setAlert(success('Your password has been changed. You were signed out everywhere else.'));
      },
      complain(setAlert, 'Your password could not be changed.'),
    );
  };

  return (
    <section className="card account-section" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form className="form" onSubmit={onSubmit}>
        <Field label="Current password" errors={errors.current_password}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="current-password"
              required
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          )}
        </Field>
        <NewPasswordFields state={next} errors={errors.new_password} />
        <button type="submit" className="button button-primary" disabled={busy}>
          Change password
        </button>
      </form>
    </section>
  );
}

function TwoStepSignIn({ setAlert }: SectionProps) {
  const [status, setStatus] = useState<MfaStatusJson | null>(null);
  const [setup, setSetup] = useState<MfaSetupJson | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [password, setPassword] = useState('');
  const { busy, errors, run } = useSubmit('two-step sign-in');

  const load = () =>
    apiGet<MfaStatusJson>(endpoints.mfa)
      .then(setStatus)
      .catch((error: unknown) => console.error('mfa status fetch failed', error));
  useEffect(() => void load(), []);

  // Drawn at once with its text's and button's room kept, so the sections below do not move when the status comes.
  if (!status)
    return (
      <TwoStepFrame>
        <p aria-hidden="true">
          <span className="skeleton skeleton-text" />
          <span className="skeleton skeleton-text" />
        </p>
        <span className="skeleton skeleton-button" aria-hidden="true" />
        <LoadingStatus what="Two-step sign-in" hidden />
      </TwoStepFrame>
    );
  if (!status.available) return null;

  const start = () =>
    run(
      async () => setSetup(await apiPost<MfaSetupJson>(endpoints.mfa)),
      complain(setAlert, 'Two-step sign-in could not be set up.'),
    );
  const confirm = (code: string) =>
    void run(
      async () => {
        const answer = await apiPost<{ recovery_codes: string[] }>(endpoints.mfaConfirm, { code });
        setSetup(null);
        setCodes(answer.recovery_codes);
        await load();
      },
      complain(setAlert, 'That code did not work.'),
    );
  const withPassword = (path: string, done: (answer: { recovery_codes?: string[] }) => void, fallback: string) =>
    run(
      async () => {
        done(await apiPost<{ recovery_codes?: string[] }>(path, { password }));
        setPassword('');
        await load();
      },
      complain(setAlert, fallback),
    );
  const renewCodes = (event: FormEvent) => {
    event.preventDefault();
    return withPassword(
      endpoints.mfaRecoveryCodes,
      (a) => setCodes(a.recovery_codes ?? null),
      'New codes could not be made.',
    );
  };
  const turnOff = () =>
    withPassword(
      endpoints.mfaDisable,
      () => setAlert(success('Two-step sign-in is off.')),
      'Two-step sign-in could not be turned off.',
    );

  return (
    <TwoStepFrame>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : setup ? (
        <MfaEnrolment setup={setup} busy={busy} errors={errors.code} onCode={confirm} />
      ) : status.enabled ? (
        <>
          <p>
            On: each sign-in asks for a code from your authenticator. {status.recovery_codes_left} of 10 recovery codes
            left.
          </p>
          <form className="form" onSubmit={renewCodes}>
            <Field
              label="Password"
              errors={errors.password}
              hint="Needed for new recovery codes or to turn two-step sign-in off."
            >
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
            <div className="form-actions">
              <button type="submit" className="button" disabled={busy}>
                New recovery codes
              </button>
              {!status.required && (
                <button
                  type="button"
                  className="button button-danger"
                  disabled={busy}
                  onClick={(event) => {
                    if (event.currentTarget.form?.reportValidity()) void turnOff();
                  }}
                >
                  Turn off
                </button>
              )}
            </div>
          </form>
        </>
      ) : (
        <>
          <p>
            Off.{' '}
            {status.required
              ? 'Your clinic requires it: you will set it up at your next sign-in, or now.'
              : 'Protect your account with a code from your phone at each sign-in.'}
          </p>
          <button type="button" className="button button-primary" disabled={busy} onClick={() => void start()}>
            Set up two-step sign-in
          </button>
        </>
      )}
    </TwoStepFrame>
  );
}

/** The two-step sign-in section's card and heading, loaded or not. */
function TwoStepFrame({ children }: { children: ReactNode }) {
  return (
    <section className="card account-section" aria-labelledby="mfa-heading">
      <h2 id="mfa-heading">Two-step sign-in</h2>
      {children}
    </section>
  );
}

function SignOutEverywhere({ setAlert }: SectionProps) {
  const confirm = useConfirm();
  const { busy, run } = useSubmit('sign out everywhere');
  const onClick = async () => {
    if (
      !(await confirm({
        title: 'Sign out everywhere?',
        message: 'You will be signed out on every device, this one too.',
        confirmLabel: 'Sign out everywhere',
      }))
    )
      return;
    await run(signOutEverywhere, complain(setAlert, 'You could not be signed out everywhere.'));
  };
  return (
    <section className="card account-section" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Devices</h2>
      <p>Signed in on a computer you no longer use, or lost a phone? End every session of your account.</p>
      <button type="button" className="button button-danger" disabled={busy} onClick={() => void onClick()}>
        Sign out everywhere
      </button>
    </section>
  );
}
