import { invalid, type FieldErrors } from '../shared/errors.ts';
import type { Units } from '../lab/units.ts';
import { type FormularyEntry, type Route, isRoute } from './formulary.ts';

/**
 * How often a medicine is taken: so many times a day (at the ward's standard times), every N elapsed hours, at
 * given wall-clock times, or as needed with a minimum interval and a maximum in any 24 hours.
 */
export type Frequency =
  | { kind: 'times_a_day'; times: number }
  | { kind: 'every_hours'; hours: number }
  | { kind: 'at_times'; times: string[] }
  | { kind: 'as_needed'; minIntervalHours: number; maxPerDay: number };

export const FREQUENCY_KINDS = ['times_a_day', 'every_hours', 'at_times', 'as_needed'] as const;
export type FrequencyKind = (typeof FREQUENCY_KINDS)[number];

/**
 * The ward's standard administration times for "n times a day" (once daily in the morning; twice 12 hours apart;
 * three and four times spread over the waking day; six every four hours), as drug rounds are commonly timed.
 */
export const STANDARD_TIMES: Record<number, readonly string[]> = {
  1: ['08:00'],
  2: ['08:00', '20:00'],
  3: ['08:00', '14:00', '20:00'],
  4: ['08:00', '12:00', '16:00', '20:00'],
  5: ['06:00', '10:00', '14:00', '18:00', '22:00'],
  6: ['02:00', '06:00', '10:00', '14:00', '18:00', '22:00'],
};

export const MAX_EVERY_HOURS = 72;
export const MAX_AT_TIMES = 12;
export const MAX_PER_DAY = 24;
export const MAX_DURATION_DAYS = 365;
export const MAX_QUANTITY = 10_000;
export const MAX_INSTRUCTIONS = 1000;

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A frequency as a request gives it, checked; each bad part is named under `frequency`'s own field. */
export function frequencyOf(input: {
  kind: FrequencyKind;
  times_a_day?: number;
  every_hours?: number;
  at_times?: string[];
  min_interval_hours?: number;
  max_per_day?: number;
}): Frequency {
  const errors: FieldErrors = {};
  const whole = (field: string, value: number | undefined, min: number, max: number) => {
    if (value === undefined) errors[field] = ['is required'];
    else if (!Number.isInteger(value) || value < min || value > max)
      errors[field] = [`must be a whole number from ${min} to ${max}`];
    return value ?? 0;
  };
  let frequency: Frequency;
  switch (input.kind) {
    case 'times_a_day':
      frequency = { kind: 'times_a_day', times: whole('times_a_day', input.times_a_day, 1, 6) };
      break;
    case 'every_hours':
      frequency = { kind: 'every_hours', hours: whole('every_hours', input.every_hours, 1, MAX_EVERY_HOURS) };
      break;
    case 'at_times': {
      const times = [...new Set(input.at_times ?? [])].sort();
      if (times.length === 0) errors.at_times = ['must name at least one time'];
      else if (times.length > MAX_AT_TIMES) errors.at_times = [`must name at most ${MAX_AT_TIMES} times`];
      else if (times.some((t) => !HHMM.test(t))) errors.at_times = ['must be times as HH:MM'];
      frequency = { kind: 'at_times', times };
      break;
    }
    case 'as_needed': {
      const minIntervalHours = input.min_interval_hours;
      if (minIntervalHours === undefined) errors.min_interval_hours = ['is required'];
      else if (!(minIntervalHours > 0 && minIntervalHours <= 48))
        errors.min_interval_hours = ['must be more than 0 and at most 48 hours'];
      frequency = {
        kind: 'as_needed',
        minIntervalHours: minIntervalHours ?? 0,
        maxPerDay: whole('max_per_day', input.max_per_day, 1, MAX_PER_DAY),
      };
      break;
    }
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return frequency;
}

/** The frequency as a prescription prints it. */
export function frequencyInWords(f: Frequency): string {
  switch (f.kind) {
    case 'times_a_day':
      return f.times === 1 ? 'once a day' : f.times === 2 ? 'twice a day' : `${f.times} times a day`;
    case 'every_hours':
      return f.hours === 1 ? 'every hour' : `every ${f.hours} hours`;
    case 'at_times':
      return `at ${f.times.join(', ')}`;
    case 'as_needed':
      return `as needed, at least ${f.minIntervalHours} h apart, at most ${f.maxPerDay} in 24 hours`;
  }
}

/** A dose: an amount in a UCUM unit. */
export interface Dose {
  amount: number;
  unit: string;
}

/**
 * A dose in the medicine's own dose unit: an unknown unit, or one that does not convert to the formulary's, is a
 * 422 naming `dose_unit`; an amount not above 0 a 422 naming `dose`.
 */
export function doseInMedicineUnit(
  units: Units,
  medicine: Pick<FormularyEntry, 'genericName' | 'doseUnit'>,
  dose: Dose,
  errors: FieldErrors = {},
): Dose {
  if (!(Number.isFinite(dose.amount) && dose.amount > 0)) errors.dose = ['must be a number more than 0'];
  let amount = dose.amount;
  if (!units.isValid(dose.unit)) errors.dose_unit = [`${dose.unit} is not a UCUM unit`];
  else if (dose.unit !== medicine.doseUnit) {
    const converted = units.convert(dose.amount, dose.unit, medicine.doseUnit);
    if (converted === undefined)
      errors.dose_unit = [
        `${dose.unit} cannot be converted to ${medicine.doseUnit}, the dose unit of ${medicine.genericName}`,
      ];
    else amount = Number(converted.toPrecision(6));
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return { amount, unit: medicine.doseUnit };
}

/** A dose and route as prescribed: the dose as `doseInMedicineUnit` reads it; a route the medicine is not given by is a 422 naming `route`. */
export function doseAndRoute(
  units: Units,
  medicine: Pick<FormularyEntry, 'genericName' | 'doseUnit' | 'routes'>,
  dose: Dose,
  route: string,
): { dose: Dose; route: Route } {
  const errors: FieldErrors = {};
  if (!isRoute(route)) errors.route = [`${route} is not a route`];
  else if (!medicine.routes.includes(route))
    errors.route = [`${medicine.genericName} is given ${medicine.routes.join(', ')}, not ${route}`];
  return { dose: doseInMedicineUnit(units, medicine, dose, errors), route: route as Route };
}

/** How long a prescription lasts: so many days, a quantity to dispense, or both; one of them is required. */
export function requireDurationOrQuantity(durationDays: number | undefined, quantity: number | undefined): void {
  if (durationDays === undefined && quantity === undefined)
    throw invalid({ duration_days: ['give a duration in days or a quantity'] });
}

export const PRESCRIPTION_STATUSES = ['active', 'completed', 'stopped'] as const;
export type PrescriptionStatus = (typeof PRESCRIPTION_STATUSES)[number];

/**
 * Whether a prescription is still being taken on `today` (the clinic's date): not stopped, and within its duration
 * from its start date; one given by quantity alone stays active until stopped.
 */
export function prescriptionStatusOn(
  p: { startDate: string; durationDays: number | null; stopped: boolean },
  today: string,
): PrescriptionStatus {
  if (p.stopped) return 'stopped';
  if (p.durationDays === null) return 'active';
  const end = Date.parse(`${p.startDate}T00:00:00Z`) + p.durationDays * 86_400_000;
  return Date.parse(`${today}T00:00:00Z`) < end ? 'active' : 'completed';
}
