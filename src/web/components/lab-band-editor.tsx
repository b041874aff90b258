/**
 * The bands of a test's reference ranges or critical limits, as an admin edits them: one row per sex and age band
 * (ages in days of life, the upper one left empty for no end), each with its low and high end.
 */
import { Field } from './field.tsx';
import type { LabTestJson } from './lab-labels.ts';

type BandJson = LabTestJson['ranges'][number];

/** A band as typed: every box a string until it is sent. */
export interface BandDraft {
  sex: BandJson['sex'];
  from: string;
  to: string;
  low: string;
  high: string;
}

const SEXES = [
  ['any', 'Anyone'],
  ['male', 'Male'],
  ['female', 'Female'],
] as const;

const text = (n: number | null) => (n === null ? '' : String(n));

export const draftsOf = (bands: readonly BandJson[]): BandDraft[] =>
  bands.map((b) => ({
    sex: b.sex,
    from: String(b.age_from_days),
    to: text(b.age_to_days),
    low: text(b.low),
    high: text(b.high),
  }));

/** The number typed, null for an empty box, or the text itself for the server to name. */
const numberOrNull = (typed: string) => {
  const t = typed.trim();
  if (t === '') return null;
  return Number.isFinite(Number(t)) ? Number(t) : t;
};

export const bandsOf = (drafts: readonly BandDraft[]) =>
  drafts.map((d) => ({
    sex: d.sex,
    age_from_days: numberOrNull(d.from) ?? 0,
    age_to_days: numberOrNull(d.to),
    low: numberOrNull(d.low),
    high: numberOrNull(d.high),
  }));

interface BandEditorProps {
  field: 'ranges' | 'critical_limits';
  legend: string;
  bands: BandDraft[];
  onChange: (bands: BandDraft[]) => void;
  errors: Record<string, string[]>;
}

export function BandEditor({ field, legend, bands, onChange, errors }: BandEditorProps) {
  const one = legend.replace(/s$/, '');
  const set = (i: number, change: Partial<BandDraft>) =>
    onChange(bands.map((b, j) => (j === i ? { ...b, ...change } : b)));
  const box = (i: number, key: 'from' | 'to' | 'low' | 'high', label: string, name: string) => (
    <Field label={label} errors={errors[`${field}[${i}].${name}`]} className="band-number">
      {(control) => (
        <input
          {...control}
          inputMode="decimal"
          value={bands[i]?.[key] ?? ''}
          onChange={(e) => set(i, { [key]: e.target.value })}
        />
      )}
    </Field>
  );
  return (
    <fieldset className="band-editor">
      <legend>{legend}</legend>
      <p className="field-hint">Ages in days of life: 18 years is 6575. Leave “to age” empty for no end.</p>
      {errors[field] && <p className="field-error">{errors[field].join(' ')}</p>}
      {bands.length === 0 && <p className="muted">None.</p>}
      <ol>
        {bands.map((b, i) => (
          // Bands have no id of their own; a row is its place in the list.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is edited in place, rows are not reordered
          <li key={i}>
            <fieldset className="form-row form-row-wrap band-row">
              <legend>{`${one} ${i + 1}`}</legend>
              <Field label="Sex" errors={errors[`${field}[${i}].sex`]} className="band-sex">
                {(control) => (
                  <select
                    {...control}
                    value={b.sex}
                    onChange={(e) => set(i, { sex: e.target.value as BandDraft['sex'] })}
                  >
                    {SEXES.map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {box(i, 'from', 'From age (days)', 'age_from_days')}
              {box(i, 'to', 'To age (days)', 'age_to_days')}
              {box(i, 'low', 'Low', 'low')}
              {box(i, 'high', 'High', 'high')}
              <button
                type="button"
                className="button button-small"
                aria-label={`Remove ${one.toLowerCase()} ${i + 1}`}
                onClick={() => onChange(bands.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </fieldset>
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="button button-small"
        onClick={() => onChange([...bands, { sex: 'any', from: '0', to: '', low: '', high: '' }])}
      >
        Add {one.toLowerCase()}
      </button>
    </fieldset>
  );
}
