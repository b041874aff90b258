/**
 * iCalendar (RFC 5545) for a visit: one VEVENT in the clinic's zone with its VTIMEZONE, as an invitation
 * (METHOD:REQUEST) or its withdrawal (METHOD:CANCEL, RFC 5546), and calendar feeds of many events.
 */
import type { Clinic } from './message.ts';
import { memoized } from '../shared/memo.ts';

export interface CalendarVisit {
  appointmentId: number;
  date: string;
  startTime: string;
  endTime: string;
  summary: string;
  description: string;
  location: string | null;
  status: 'CONFIRMED' | 'CANCELLED';
  attendee?: { name: string; email: string };
  /** Bumped by every change of the event, so calendars take the newest. */
  sequence: number;
  /**
   * When the event was last revised: a feed's DTSTAMP (a calendar without METHOD, RFC 5545 §3.8.7.2), so an
   * unchanged feed reads the same byte for byte. A message's DTSTAMP is when it is made.
   */
  revisedAt?: Date;
}

/** The same event across messages and feeds, wherever it is imported. */
export const eventUid = (appointmentId: number, clinic: Clinic) =>
  `appointment-${appointmentId}@${domainOf(clinic.mailFrom)}`;

export function calendar(
  clinic: Clinic,
  visits: CalendarVisit[],
  opts: { method?: 'REQUEST' | 'CANCEL'; now: Date; name?: string },
): string {
  const years = visits.map((v) => Number(v.date.slice(0, 4)));
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//Medora//${escapeText(clinic.name)}//EN`,
    'CALSCALE:GREGORIAN',
    ...(opts.method ? [`METHOD:${opts.method}`] : []),
    ...(opts.name ? [`X-WR-CALNAME:${escapeText(opts.name)}`, `X-WR-TIMEZONE:${clinic.timeZone}`] : []),
    ...timeZoneLines(
      clinic.timeZone,
      years.length ? Math.min(...years) - 1 : new Date(opts.now).getUTCFullYear(),
      years.length ? Math.max(...years) + 1 : new Date(opts.now).getUTCFullYear() + 1,
    ),
    ...visits.flatMap((visit) => eventLines(clinic, visit, opts.now)),
    'END:VCALENDAR',
  ];
  return `${lines.flatMap(fold).join('\r\n')}\r\n`;
}

function eventLines(clinic: Clinic, v: CalendarVisit, now: Date): string[] {
  const local = (date: string, time: string) => `${date.replaceAll('-', '')}T${time.replace(':', '').slice(0, 4)}00`;
  return [
    'BEGIN:VEVENT',
    `UID:${eventUid(v.appointmentId, clinic)}`,
    `DTSTAMP:${utcStamp(v.revisedAt ?? now)}`,
    `SEQUENCE:${v.sequence}`,
    `DTSTART;TZID=${clinic.timeZone}:${local(v.date, v.startTime)}`,
    `DTEND;TZID=${clinic.timeZone}:${local(v.date, v.endTime)}`,
    `SUMMARY:${escapeText(v.summary)}`,
    `DESCRIPTION:${escapeText(v.description)}`,
    ...(v.location ? [`LOCATION:${escapeText(v.location)}`] : []),
    `STATUS:${v.status}`,
    `ORGANIZER;CN=${quoteParam(clinic.name)}:mailto:${clinic.mailFrom}`,
    ...(v.attendee
      ? [`ATTENDEE;CN=${quoteParam(v.attendee.name)};ROLE=REQ-PARTICIPANT:mailto:${v.attendee.email}`]
      : []),
    'END:VEVENT',
  ];
}

/**
 * The zone's VTIMEZONE for the years `from` to `to`: each change of its UTC offset as an observance of its own
 * (no RRULE), found from the platform's time-zone data, so every calendar computes the same instants.
 */
