/**
 * A labelled form control with the server's problems for it beneath, tied to it for screen readers.
 * The server words field problems as predicates ('is required'), so they are shown after the label.
 */
import { useId, type ReactNode } from 'react';

export interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: string;
  errors?: string[];
  hint?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

export function Field({ label, errors = [], hint, className, children }: FieldProps) {
  const id = useId();
  const describedBy = [hint && `${id}-hint`, errors.length > 0 && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': errors.length > 0, 'aria-describedby': describedBy || undefined })}
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {errors.length > 0 && (
        <p className="field-error" id={`${id}-error`}>
          {errors.map((error) => (/^[a-z]/.test(error) ? `${label} ${error}` : error)).join(' ')}
        </p>
      )}
    </div>
  );
}
