import type { Units } from '../lab/units.ts';
import { invalid } from '../shared/errors.ts';
import type { FieldErrors } from '../shared/errors.ts';
import { ACVPU, type Acvpu, type News2Set } from './news2.ts';

/**
 * The vital signs a set may hold: the LOINC code of FHIR R4's vital signs profiles, the canonical UCUM unit they are
 * stored in, and what a body can physically show (outside it is a 422 naming the field, never clamped).
 */
export const QUANTITY_VITALS = {
  systolic: { code: '8480-6', display: 'Systolic blood pressure', unit: 'mm[Hg]', low: 40, high: 300 },
  diastolic: { code: '8462-4', display: 'Diastolic blood pressure', unit: 'mm[Hg]', low: 10, high: 200 },
  heart_rate: { code: '8867-4', display: 'Heart rate', unit: '/min', low: 20, high: 300 },
  respiratory_rate: { code: '9279-1', display: 'Respiratory rate', unit: '/min', low: 2, high: 80 },
  temperature: { code: '8310-5', display: 'Body temperature', unit: 'Cel', low: 25, high: 45 },
  spo2: { code: '2708-6', display: 'Oxygen saturation in Arterial blood', unit: '%', low: 20, high: 100 },
  weight: { code: '29463-7', display: 'Body weight', unit: 'kg', low: 0.2, high: 500 },
  height: { code: '8302-2', display: 'Body height', unit: 'cm', low: 20, high: 280 },
  bmi: { code: '39156-5', display: 'Body mass index (BMI) [Ratio]', unit: 'kg/m2', low: 1, high: 250 },
  pain_score: {
    code: '72514-3',
    display: 'Pain severity - 0-10 verbal numeric rating [Score] - Reported',
    unit: '{score}',
    low: 0,
    high: 10,
  },
} as const;
export type QuantityVital = keyof typeof QUANTITY_VITALS;
export const QUANTITY_VITAL_KEYS = Object.keys(QUANTITY_VITALS) as QuantityVital[];

/** The coded parts of a set: consciousness on the ACVPU scale, and whether the patient breathes supplemental oxygen. */
export const CODED_VITALS = {
  consciousness: { system: 'loinc', code: '67775-7', display: 'Level of responsiveness' },
  on_oxygen: { system: 'local', code: 'inspired-oxygen', display: 'Breathing supplemental oxygen' },
} as const;
export type CodedVital = keyof typeof CODED_VITALS;

export type VitalKey = QuantityVital | CodedVital;

/** Which vital a stored observation is, by its code. */
export function vitalOfCode(code: string): VitalKey | undefined {
  for (const key of QUANTITY_VITAL_KEYS) if (QUANTITY_VITALS[key].code === code) return key;
  if (code === CODED_VITALS.consciousness.code) return 'consciousness';
  if (code === CODED_VITALS.on_oxygen.code) return 'on_oxygen';
  return undefined;
}

/** One measured value of a set, in its canonical unit. */
export type Measurement =
  | { vital: QuantityVital; value: number; unit: string }
  | { vital: 'consciousness'; code: Acvpu }
  | { vital: 'on_oxygen'; code: 'oxygen' | 'air' };

/** What a request gives for a set: numbers in the units named beside them (their canonical unit when none). */
export interface VitalsInput {
  systolic?: number;
  diastolic?: number;
  heart_rate?: number;
  respiratory_rate?: number;
  temperature?: number;
  temperature_unit?: string;
  spo2?: number;
  on_oxygen?: boolean;
  consciousness?: Acvpu;
  weight?: number;
  weight_unit?: string;
  height?: number;
  height_unit?: string;
  pain_score?: number;
}

/** Values converted to the canonical unit keep this many decimals: a conversion adds no precision. */
const DECIMALS: Partial<Record<QuantityVital, number>> = { temperature: 1, weight: 2, height: 1, bmi: 1 };
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

const ENTERED_IN_UNITS = { temperature: 'temperature_unit', weight: 'weight_unit', height: 'height_unit' } as const;

/**
 * A set's measurements in canonical units: a unit that is not UCUM, or does not convert (°F → °C, lb → kg, in →
 * cm), and a value a body cannot show are 422s naming the field; a diastolic at or above its systolic too; BMI is
 * computed from weight and height. A set with nothing in it is refused.
 */
