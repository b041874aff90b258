export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** One working-hours range as the editor holds it: times as "HH:MM", the slot length as typed. */
export interface RangeDraft {
  weekday: number;
  start: string;
  end: string;
  minutes: string;
}

const minutesOf = (time: string): number | null => {
  const match = /^(\d{2}):(\d{2})/.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
};

const timeOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * The slot start times the ranges give a weekday, in order: every slot that ends by its range's end, as the server
 * generates them. A range still being typed (no times, a slot length under 5) gives none.
 */
export function slotStarts(ranges: readonly RangeDraft[], weekday: number): string[] {
  return ranges
    .filter((r) => r.weekday === weekday)
    .flatMap((r) => {
      const start = minutesOf(r.start);
      const end = minutesOf(r.end);
      const step = Number(r.minutes);
      if (start === null || end === null || !Number.isInteger(step) || step < 5) return [];
      const starts: number[] = [];
      for (let at = start; at + step <= end; at += step) starts.push(at);
      return starts;
    })
    .sort((a, b) => a - b)
    .map(timeOf);
}
