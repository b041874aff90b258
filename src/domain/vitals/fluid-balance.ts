import { addDays, clinicDateTime, clinicInstant } from '../shared/clock.ts';

/** Fluid in and out of a stay, in mL, by route. */
export const INTAKE_ROUTES = ['oral', 'intravenous', 'enteral-tube', 'other'] as const;
export const OUTPUT_ROUTES = ['urine', 'vomit', 'drain', 'stool', 'nasogastric', 'other'] as const;
export const FLUID_KINDS = ['intake', 'output'] as const;
export type FluidKind = (typeof FLUID_KINDS)[number];
export const MAX_FLUID_ML = 10_000;

/** The shift lengths a clinic may set (`CLINIC_SHIFT_HOURS`); shifts start at 07:00 on the clinic's clock. */
export const SHIFT_HOURS = [8, 12] as const;
export type ShiftHours = (typeof SHIFT_HOURS)[number];
const DAY_STARTS = '07:00';

export interface FluidEvent {
  at: Date;
  kind: FluidKind;
  volumeMl: number;
}

export interface FluidTotals {
  start: Date;
  end: Date;
  intakeMl: number;
  outputMl: number;
  balanceMl: number;
  /** Intake less output from the first event of the stay to the end of this period. */
  runningBalanceMl: number;
}

/** The wall-clock start times of a clinic day's shifts: 07:00, 15:00, 23:00 or 07:00, 19:00. */
function shiftStarts(hours: ShiftHours): string[] {
  return Array.from({ length: 24 / hours }, (_, i) => `${String((7 + i * hours) % 24).padStart(2, '0')}:00`);
}

/** The clinic day (07:00 to 07:00) an instant falls in, by the date it starts on. */
function fluidDayOf(at: Date, timeZone: string): string {
  const local = clinicDateTime(at, timeZone);
  return local.time < DAY_STARTS ? addDays(local.date, -1) : local.date;
}

/** The periods of each clinic day from `first` to `last`: its shifts (wall-clock, so a DST night's is 7 or 9 h) or the day. */
function periods(first: Date, last: Date, timeZone: string, hours: ShiftHours | 24): { start: Date; end: Date }[] {
  const starts = hours === 24 ? [DAY_STARTS] : shiftStarts(hours);
  const out: { start: Date; end: Date }[] = [];
  for (let day = fluidDayOf(first, timeZone); day <= fluidDayOf(last, timeZone); day = addDays(day, 1)) {
    const bounds = starts.map((time) => clinicInstant(time < DAY_STARTS ? addDays(day, 1) : day, time, timeZone));
    bounds.push(clinicInstant(addDays(day, 1), DAY_STARTS, timeZone));
    for (let i = 0; i + 1 < bounds.length; i++) out.push({ start: bounds[i] as Date, end: bounds[i + 1] as Date });
  }
  return out;
}

/**
 * Totals per shift (`hours` 8 or 12) or per 24 h (`hours` 24) of a stay's events, with the running balance; only
 * periods from the first event's to the last's, every one of them, empty ones at 0.
 */
export function fluidTotals(events: readonly FluidEvent[], timeZone: string, hours: ShiftHours | 24): FluidTotals[] {
  if (events.length === 0) return [];
  const sorted = [...events].sort((a, b) => a.at.getTime() - b.at.getTime());
  const [first, last] = [sorted[0] as FluidEvent, sorted[sorted.length - 1] as FluidEvent];
  let running = 0;
  return periods(first.at, last.at, timeZone, hours).map(({ start, end }) => {
    const inside = sorted.filter((e) => e.at >= start && e.at < end);
    const sum = (kind: FluidKind) => inside.filter((e) => e.kind === kind).reduce((ml, e) => ml + e.volumeMl, 0);
    const [intakeMl, outputMl] = [sum('intake'), sum('output')];
    running += intakeMl - outputMl;
    return { start, end, intakeMl, outputMl, balanceMl: intakeMl - outputMl, runningBalanceMl: running };
  });
}
