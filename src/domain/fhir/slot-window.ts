import { addDays, clinicDateTime } from '../shared/clock.ts';
import { invalid } from '../shared/errors.ts';
import type { SearchRequest } from './search-request.ts';

/** Slots are made for the dates asked: four weeks from today by default, never more than this at once. */
export const DEFAULT_SLOT_DAYS = 28;
export const MAX_SLOT_DAYS = 92;

const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/**
 * The clinic dates a Slot search makes slots for (both included): those its ids name, else those its `start`
 * bounds allow, from today when it has no lower bound.
 */
export function slotDates(request: SearchRequest, today: string, timeZone: string): { from: string; to: string } {
  const dateOf = (instant: Date) => clinicDateTime(instant, timeZone).date;
  const ids = request.criteria.find((c) => c.param === '_id' && c.kind === 'in');
  let from: string;
  let to: string;
  if (ids && ids.kind === 'in') {
    const dates = ids.values.map((id) => id.slice(id.indexOf('-') + 1)).sort();
    from = dates[0] ?? today;
    to = dates.at(-1) ?? today;
  } else {
    const bounds = request.criteria.flatMap((c) => (c.param === 'start' && c.kind === 'range' && !c.negate ? [c] : []));
    const lows = bounds.flatMap((b) => (b.gte ? [dateOf(b.gte)] : [])).sort();
    const highs = bounds.flatMap((b) => (b.lt ? [dateOf(new Date(b.lt.getTime() - 1))] : [])).sort();
    from = lows.at(-1) ?? today;
    to = highs[0] ?? addDays(from, DEFAULT_SLOT_DAYS - 1);
  }
  if (daysBetween(from, to) >= MAX_SLOT_DAYS)
    throw invalid({ start: [`slots are searched at most ${MAX_SLOT_DAYS} days at once`] });
  return { from, to };
}
