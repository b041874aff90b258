import type { Gender } from '../shared/actor.ts';

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
