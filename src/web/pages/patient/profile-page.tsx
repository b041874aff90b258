import { useEffect, useState, type FormEvent } from 'react';
import type { MyProfileJson } from '../../../domain/patients/patients-shapes.ts';
import { ApiError, apiGet, apiPost, apiPut } from '../../api.ts';
import { user } from '../../auth.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { Field } from '../../components/field.tsx';
import { PatientFields, patientContact, type PatientContact } from '../../components/patient-fields.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { endpoints } from '../../paths.ts';

interface ProfileForm extends PatientContact {
  reminders: boolean;
}

const toForm = ({ patient }: MyProfileJson): ProfileForm => ({
  ...patientContact(patient),
  reminders: patient.reminders,
});

export default function PatientProfilePage() {
  const [form, setForm] = useState<ProfileForm | null>(null);
  // A new sign-in e-mail needs the current password; the field appears once the e-mail is changed.
  const [savedEmail, setSavedEmail] = useState('');
  const [verified, setVerified] = useState(true);
  const [pending, setPending] = useState<string | null>(null);
  const [currentPassword, setCurrentPassword] = useState('');
  const emailChanged = form !== null && form.email.trim().toLowerCase() !== savedEmail.toLowerCase();
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('profile update');

  useEffect(() => {
    apiGet<MyProfileJson>(endpoints.patient.profile)
      .then((profile) => {
        setForm(toForm(profile));
        setSavedEmail(profile.patient.email);
        setVerified(profile.patient.email_verified);
        setPending(profile.patient.pending_email);
      })
      .catch((error: unknown) => console.error('profile fetch failed', error));
  }, []);

  const set = <K extends keyof ProfileForm>(key: K, value: ProfileForm[K]) =>
    setForm((was) => (was ? { ...was, [key]: value } : was));

  const resend = () =>
    apiPost<{ email: string }>(endpoints.resendVerification)
      .then(({ email }) => setAlert(success(`We sent a new confirmation link to ${email}.`)))
      .catch((error: unknown) =>
        setAlert(failure(error instanceof ApiError ? error.message : 'The link could not be sent.')),
      );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        const saved = await apiPut<MyProfileJson>(
          endpoints.patient.profile,
          emailChanged ? { ...form, current_password: currentPassword } : form,
        );
        user.value = saved.user;
        setForm(toForm(saved));
        setSavedEmail(saved.patient.email);
        setVerified(saved.patient.email_verified);
        setPending(saved.patient.pending_email);
        setCurrentPassword('');
        setAlert(
          success(
            saved.patient.email_verified
              ? 'Your Profile has been updated'
              : `Your Profile has been updated. We sent a link to ${saved.patient.email} to confirm it.`,
          ),
        );
      },
      (error) => {
        if (error instanceof ApiError) setAlert(failure(error.message));
      },
    );
  };

  return (
    <>
      <PageHeader title="Patient Profile" />
      <Alert message={alert} onDismiss={dismiss} />
      {form && (
        <form className="form card form-narrow" onSubmit={onSubmit}>
          <PatientFields
            values={form}
            onChange={(contact) => setForm((was) => was && { ...was, ...contact })}
            errors={errors}
            own
            afterEmail={
              <>
                {!verified && !emailChanged && (
                  <p className="field-hint">
                    This address is not confirmed yet, so no reminders go to it.{' '}
                    <button type="button" className="link-button" onClick={() => void resend()}>
                      Send the confirmation link again
                    </button>
                  </p>
                )}
                {pending && !emailChanged && (
                  <p className="field-hint">
                    The clinic entered {pending} as your new sign-in e-mail. It takes over only when you follow the link
                    we sent there and enter your password.
                  </p>
                )}
                {emailChanged && (
                  <Field
                    label="Current password"
                    errors={errors.current_password}
                    hint="Needed to change the e-mail you sign in with."
                  >
                    {(control) => (
                      <input
                        {...control}
                        type="password"
                        required
                        autoComplete="current-password"
                        value={currentPassword}
                        onChange={(e) => setCurrentPassword(e.target.value)}
                      />
                    )}
                  </Field>
                )}
              </>
            }
          />
          <label className="checkbox">
            <input type="checkbox" checked={form.reminders} onChange={(e) => set('reminders', e.target.checked)} />{' '}
            E-mail me a reminder before each visit
          </label>
          <button type="submit" className="button button-primary" disabled={busy}>
            Update Profile
          </button>
        </form>
      )}
    </>
  );
}
