import { addDays, clinicInstant } from '../shared/clock.ts';
import { invalid } from '../shared/errors.ts';
import { isCalendarDate } from '../shared/validate.ts';

export const DATE_PREFIXES = ['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap'] as const;
export type DatePrefix = (typeof DATE_PREFIXES)[number];

/** The instants a stored point in time must lie in (`gte` ≤ t < `lt`), or outside of when `negate`. */
export interface InstantRange {
  gte?: Date;
  lt?: Date;
  negate: boolean;
}

const DATE_VALUE =
  /^(eq|ne|gt|lt|ge|le|sa|eb|ap)?(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/**
 * A FHIR date search value (`ge2026-06-10`, `2026-06`, `lt2026-06-10T09:00:00+02:00`) as the range of instants it
 * selects; a value without a zone is read on the clinic's wall clock, as FHIR says for the server's local time.
 * Stored values are points, so `sa` is `gt`, `eb` is `lt` and `ap` is `eq`.
 */
export function dateRange(param: string, raw: string, timeZone: string): InstantRange {
  const m = DATE_VALUE.exec(raw);
  const fail = () => invalid({ [param]: [`"${raw}" is not a FHIR date search value`] });
  if (!m) throw fail();
  const [, prefix = 'eq', year = '', month, day, hour, minute, second, fraction, zone] = m;
  const date = `${year}-${month ?? '01'}-${day ?? '01'}`;
  if (!isCalendarDate(date) || Number(hour ?? 0) > 23 || Number(minute ?? 0) > 59 || Number(second ?? 0) > 59)
    throw fail();
  let from: Date;
  let to: Date;
  if (hour === undefined || minute === undefined) {
    const next = day ? addDays(date, 1) : month ? nextMonth(date) : `${Number(year) + 1}-01-01`;
    from = clinicInstant(date, '00:00', timeZone);
    to = clinicInstant(next, '00:00', timeZone);
  } else {
    const seconds = Number(second ?? 0) + Number(fraction ?? 0);
    from = zone
      ? new Date(Date.parse(`${date}T${hour}:${minute}:00${zone === 'Z' ? 'Z' : zone}`) + seconds * 1000)
      : new Date(clinicInstant(date, `${hour}:${minute}`, timeZone).getTime() + seconds * 1000);
    to = new Date(from.getTime() + (second === undefined ? 60_000 : fraction === undefined ? 1000 : 1));
  }
  return rangeFor(prefix as DatePrefix, from, to);
}

function nextMonth(date: string): string {
  const [y, m] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

function rangeFor(prefix: DatePrefix, from: Date, to: Date): InstantRange {
  switch (prefix) {
    case 'eq':
    case 'ap':
      return { gte: from, lt: to, negate: false };
    case 'ne':
      return { gte: from, lt: to, negate: true };
    case 'lt':
    case 'eb':
      return { lt: from, negate: false };
    case 'le':
      return { lt: to, negate: false };
    case 'gt':
    case 'sa':
      return { gte: to, negate: false };
    case 'ge':
      return { gte: from, negate: false };
  }
}
