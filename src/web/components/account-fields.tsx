import type { FieldErrors } from '../../domain/shared/errors.ts';
import { Field } from './field.tsx';

type AccountKey = 'name' | 'email' | 'password';

interface AccountFieldsProps {
  values: Record<AccountKey, string>;
  errors: FieldErrors;
  onChange: (key: AccountKey, value: string) => void;
  /** Editing a saved account: the password is optional and replaces the current one when given. */
  editing?: boolean;
}

/** The name, sign-in e-mail and password of a staff account an admin creates or edits (a doctor, a receptionist). */
export function AccountFields({ values, errors, onChange, editing = false }: AccountFieldsProps) {
  return (
    <>
      <Field label="Name" errors={errors.name}>
        {(control) => (
          <input {...control} required value={values.name} onChange={(e) => onChange('name', e.target.value)} />
        )}
      </Field>
      <Field label="Email" errors={errors.email}>
        {(control) => (
          <input
            {...control}
            type="email"
            required
            autoComplete="off"
            value={values.email}
            onChange={(e) => onChange('email', e.target.value)}
          />
        )}
      </Field>
      <Field
        label={editing ? 'New password' : 'Password'}
        errors={errors.password}
        hint={editing ? 'Leave empty to keep the current password.' : undefined}
      >
        {(control) => (
          <input
            {...control}
            type="password"
            required={!editing}
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => onChange('password', e.target.value)}
          />
        )}
      </Field>
    </>
  );
}
