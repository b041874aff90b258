import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, apiGet, apiPut } from '../../api.ts';
import type { FieldErrors, Gender, PatientProfile } from '../../api-types.ts';
import { user } from '../../auth.ts';
import { Alert, failure, success, type AlertMessage } from '../../components/alert.tsx';
import { Field } from '../../components/field.tsx';
import { GenderSelect } from '../../components/gender-select.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { endpoints } from '../../paths.ts';

interface ProfileForm {
  name: string;
  email: string;
  phone: string;
  birthdate: string;
  gender: Gender | '';
}

const toForm = ({ patient }: PatientProfile): ProfileForm => ({
  name: patient.name,
  email: patient.email,
  phone: patient.phone ?? '',
  birthdate: patient.birthdate ?? '',
  gender: patient.gender ?? '',
});

export default function PatientProfilePage() {
  const [form, setForm] = useState<ProfileForm | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<AlertMessage | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    apiGet<PatientProfile>(endpoints.patient.profile)
      .then((profile) => setForm(toForm(profile)))
      .catch((error: unknown) => console.error('profile fetch failed', error));
  }, []);

  const set = <K extends keyof ProfileForm>(key: K, value: ProfileForm[K]) =>
    setForm((was) => (was ? { ...was, [key]: value } : was));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    setBusy(true);
    setErrors({});
    try {
      const saved = await apiPut<PatientProfile>(endpoints.patient.profile, form);
      user.value = saved.user;
      setForm(toForm(saved));
      setAlert(success('Your Profile has been updated'));
    } catch (error) {
      console.error('profile update failed', error);
      if (error instanceof ApiError) {
        setErrors(error.errors);
        setAlert(failure(error.message));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Patient Profile" />
      <Alert message={alert} onDismiss={() => setAlert(null)} />
      {form && (
        <form className="form card form-narrow" onSubmit={onSubmit}>
          <Field label="Name" errors={errors.name}>
            {(control) => <input {...control} required autoComplete="name" value={form.name} onChange={(e) => set('name', e.target.value)} />}
          </Field>
          <Field label="Email" errors={errors.email}>
            {(control) => (
              <input {...control} type="email" required autoComplete="email" value={form.email} onChange={(e) => set('email', e.target.value)} />
            )}
          </Field>
          <Field label="Phone" errors={errors.phone}>
            {(control) => <input {...control} type="tel" autoComplete="tel" value={form.phone} onChange={(e) => set('phone', e.target.value)} />}
          </Field>
          <Field label="Birthdate" errors={errors.birthdate}>
            {(control) => <input {...control} type="date" value={form.birthdate} onChange={(e) => set('birthdate', e.target.value)} />}
          </Field>
          <Field label="Gender" errors={errors.gender}>
            {(control) => <GenderSelect control={control} value={form.gender} onChange={(gender) => set('gender', gender)} />}
          </Field>
          <button type="submit" className="button button-primary" disabled={busy}>
            Update Profile
          </button>
        </form>
      )}
    </>
  );
}