export function timeZoneLines(timeZone: string, from: number, to: number): string[] {
  const changes = offsetChanges(timeZone, Date.UTC(from, 0, 1), Date.UTC(to + 1, 0, 1));
  const observances = changes.length
    ? changes.map(({ at, before, after }) =>
        observance(after < before || isStandard(timeZone, at) ? 'STANDARD' : 'DAYLIGHT', at, before, after),
      )
    : [
        observance(
          'STANDARD',
          Date.UTC(1970, 0, 1),
          offsetAt(timeZone, Date.UTC(from, 0, 1)),
          offsetAt(timeZone, Date.UTC(from, 0, 1)),
        ),
      ];
  return ['BEGIN:VTIMEZONE', `TZID:${timeZone}`, ...observances.flat(), 'END:VTIMEZONE'];
}

function observance(kind: 'STANDARD' | 'DAYLIGHT', at: number, before: number, after: number): string[] {
  // DTSTART is the wall-clock time of the change in the offset in force before it.
  const wall = new Date(at + before * 60_000).toISOString();
  return [
    `BEGIN:${kind}`,
    `DTSTART:${wall.slice(0, 19).replace(/[-:]/g, '')}`,
    `TZOFFSETFROM:${offsetText(before)}`,
    `TZOFFSETTO:${offsetText(after)}`,
    `END:${kind}`,
  ];
}

/** A zone's standard time has the smaller offset of the year; an offset change to the larger one starts daylight time. */
function isStandard(timeZone: string, at: number): boolean {
  const year = new Date(at).getUTCFullYear();
  const january = offsetAt(timeZone, Date.UTC(year, 0, 1));
  const july = offsetAt(timeZone, Date.UTC(year, 6, 1));
  return offsetAt(timeZone, at) <= Math.min(january, july);
}

/** Every instant in [from, to) at which the zone's offset changes, to the minute. */
function offsetChanges(timeZone: string, from: number, to: number): { at: number; before: number; after: number }[] {
  const changes: { at: number; before: number; after: number }[] = [];
  const DAY = 86_400_000;
  let previous = offsetAt(timeZone, from);
  for (let t = from + DAY; t <= to; t += DAY) {
    const current = offsetAt(timeZone, t);
    if (current === previous) continue;
    let [low, high] = [t - DAY, t];
    while (high - low > 60_000) {
      const mid = low + Math.floor((high - low) / 120_000) * 60_000;
      if (offsetAt(timeZone, mid) === previous) low = mid;
      else high = mid;
    }
    changes.push({ at: high, before: previous, after: current });
    previous = current;
  }
  return changes;
}

const offsetFormatOf = memoized(
  (timeZone) => new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }),
);
/** Minutes east of UTC in `timeZone` at `instant`. */
export function offsetAt(timeZone: string, instant: number): number {
  const name =
    offsetFormatOf(timeZone)
      .formatToParts(new Date(instant))
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
}

const offsetText = (minutes: number) => {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
};

const utcStamp = (instant: Date) => `${instant.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

// Control characters no content line may carry (RFC 5545 §3.1: CONTROL), line breaks aside.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/**
 * TEXT values escape backslash, semicolon, comma and every line break, and drop other control characters
 * (RFC 5545 §3.3.11): whatever a value holds, it stays inside its own content line.
 */
const escapeText = (text: string) =>
  text
    .replace(CONTROL, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');

/**
 * A parameter value in quotes, which may hold no quote, line break or other control character (RFC 5545 §3.2): a
 * quote is written `^'` and a caret `^^` (RFC 6868), so a name comes back exactly; a line break (which no name may
 * hold) becomes a space.
 */
const quoteParam = (text: string) =>
  `"${text
    .replace(/[\r\n]+/g, ' ')
    .replace(CONTROL, '')
    .replace(/\^/g, '^^')
    .replace(/"/g, "^'")}"`;

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).replace(/[^\w.-]/g, '') || 'medora.local';

/** Lines longer than 75 octets go on in continuation lines that start with a space (RFC 5545 §3.1). */
function fold(line: string): string[] {
  const bytes = new TextEncoder();
  if (bytes.encode(line).length <= 75) return [line];
  const out: string[] = [];
  let current = '';
  for (const ch of line) {
    if (bytes.encode(current + ch).length > (out.length === 0 ? 75 : 74)) {
      out.push(out.length === 0 ? current : ` ${current}`);
      current = '';
    }
    current += ch;
  }
  out.push(out.length === 0 ? current : ` ${current}`);
  return out;
}
