import type { RefObject } from 'react';
import type { Department, Doctor, Specialization } from '../../../domain/catalogue/catalogue.ts';
import type { Gender } from '../../../domain/shared/actor.ts';
import type { FieldErrors } from '../../../domain/shared/errors.ts';
import { AccountFields } from '../../components/account-fields.tsx';
import { Field } from '../../components/field.tsx';
import { GenderSelect } from '../../components/gender-select.tsx';
import { NamedSelect } from '../../components/named-select.tsx';
import { useAllRows } from '../../components/use-all-rows.ts';
import { endpoints } from '../../paths.ts';

export interface DoctorValues {
  name: string;
  email: string;
  password: string;
  phone: string;
  gender: Gender | '';
  specialization_id: string;
  department_id: string;
  bio: string;
  birthdate: string;
  address: string;
}

export const EMPTY_DOCTOR: DoctorValues = {
  name: '',
  email: '',
  password: '',
  phone: '',
  gender: '',
  specialization_id: '',
  department_id: '',
  bio: '',
  birthdate: '',
  address: '',
};

/** A saved doctor as the edit form holds them; the password stays empty (kept unless a new one is typed). */
export const doctorValues = (d: Doctor): DoctorValues => ({
  name: d.name,
  email: d.email,
  password: '',
  phone: d.phone,
  gender: d.gender ?? '',
  specialization_id: d.specialization ? String(d.specialization.id) : '',
  department_id: d.department ? String(d.department.id) : '',
  bio: d.bio,
  birthdate: d.birthdate ?? '',
  address: d.address,
});

/**
 * The form as a multipart body with the chosen photo. A new doctor sends only what was filled in; an edit sends
 * every field, so one emptied is cleared, and a password only when a new one is typed.
 */
export function doctorFormData(values: DoctorValues, photo: File | undefined, opts: { emptied: boolean }): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(values))
    if (value !== '' || (opts.emptied && key !== 'password')) form.append(key, value);
  if (photo) form.append('photo', photo);
  return form;
}

/** The specializations and departments a doctor may be given, fetched once `wanted`. */
export function useDoctorChoices(wanted: boolean) {
  return {
    specializations: useAllRows<Specialization>(endpoints.admin.specializations, 'specializations', wanted),
    departments: useAllRows<Department>(endpoints.admin.departments, 'departments', wanted),
  };
}

interface DoctorFieldsProps {
  values: DoctorValues;
  onChange: <K extends keyof DoctorValues>(key: K, value: DoctorValues[K]) => void;
  errors: FieldErrors;
  choices: ReturnType<typeof useDoctorChoices>;
  photoRef: RefObject<HTMLInputElement | null>;
  /** Editing a saved doctor: the password and photo are optional and replace the old ones when given. */
  editing?: boolean;
}

/** Every field of a doctor, for the create form and the edit page. */
export function DoctorFields({ values, onChange: set, errors, choices, photoRef, editing = false }: DoctorFieldsProps) {
  return (
    <>
      <AccountFields values={values} errors={errors} onChange={set} editing={editing} />
      <Field label="Phone" errors={errors.phone}>
        {(control) => (
          <input {...control} type="tel" value={values.phone} onChange={(e) => set('phone', e.target.value)} />
        )}
      </Field>
      <Field label="Gender" errors={errors.gender}>
        {(control) => (
          <GenderSelect control={control} value={values.gender} onChange={(gender) => set('gender', gender)} />
        )}
      </Field>
      <Field label="Specialization" errors={errors.specialization_id}>
        {(control) => (
          <NamedSelect
            control={control}
            placeholder="Select specialization"
            options={choices.specializations}
            value={values.specialization_id}
            onChange={(id) => set('specialization_id', id)}
          />
        )}
      </Field>
      <Field label="Department" errors={errors.department_id}>
        {(control) => (
          <NamedSelect
            control={control}
            placeholder="Select department"
            options={choices.departments}
            value={values.department_id}
            onChange={(id) => set('department_id', id)}
          />
        )}
      </Field>
      <Field label="Birthdate" errors={errors.birthdate}>
        {(control) => (
          <input {...control} type="date" value={values.birthdate} onChange={(e) => set('birthdate', e.target.value)} />
        )}
      </Field>
      <Field label="Address" errors={errors.address}>
        {(control) => <input {...control} value={values.address} onChange={(e) => set('address', e.target.value)} />}
      </Field>
      <Field
        label={editing ? 'New photo' : 'Photo'}
        errors={errors.photo}
        hint={
          editing ? 'PNG, JPEG or WebP, at most 2 MB; replaces the current photo.' : 'PNG, JPEG or WebP, at most 2 MB.'
        }
      >
        {(control) => <input {...control} ref={photoRef} type="file" accept="image/png,image/jpeg,image/webp" />}
      </Field>
      <Field label="Bio" errors={errors.bio} className="field-wide">
        {(control) => (
          <textarea {...control} rows={3} value={values.bio} onChange={(e) => set('bio', e.target.value)} />
        )}
      </Field>
    </>
  );
}
