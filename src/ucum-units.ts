import ucum from '@lhncbc/ucum-lhc';
import type { Units } from './domain/lab/units.ts';

interface UcumUtils {
  validateUnitString(unit: string): { status: string };
  convertUnitTo(from: string, value: number, to: string): { status: string; toVal: number | null };
}

// The definitions are read on the first unit checked: a server that never sees a lab unit does not hold them.
let instance: UcumUtils | undefined;
const utils = () => (instance ??= (ucum as { UcumLhcUtils: { getInstance(): UcumUtils } }).UcumLhcUtils.getInstance());

/**
 * UCUM by `@lhncbc/ucum-lhc` (the NLM's validator and converter of the Unified Code for Units of Measure): units
 * are case-sensitive codes, as FHIR's valueQuantity carries them. Conversions needing a molar mass are refused.
 */
export const ucumUnits: Units = {
  isValid: (unit) => unit.length <= 64 && utils().validateUnitString(unit).status === 'valid',
  convert: (value, from, to) => {
    const answer = utils().convertUnitTo(from, value, to);
    return answer.status === 'succeeded' && answer.toVal !== null && Number.isFinite(answer.toVal)
      ? answer.toVal
      : undefined;
  },
};
