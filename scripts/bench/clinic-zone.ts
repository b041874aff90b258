/**
 * A fixed-offset zone in which it is now between 01:00 and 02:00. The bench runs its clinic there, so
 * the booking run finds the whole of today's timetable (from 08:00) still ahead, whatever time the bench
 * is started. Etc/GMT names are sign-inverted: Etc/GMT-5 is five hours ahead of UTC.
 */
export function earlyMorningZone(now: Date): string {
  const utcHour = now.getUTCHours();
  // One of the two is always within UTC-12 to UTC+14.
  const offset = 1 - utcHour >= -12 ? 1 - utcHour : 25 - utcHour;
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
