import { invalid } from '../shared/errors.ts';
import type { CatalogueTest } from './catalogue.ts';

/** UCUM, behind a port so the domain stays pure (src/ucum-units.ts: `@lhncbc/ucum-lhc`). */
export interface Units {
  /** Whether `unit` is a valid case-sensitive UCUM code. */
  isValid(unit: string): boolean;
  /** `value` in `from` as `to`; undefined when the two are not commensurable. */
  convert(value: number, from: string, to: string): number | undefined;
}

/** Converted values keep this many significant digits: a conversion adds no precision the measurement had not. */
const SIGNIFICANT_DIGITS = 6;

/**
 * A quantity entered for `test`, in the test's own unit: an unknown unit or one that does not convert to the test's
 * is a 422 naming the unit; a value outside what can physically be measured is a 422 too, never clamped.
 */
export function quantityInTestUnit(
  units: Units,
  test: Pick<CatalogueTest, 'name' | 'unit' | 'physicalLow' | 'physicalHigh'>,
  value: number,
  unit: string,
  field = 'value',
): { value: number; unit: string } {
  const testUnit = test.unit ?? '1';
  if (!Number.isFinite(value)) throw invalid({ [field]: ['must be a number'] });
  if (!units.isValid(unit)) throw invalid({ unit: [`${unit} is not a UCUM unit`] });
  const converted = unit === testUnit ? value : units.convert(value, unit, testUnit);
  if (converted === undefined)
    throw invalid({ unit: [`${unit} cannot be converted to ${testUnit}, the unit of ${test.name}`] });
  const stored = unit === testUnit ? value : Number(converted.toPrecision(SIGNIFICANT_DIGITS));
  if (
    (test.physicalLow !== null && stored < test.physicalLow) ||
    (test.physicalHigh !== null && stored > test.physicalHigh)
  ) {
    throw invalid({
      [field]: [
        `${stored} ${testUnit} is outside what ${test.name} can measure (${test.physicalLow ?? '…'} to ${test.physicalHigh ?? '…'} ${testUnit})`,
      ],
    });
  }
  return { value: stored, unit: testUnit };
}
