import type { Gender } from '../shared/actor.ts';
import { type CatalogueTest, ageInDays, bandFor } from './catalogue.ts';

// The codes of HL7 v3 ObservationInterpretation (terminology.hl7.org/CodeSystem/v3-ObservationInterpretation):
// N normal, L low, H high, LL critically low, HH critically high.
export const INTERPRETATIONS = ['N', 'L', 'H', 'LL', 'HH'] as const;
export type Interpretation = (typeof INTERPRETATIONS)[number];

export const isCritical = (interpretation: Interpretation | null): boolean =>
  interpretation === 'LL' || interpretation === 'HH';

export const isAbnormal = (interpretation: Interpretation | null): boolean =>
  interpretation !== null && interpretation !== 'N';

/**
 * A quantity read against the limits in force: at or beyond a critical limit LL/HH; else below the range L, above
 * it H, within it N. Null when neither a range nor a critical limit says anything about the value.
 */
export function interpret(
  value: number,
  range: { low: number | null; high: number | null } | undefined,
  critical: { low: number | null; high: number | null } | undefined,
): Interpretation | null {
  if (critical?.low != null && value <= critical.low) return 'LL';
  if (critical?.high != null && value >= critical.high) return 'HH';
  if (!range || (range.low === null && range.high === null)) return null;
  if (range.low !== null && value < range.low) return 'L';
  if (range.high !== null && value > range.high) return 'H';
  return 'N';
}

/** The patient a value is read for: sex and birth date (null when the clinic does not know it). */
export interface Subject {
  gender: Gender | null;
  birthDate: string | null;
}

/**
 * The interpretation of a quantity of `test` for `subject` on `effectiveDate`, by the range and critical limits of
 * their sex and age band, with the range used (shown beside the value). An unknown birth date uses the adult band.
 */
export function interpretFor(
  test: Pick<CatalogueTest, 'ranges' | 'criticalLimits'>,
  subject: Subject,
  value: number,
  effectiveDate: string,
): { interpretation: Interpretation | null; range: { low: number | null; high: number | null } | null } {
  const age = subject.birthDate === null ? ADULT_AGE_DAYS : ageInDays(subject.birthDate, effectiveDate);
  const range = bandFor(test.ranges, subject.gender, age);
  const critical = bandFor(test.criticalLimits, subject.gender, age);
  return {
    interpretation: interpret(value, range, critical),
    range: range ? { low: range.low, high: range.high } : null,
  };
}

/** 18 years: the age whose band reads a patient whose birth date is unknown. */
export const ADULT_AGE_DAYS = 6575;

/** A range in plain words for the patient's My results. */
export function rangeInWords(range: { low: number | null; high: number | null } | null, unit: string | null): string {
  const u = unit && unit !== '1' ? ` ${unit}` : '';
  if (!range || (range.low === null && range.high === null)) return 'No reference range';
  if (range.low !== null && range.high !== null) return `Usual range ${range.low} to ${range.high}${u}`;
  if (range.low !== null) return `Usual range ${range.low}${u} or more`;
  return `Usual range up to ${range.high}${u}`;
}

const WORDS: Record<Interpretation, string> = {
  N: 'Within the usual range',
  L: 'Below the usual range',
  H: 'Above the usual range',
  LL: 'Far below the usual range',
  HH: 'Far above the usual range',
};

export const interpretationInWords = (interpretation: Interpretation | null): string | null =>
  interpretation === null ? null : WORDS[interpretation];

/** Results to review: a report with a critical value first, then one with an abnormal value, then the rest. */
export function reviewRank(interpretations: readonly (Interpretation | null)[]): 0 | 1 | 2 {
  if (interpretations.some(isCritical)) return 0;
  return interpretations.some(isAbnormal) ? 1 : 2;
}
