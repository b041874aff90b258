import type { ControlProps } from './field.tsx';

/** An amount of money in dollars and cents, at least one cent and at most `max`, as a field's control. */
export function AmountInput({
  control,
  max,
  value,
  onChange,
}: {
  control: ControlProps;
  max?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      {...control}
      type="number"
      inputMode="decimal"
      min="0.01"
      step="0.01"
      max={max}
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
