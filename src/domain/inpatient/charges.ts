import { addDays } from '../shared/clock.ts';
import { censusMidnight, censusNights } from './census.ts';
import type { ChargeLine } from './inpatient.ts';

/** One bed of a stay with the nightly rate it had when the stay moved in. */
export interface RatedSegment {
  bedId: number;
  bed: string;
  room: string;
  rateCents: number;
  startedAt: Date;
  endedAt: Date | null;
}

/** The nights of `segments` after `after` (nothing billed yet: null) up to `through`, one line per bed. */
export function chargeLines(
  segments: RatedSegment[],
  timeZone: string,
  now: Date,
  after: string | null,
  through: string,
): ChargeLine[] {
  return segments.flatMap((segment) => {
    const nights = censusNights(segment, timeZone, now).filter(
      (night) => (after === null || night > after) && night <= through,
    );
    const [firstNight, lastNight] = [nights[0], nights.at(-1)];
    if (firstNight === undefined || lastNight === undefined) return [];
    const { bedId, bed, room, rateCents } = segment;
    return [
      {
        bedId,
        bed,
        room,
        firstNight,
        lastNight,
        nights: nights.length,
        rateCents,
        amountCents: nights.length * rateCents,
      },
    ];
  });
}

/** The first census night of a stay, if it has had one by `now`. */
export function firstNight(segments: RatedSegment[], timeZone: string, now: Date): string | undefined {
  return segments.flatMap((segment) => censusNights(segment, timeZone, now)).sort()[0];
}

export const INTERIM_NIGHTS = 7;

/**
 * The weeks of a long stay still to bill on an interim bill: whole weeks of nights counted from its first night,
 * after the last night billed, whose last midnight has passed by `now`. Billing whole weeks from a fixed start is
 * what lets a repeated run find nothing new.
 */
export function interimWeeks(
  first: string,
  billedThrough: string | null,
  timeZone: string,
  now: Date,
): { from: string; to: string }[] {
  const weeks: { from: string; to: string }[] = [];
  for (let from = first; ; from = addDays(from, INTERIM_NIGHTS)) {
    const to = addDays(from, INTERIM_NIGHTS - 1);
    if (censusMidnight(to, timeZone) > now) return weeks;
    if (billedThrough === null || from > billedThrough) weeks.push({ from, to });
  }
}
