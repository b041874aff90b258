import type { ReactNode } from 'react';
import type { Gender } from '../../domain/shared/actor.ts';
import type { FieldErrors } from '../../domain/shared/errors.ts';
import { Field } from './field.tsx';
import { GenderSelect } from './gender-select.tsx';

export interface PatientContact {
  name: string;
  email: string;
  phone: string;
  birthdate: string;
  gender: Gender | '';
}

/** A patient's details as the patient's own profile form and the admin's edit hold them. */
export const patientContact = (p: {
  name: string;
  email: string | null;
  phone: string | null;
  birthdate: string | null;
  gender: Gender | null;
}): PatientContact => ({
  name: p.name,
  email: p.email ?? '',
  phone: p.phone ?? '',
  birthdate: p.birthdate ?? '',
  gender: p.gender ?? '',
});

export const WITHOUT_EMAIL = 'Optional. Without one the patient cannot sign in and gets no e-mail.';

interface PatientFieldsProps {
  values: PatientContact;
  onChange: (values: PatientContact) => void;
  errors: FieldErrors;
  /** What follows the e-mail field, such as the password a new sign-in e-mail needs. */
  afterEmail?: ReactNode;
  /** The browser may fill in the signed-in person's own details, never someone else's. */
  own: boolean;
  /** For a patient registered at the desk without an e-mail, who may stay without one. */
  emailOptional?: boolean;
}

/** A patient's name, e-mail, phone, birthdate and gender, validated by the server by the same rules for both. */
export function PatientFields({
  values,
  onChange,
  errors,
  afterEmail,
  own,
  emailOptional = false,
}: PatientFieldsProps) {
  const set = <K extends keyof PatientContact>(key: K, value: PatientContact[K]) =>
    onChange({ ...values, [key]: value });
  return (
    <>
      <Field label="Name" errors={errors.name}>
        {(control) => (
          <input
            {...control}
            required
            autoComplete={own ? 'name' : 'off'}
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
          />
        )}
      </Field>
      <Field label="Email" errors={errors.email} hint={emailOptional ? WITHOUT_EMAIL : undefined}>
        {(control) => (
          <input
            {...control}
            type="email"
            required={!emailOptional}
            autoComplete={own ? 'email' : 'off'}
            value={values.email}
            onChange={(e) => set('email', e.target.value)}
          />
        )}
      </Field>
      {afterEmail}
      <Field label="Phone" errors={errors.phone}>
        {(control) => (
          <input
            {...control}
            type="tel"
            autoComplete={own ? 'tel' : 'off'}
            value={values.phone}
            onChange={(e) => set('phone', e.target.value)}
          />
        )}
      </Field>
      <Field label="Birthdate" errors={errors.birthdate}>
        {(control) => (
          <input {...control} type="date" value={values.birthdate} onChange={(e) => set('birthdate', e.target.value)} />
        )}
      </Field>
      <Field label="Gender" errors={errors.gender}>
        {(control) => (
          <GenderSelect control={control} value={values.gender} onChange={(gender) => set('gender', gender)} />
        )}
      </Field>
    </>
  );
}
