import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { Gender } from '../../../domain/shared/actor.ts';
import { Alert, failure } from '../../components/alert.tsx';
import { AuthLayout } from '../../components/auth-layout.tsx';
import { Field } from '../../components/field.tsx';
import { GenderSelect } from '../../components/gender-select.tsx';
import { serverFailure, useAlert } from '../../components/use-alert.ts';
import { hasFieldErrors, useSubmit } from '../../components/use-submit.ts';
import { routes } from '../../paths.ts';
import { register } from '../../session.ts';

const emptyForm = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  confirmPassword: '',
  phone: '',
  birthdate: '',
  gender: '' as Gender | '',
  acceptTerms: false,
};

export default function SignupPage() {
  const [, navigate] = useLocation();
  const [form, setForm] = useState(emptyForm);
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, setErrors, run } = useSubmit('registration');

  const set = <K extends keyof typeof emptyForm>(key: K, value: (typeof emptyForm)[K]) =>
    setForm((was) => ({ ...was, [key]: value }));

  // The server validates every field it receives and names the bad ones; it gets the two names joined, so the
  // form itself requires each of them.
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    if (form.password !== form.confirmPassword) return setAlert(failure('Passwords do not match.'));
    if (!form.acceptTerms) return setAlert(failure('You must accept the terms and conditions.'));
    setAlert(null);
    const missingNames = {
      ...(!form.firstName.trim() && { firstName: ['is required'] }),
      ...(!form.lastName.trim() && { lastName: ['is required'] }),
    };
    if (Object.keys(missingNames).length > 0) return setErrors(missingNames);
    return run(
      async () => {
        const notice = await register({
          name: `${form.firstName.trim()} ${form.lastName.trim()}`,
          email: form.email,
          password: form.password,
          phone: form.phone,
          birthdate: form.birthdate,
          gender: form.gender as Gender,
        });
        navigate(routes.login, { state: { notice } });
      },
      (error) => setAlert(hasFieldErrors(error) ? null : serverFailure(error, 'An error occurred. Please try again.')),
    );
  };

  return (
    <AuthLayout title="Sign Up">
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={onSubmit} noValidate>
        <div className="form-grid">
          <Field label="First name" errors={errors.firstName ?? errors.name}>
            {(control) => (
              <input
                {...control}
                required
                autoComplete="given-name"
                value={form.firstName}
                onChange={(e) => set('firstName', e.target.value)}
              />
            )}
          </Field>
          <Field label="Last name" errors={errors.lastName}>
            {(control) => (
              <input
                {...control}
                required
                autoComplete="family-name"
                value={form.lastName}
                onChange={(e) => set('lastName', e.target.value)}
              />
            )}
          </Field>
        </div>
        <Field label="Email address" errors={errors.email}>
          {(control) => (
            <input
              {...control}
              type="email"
              required
              autoComplete="email"
              value={form.email}
              onChange={(e) => set('email', e.target.value)}
            />
          )}
        </Field>
        <div className="form-grid">
          <Field label="Password" errors={errors.password}>
            {(control) => (
              <input
                {...control}
                type="password"
                required
                autoComplete="new-password"
                placeholder="8+ characters required"
                value={form.password}
                onChange={(e) => set('password', e.target.value)}
              />
            )}
          </Field>
          <Field label="Confirm password">
            {(control) => (
              <input
                {...control}
                type="password"
                required
                autoComplete="new-password"
                value={form.confirmPassword}
                onChange={(e) => set('confirmPassword', e.target.value)}
              />
            )}
          </Field>
        </div>
        <div className="form-grid">
          <Field label="Phone Number" errors={errors.phone}>
            {(control) => (
              <input
                {...control}
                type="tel"
                required
                autoComplete="tel"
                value={form.phone}
                onChange={(e) => set('phone', e.target.value)}
              />
            )}
          </Field>
          <Field label="Birthdate" errors={errors.birthdate}>
            {(control) => (
              <input
                {...control}
                type="date"
                required
                autoComplete="bday"
                value={form.birthdate}
                onChange={(e) => set('birthdate', e.target.value)}
              />
            )}
          </Field>
        </div>
        <Field label="Gender" errors={errors.gender}>
          {(control) => (
            <GenderSelect control={control} required value={form.gender} onChange={(gender) => set('gender', gender)} />
          )}
        </Field>
        <label className="checkbox">
          <input
            type="checkbox"
            required
            checked={form.acceptTerms}
            onChange={(e) => set('acceptTerms', e.target.checked)}
          />{' '}
          I accept the terms and conditions
        </label>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          Sign Up
        </button>
      </form>
      <p className="auth-switch">
        Already have an account? <Link href={routes.login}>Sign in</Link>
      </p>
    </AuthLayout>
  );
}
