import type { Gender } from '../../domain/shared/actor.ts';
import type { ControlProps } from './field.tsx';

const GENDERS: { value: Gender; label: string }[] = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
  { value: 'other', label: 'Other' },
];

interface GenderSelectProps {
  control: ControlProps;
  value: Gender | '';
  onChange: (gender: Gender | '') => void;
  required?: boolean;
}

/** The spec's genders (male, female, other) with an empty first choice, so one must be picked. */
export function GenderSelect({ control, value, onChange, required }: GenderSelectProps) {
  return (
    <select
      {...control}
      required={required}
      value={value}
      onChange={(event) => onChange(event.target.value as Gender | '')}
    >
      <option value="">Select gender</option>
      {GENDERS.map((gender) => (
        <option key={gender.value} value={gender.value}>
          {gender.label}
        </option>
      ))}
    </select>
  );
}
