import type { Gender } from '../shared/actor.ts';
import type { FieldErrors } from '../shared/errors.ts';

/**
 * The test catalogue (issue 48): what a doctor can order. A test is answered by one observation; a panel (a full
 * blood count) orders its member tests; imaging procedures are tests answered by a text report.
 */
export const CATALOGUE_KINDS = ['test', 'panel'] as const;
export type CatalogueKind = (typeof CATALOGUE_KINDS)[number];

export const CATEGORIES = ['laboratory', 'imaging'] as const;
export type Category = (typeof CATEGORIES)[number];

/** LOINC where one exists, the clinic's own code otherwise. */
export const CODE_SYSTEMS = ['loinc', 'local'] as const;
export type CodeSystem = (typeof CODE_SYSTEMS)[number];

export const SPECIMEN_TYPES = ['blood', 'serum', 'plasma', 'urine', 'stool', 'csf', 'swab', 'sputum', 'none'] as const;
export type SpecimenType = (typeof SPECIMEN_TYPES)[number];

/** FHIR Observation.value[x]: valueQuantity, valueCodeableConcept, valueString. */
export const RESULT_TYPES = ['quantity', 'coded', 'text'] as const;
export type ResultType = (typeof RESULT_TYPES)[number];

/** Whom a band applies to: one sex, or anyone (a patient whose gender is "other" is read against `any` bands only). */
export const BAND_SEXES = ['any', 'male', 'female'] as const;
export type BandSex = (typeof BAND_SEXES)[number];

/** An age band in whole days of life: from inclusive, to exclusive, null for no upper end. */
export interface AgeBand {
  sex: BandSex;
  ageFromDays: number;
  ageToDays: number | null;
}

/** Normal is low ≤ value ≤ high, in the test's unit; either end may be open. */
export interface ReferenceRange extends AgeBand {
  low: number | null;
  high: number | null;
}

/** At or beyond either limit a value is critical (LL, HH) and must be acknowledged. */
export interface CriticalLimits extends AgeBand {
  low: number | null;
  high: number | null;
}

export interface CatalogueTest {
  id: number;
  kind: CatalogueKind;
  category: Category;
  codeSystem: CodeSystem;
  code: string;
  name: string;
  specimenType: SpecimenType;
  resultType: ResultType;
  /** The UCUM unit values are stored in; null but for quantities. */
  unit: string | null;
  /** What can physically be measured, in `unit`: a value outside is a typing error (422), never clamped. */
  physicalLow: number | null;
  physicalHigh: number | null;
  /** For coded results: the answers a result may take. */
  answers: string[];
  ranges: ReferenceRange[];
  criticalLimits: CriticalLimits[];
  priceCents: number;
  /** Expected time from collection to result, in minutes. */
  turnaroundMinutes: number;
  /** For a panel: its member tests' ids, in the order they are reported. */
  memberIds: number[];
  active: boolean;
  /** Each change of the test is a new version; results keep the reading they were given under an earlier one. */
  rowVersion: number;
}

export const DAYS_PER_YEAR = 365.25;

/** Whole days between a birth date and the day a value was true (both yyyy-MM-dd); never negative. */
export function ageInDays(birthDate: string, on: string): number {
  const days = Math.floor((Date.parse(`${on}T00:00:00Z`) - Date.parse(`${birthDate}T00:00:00Z`)) / 86_400_000);
  return Math.max(days, 0);
}

const inBand = (band: AgeBand, ageDays: number) =>
  ageDays >= band.ageFromDays && (band.ageToDays === null || ageDays < band.ageToDays);

/**
 * The band in force for a patient: of those whose ages hold them, one for their sex before one for anyone; a
 * patient of another or unknown gender is read against `any` bands alone. Undefined when none applies.
 */
export function bandFor<B extends AgeBand>(bands: readonly B[], gender: Gender | null, ageDays: number): B | undefined {
  const holding = bands.filter((band) => inBand(band, ageDays));
  const ownSex = gender === 'male' || gender === 'female' ? holding.find((band) => band.sex === gender) : undefined;
  return ownSex ?? holding.find((band) => band.sex === 'any');
}

/** Where two bands of one sex overlap in age, which one is in force would be a guess: the catalogue refuses them. */
export function overlappingBands(bands: readonly AgeBand[]): [number, number] | undefined {
  for (let i = 0; i < bands.length; i++) {
    for (let j = i + 1; j < bands.length; j++) {
      const [a, b] = [bands[i], bands[j]];
      if (!a || !b || a.sex !== b.sex) continue;
      const aEnd = a.ageToDays ?? Number.POSITIVE_INFINITY;
      const bEnd = b.ageToDays ?? Number.POSITIVE_INFINITY;
      if (a.ageFromDays < bEnd && b.ageFromDays < aEnd) return [i, j];
    }
  }
  return undefined;
}

/** 150 years: no band reaches further. */
export const MAX_AGE_DAYS = 54790;

/**
 * What is wrong with a list of ranges (`critical` false) or critical limits (true) as an admin gives them, by the
 * field of each band (`ranges[1].high`): each band needs an end, its ends in order (a critical band's strictly),
 * whole days with its upper age after its lower; and no two bands of one sex may overlap in age.
 */
export function bandErrors(
  field: string,
  bands: readonly (AgeBand & { low: number | null; high: number | null })[],
  critical: boolean,
): FieldErrors {
  const errors: FieldErrors = {};
  const add = (name: string, message: string) => {
    errors[name] = [...(errors[name] ?? []), message];
  };
  bands.forEach((b, i) => {
    const at = `${field}[${i}]`;
    if (b.low === null && b.high === null) add(`${at}.low`, 'give a low end, a high end or both');
    if (b.low !== null && b.high !== null && (critical ? b.low >= b.high : b.low > b.high))
      add(`${at}.high`, critical ? 'must be above its low end' : 'must not be below its low end');
    if (!Number.isInteger(b.ageFromDays)) add(`${at}.age_from_days`, 'must be a whole number of days');
    if (b.ageToDays !== null && !Number.isInteger(b.ageToDays))
      add(`${at}.age_to_days`, 'must be a whole number of days');
    else if (b.ageToDays !== null && b.ageToDays <= b.ageFromDays)
      add(`${at}.age_to_days`, 'must be after age_from_days');
  });
  const overlap = Object.keys(errors).length === 0 ? overlappingBands(bands) : undefined;
  if (overlap) {
    const [a, b] = overlap;
    add(field, `${field}[${a}] and ${field}[${b}] overlap in age for ${bands[a]?.sex ?? 'any'}`);
  }
  return errors;
}
