/** How values read on screen: dates and times in the clinic's locale, through the one module the e-mails use too. */
import * as dates from '../domain/shared/date-format.ts';
import { clinic } from './clinic.ts';

// Made at the first amount shown, not when the module loads: building an Intl format is costly (it loads the
// locale's data), and it would lengthen the task that starts every page, most of which show no amount.
let usdFormat: Intl.NumberFormat | undefined;

/** Amounts arrive as integer cents; the clinic bills in USD (spec §9). */
export const usd = (cents: number) => {
  usdFormat ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  return usdFormat.format(cents / 100);
};

export const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** A patient registered at the desk may have no e-mail address. */
export const emailOrNone = (email: string | null) => email ?? '—';

/** 'yyyy-MM-dd' → 'Jun 4, 2030'. */
export const formatDate = (date: string) => dates.formatDate(date, clinic.locale);

/** 'yyyy-MM-dd' → 'Tue, Jun 4'. */
export const formatDay = (date: string) => dates.formatDay(date, clinic.locale);

/** 'yyyy-MM-dd' → 'Jun 4'. */
export const formatMonthDay = (date: string) => dates.formatMonthDay(date, clinic.locale);

/** 'yyyy-MM-dd' → 'June 2030', 'Tue', '4', 'Tuesday, June 4, 2030': a month view's title, column, day and name. */
export const formatMonth = (date: string) => dates.formatMonth(date, clinic.locale);
export const formatWeekday = (date: string) => dates.formatWeekday(date, clinic.locale);
export const formatDayOfMonth = (date: string) => dates.formatDayOfMonth(date, clinic.locale);
export const formatLongDate = (date: string) => dates.formatLongDate(date, clinic.locale);

/** 'HH:mm[:ss]' → '1:30 PM'. */
export const formatTime = (time: string) => dates.formatTime(time, clinic.locale);

/** The clinic's wall clock 'yyyy-MM-dd HH:mm' → 'Tue, Jun 4, 1:30 PM'. */
export const formatDayTime = (wallDateTime: string) => dates.formatDayTime(wallDateTime, clinic.locale);

/** An ISO instant on the clinic's clock → 'Jun 3, 2030, 8:00 AM'. */
export const formatDateTime = (instant: string) => dates.formatDateTime(instant, clinic.locale, clinic.timeZone);

/** An ISO instant → its day on the clinic's clock, 'Jun 3, 2030'. */
export const formatInstantDate = (instant: string) => dates.formatInstantDate(instant, clinic.locale, clinic.timeZone);

/** An ISO instant → its time on the clinic's clock, '8:00 AM'. */
export const formatInstantTime = (instant: string) =>
  formatTime(dates.wallClockTime(new Date(instant), clinic.timeZone));

/** The time it is now on the clinic's clock, 'HH:mm' (the browser's own clock while the clinic's zone is unknown). */
export const clinicTimeNow = () => dates.wallClockTime(new Date(), clinic.timeZone);