export function readVitals(units: Units, input: VitalsInput): Measurement[] {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const measured: Partial<Record<QuantityVital, number>> = {};
  for (const vital of QUANTITY_VITAL_KEYS) {
    if (vital === 'bmi') continue;
    const raw = input[vital];
    if (raw === undefined) continue;
    const def = QUANTITY_VITALS[vital];
    const unitField = vital in ENTERED_IN_UNITS ? ENTERED_IN_UNITS[vital as keyof typeof ENTERED_IN_UNITS] : undefined;
    const unit = (unitField && input[unitField]) || def.unit;
    if (unitField && unit !== def.unit && !units.isValid(unit)) {
      fail(unitField, `${unit} is not a UCUM unit`);
      continue;
    }
    const converted = unit === def.unit ? raw : units.convert(raw, unit, def.unit);
    if (converted === undefined) {
      fail(unitField ?? vital, `${unit} cannot be converted to ${def.unit}`);
      continue;
    }
    const value = round(converted, DECIMALS[vital] ?? 0);
    if (value < def.low || value > def.high)
      fail(vital, `${value} ${def.unit} is outside what a body can show (${def.low} to ${def.high} ${def.unit})`);
    else measured[vital] = value;
  }
  if ((input.systolic === undefined) !== (input.diastolic === undefined))
    fail(input.systolic === undefined ? 'systolic' : 'diastolic', 'is required with the other blood pressure');
  if (measured.systolic !== undefined && measured.diastolic !== undefined && measured.diastolic >= measured.systolic)
    fail('diastolic', 'must be below the systolic pressure');
  if (measured.weight !== undefined && measured.height !== undefined)
    measured.bmi = round(measured.weight / (measured.height / 100) ** 2, 1);

  const measurements: Measurement[] = QUANTITY_VITAL_KEYS.flatMap((vital) => {
    const value = measured[vital];
    return value === undefined ? [] : [{ vital, value, unit: QUANTITY_VITALS[vital].unit }];
  });
  if (input.consciousness !== undefined) measurements.push({ vital: 'consciousness', code: input.consciousness });
  if (input.on_oxygen !== undefined)
    measurements.push({ vital: 'on_oxygen', code: input.on_oxygen ? 'oxygen' : 'air' });
  if (Object.keys(errors).length > 0) throw invalid(errors);
  if (measurements.length === 0) throw invalid({ vitals: ['a set records at least one vital sign'] });
  return measurements;
}

/** The set NEWS2 scores, when every one of its parameters was measured (air assumed when oxygen is not said). */
export function news2SetOf(measurements: readonly Measurement[]): News2Set | undefined {
  const quantity = (vital: QuantityVital) => {
    const found = measurements.find((m) => m.vital === vital);
    return found && 'value' in found ? found.value : undefined;
  };
  const consciousness = measurements.find((m) => m.vital === 'consciousness');
  const oxygen = measurements.find((m) => m.vital === 'on_oxygen');
  const [respiratoryRate, spo2, systolic, pulse, temperature] = [
    quantity('respiratory_rate'),
    quantity('spo2'),
    quantity('systolic'),
    quantity('heart_rate'),
    quantity('temperature'),
  ];
  if (
    respiratoryRate === undefined ||
    spo2 === undefined ||
    systolic === undefined ||
    pulse === undefined ||
    temperature === undefined ||
    consciousness?.vital !== 'consciousness'
  )
    return undefined;
  return {
    respiratoryRate,
    spo2,
    onOxygen: oxygen?.vital === 'on_oxygen' && oxygen.code === 'oxygen',
    systolic,
    pulse,
    consciousness: consciousness.code,
    temperature,
  };
}

export const isAcvpu = (code: string): code is Acvpu => (ACVPU as readonly string[]).includes(code);

/** A temperature in °C as the clinic shows it (`CLINIC_TEMPERATURE_UNIT`: Cel or [degF]), to one decimal. */
export function temperatureIn(units: Units, celsius: number, unit: string): number {
  if (unit === 'Cel') return celsius;
  return round(units.convert(celsius, 'Cel', unit) ?? celsius, 1);
}
