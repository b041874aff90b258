import type { ControlProps } from './field.tsx';

interface NamedSelectProps {
  control: ControlProps;
  /** The empty first choice, e.g. 'Select department'. */
  placeholder: string;
  options: readonly { id: number; name: string }[];
  value: string;
  onChange: (id: string) => void;
  required?: boolean;
}

/** A select of catalogue rows by name, whose value is the chosen row's id. */
export function NamedSelect({ control, placeholder, options, value, onChange, required }: NamedSelectProps) {
  return (
    <select {...control} required={required} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">{placeholder}</option>
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </select>
  );
}
