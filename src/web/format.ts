/** How values read on screen. */

const usdFormat = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Amounts arrive as integer cents; the clinic bills in USD (spec §9). */
export const usd = (cents: number) => usdFormat.format(cents / 100);

/** 'HH:mm' → 'h:mm AM/PM'. */
export function clockTime(time: string): string {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const suffix = hours < 12 ? 'AM' : 'PM';
  return `${hours % 12 || 12}:${String(minutes).padStart(2, '0')} ${suffix}`;
}

export const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

const dayMonthFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'UTC' });

/** 'yyyy-MM-dd' → '3 June'. */
export const dayMonth = (date: string) => dayMonthFormat.format(new Date(`${date}T00:00:00Z`));

const dayFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** 'yyyy-MM-dd' → 'Tue, Jun 4': a calendar day, the same in every time zone. */
export const dayLabel = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));

/** A patient registered at the desk may have no e-mail address. */
export const emailOrNone = (email: string | null) => email ?? '—';

const instantFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** An ISO instant in the reader's zone: 'Jun 3, 2030, 8:00 AM'. */
export const instant = (iso: string) => instantFormat.format(new Date(iso));
