import type { FormEvent } from 'react';
import type { FieldErrors } from '../../../domain/shared/errors.ts';
import { Field } from '../../components/field.tsx';

export interface DepartmentValues {
  name: string;
  description: string;
}

interface DepartmentFormProps {
  values: DepartmentValues;
  errors: FieldErrors;
  busy: boolean;
  submitLabel: string;
  onChange: (values: DepartmentValues) => void;
  onSubmit: () => void;
}

export function DepartmentForm({ values, errors, busy, submitLabel, onChange, onSubmit }: DepartmentFormProps) {
  return (
    <form
      className="form card form-narrow"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Field label="Name" errors={errors.name}>
        {(control) => (
          <input
            {...control}
            required
            value={values.name}
            onChange={(e) => onChange({ ...values, name: e.target.value })}
          />
        )}
      </Field>
      <Field label="Description" errors={errors.description}>
        {(control) => (
          <textarea
            {...control}
            rows={4}
            value={values.description}
            onChange={(e) => onChange({ ...values, description: e.target.value })}
          />
        )}
      </Field>
      <button type="submit" className="button button-primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
