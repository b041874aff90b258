/**
 * The one place dates and times become words, in the clinic's locale (CLINIC_LOCALE): the UI, the e-mails and the
 * printed pages all say "1:30 PM" (en-US) or "13:30" (en-GB) alike. Calendar days ('yyyy-MM-dd') and wall-clock
 * times ('HH:mm[:ss]') are the clinic's already and are formatted in UTC so no zone shifts them; instants are shown
 * in the clinic's zone.
 */

export const DEFAULT_LOCALE = 'en-US';

/** The tag as Intl spells it, or undefined when it is no BCP 47 tag Intl can format dates in. */
export function supportedLocale(tag: string): string | undefined {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical && Intl.DateTimeFormat.supportedLocalesOf(canonical).length > 0 ? canonical : undefined;
  } catch {
    return undefined;
  }
}

const STYLES = {
  longDate: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  date: { day: 'numeric', month: 'short', year: 'numeric' },
  day: { weekday: 'short', day: 'numeric', month: 'short' },
  monthDay: { day: 'numeric', month: 'short' },
  month: { month: 'long', year: 'numeric' },
  weekday: { weekday: 'short' },
  dayOfMonth: { day: 'numeric' },
  time: { timeStyle: 'short' },
  wallClock: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

type Style = keyof typeof STYLES;

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(style: Style, locale: string, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${style} ${locale} ${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...STYLES[style], timeZone });
    formats.set(key, format);
  }
  return format;
}

// Newer ICU (browsers) puts a narrow no-break space before AM/PM where older ICU (Node 20) puts a space: one
// spelling keeps the e-mails, the screens and the tests that find times on them alike.
const print = (style: Style, locale: string, timeZone: string | undefined, at: Date) =>
  formatOf(style, locale, timeZone)
    .format(at)
    .replace(/\u202f/g, ' ');

const calendarDay = (date: string) => new Date(`${date.slice(0, 10)}T00:00:00Z`);

function wallClock(time: string): Date {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return new Date(Date.UTC(2000, 0, 1, hours, minutes));
}

/** 'yyyy-MM-dd' → 'Tuesday, June 4, 2030' (en-US), 'Tuesday, 4 June 2030' (en-GB). */
export const formatLongDate = (date: string, locale: string) => print('longDate', locale, 'UTC', calendarDay(date));

/** 'yyyy-MM-dd' → 'Jun 4, 2030' (en-US), '4 Jun 2030' (en-GB). */
export const formatDate = (date: string, locale: string) => print('date', locale, 'UTC', calendarDay(date));

/** 'yyyy-MM-dd' → 'Tue, Jun 4' (en-US), 'Tue 4 Jun' (en-GB): a day near enough that its year goes without saying. */
export const formatDay = (date: string, locale: string) => print('day', locale, 'UTC', calendarDay(date));

/** 'yyyy-MM-dd' → 'Jun 4' (en-US), '4 Jun' (en-GB): a chart's axis, where the weekday would crowd it. */
export const formatMonthDay = (date: string, locale: string) => print('monthDay', locale, 'UTC', calendarDay(date));

/** 'yyyy-MM-dd' → 'June 2030': a month view's title. */
export const formatMonth = (date: string, locale: string) => print('month', locale, 'UTC', calendarDay(date));

/** 'yyyy-MM-dd' → 'Tue': a month view's column. */
export const formatWeekday = (date: string, locale: string) => print('weekday', locale, 'UTC', calendarDay(date));

/** 'yyyy-MM-dd' → '4': a month view's day. */
export const formatDayOfMonth = (date: string, locale: string) => print('dayOfMonth', locale, 'UTC', calendarDay(date));

/** 'HH:mm' or 'HH:mm:ss' → '1:30 PM' (en-US), '13:30' (en-GB). */
export const formatTime = (time: string, locale: string) => print('time', locale, 'UTC', wallClock(time));

/** An ISO instant → 'Jun 3, 2030, 8:00 AM' on the clinic's clock in `timeZone` (the reader's when undefined). */
export const formatDateTime = (instant: string | Date, locale: string, timeZone: string | undefined) =>
  print('dateTime', locale, timeZone, typeof instant === 'string' ? new Date(instant) : instant);

/** An ISO instant → 'Jun 3, 2030': its day on the clinic's clock in `timeZone` (a chart's axis of instants). */
export const formatInstantDate = (instant: string | Date, locale: string, timeZone: string | undefined) =>
  print('date', locale, timeZone, typeof instant === 'string' ? new Date(instant) : instant);

/** An instant's 'HH:mm' on the clinic's clock in `timeZone`, to compare with the wire's times (never shown). */
export const wallClockTime = (instant: Date, timeZone: string | undefined) =>
  formatOf('wallClock', 'en-GB', timeZone).format(instant);

/** The clinic's wall clock 'yyyy-MM-dd HH:mm' (or with a 'T') → 'Tue, Jun 4, 1:02 PM'. */
export const formatDayTime = (wallDateTime: string, locale: string) =>
  `${formatDay(wallDateTime, locale)}, ${formatTime(wallDateTime.slice(11), locale)}`;
