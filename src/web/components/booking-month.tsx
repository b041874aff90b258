/**
 * The booking page's month view: which days of a doctor's month have free slots (and how many), which are full,
 * and why a closed day is closed; arrow keys move between days, Page Up/Down between months.
 */
import { useRef, type KeyboardEvent } from 'react';
import type { MonthAvailabilityJson } from '../../domain/scheduling/scheduling-shapes.ts';
import { formatDayOfMonth, formatLongDate, formatMonth, formatWeekday } from '../format.ts';

type MonthDayJson = MonthAvailabilityJson['days'][number];

interface MonthViewProps {
  month: MonthAvailabilityJson;
  /** The day chosen, if any. */
  chosen: string;
  onChoose: (date: string) => void;
  /** Shows the month of `date` (the first day of the month before or after). */
  onMonth: (date: string) => void;
}

/** A closed day's reason, as the page says it. */
export function closedText(day: MonthDayJson): string | undefined {
  if (!day.closed) return undefined;
  return day.closed.kind === 'closure'
    ? `The clinic is closed${day.closed.name ? `: ${day.closed.name}` : ''}.`
    : 'The doctor is on leave.';
}

const MARK: Record<MonthDayJson['state'], (day: MonthDayJson) => string> = {
  open: (day) => String(day.free),
  full: () => 'Full',
  closed: (day) => (day.closed?.kind === 'leave' ? 'Leave' : 'Closed'),
  off: () => '',
  outside: () => '',
};

const SAYS: Record<MonthDayJson['state'], (day: MonthDayJson) => string> = {
  open: (day) => `${day.free} free ${day.free === 1 ? 'slot' : 'slots'}`,
  full: () => 'no free slot left',
  closed: (day) =>
    day.closed?.kind === 'leave' ? 'on leave' : `clinic closed${day.closed?.name ? `: ${day.closed.name}` : ''}`,
  off: () => 'not a working day',
  outside: () => 'not bookable',
};

const STEPS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

/** The month's days in weeks from Monday, with empty cells before the first and after the last. */
function weeksOf(days: MonthDayJson[]): (MonthDayJson | null)[][] {
  const lead = (new Date(`${days[0]?.date}T00:00:00Z`).getUTCDay() + 6) % 7;
  const cells = [...Array<null>(lead).fill(null), ...days];
  const weeks: (MonthDayJson | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) {
    const week = cells.slice(i, i + 7);
    weeks.push([...week, ...Array<null>(7 - week.length).fill(null)]);
  }
  return weeks;
}

export function MonthView({ month, chosen, onChoose, onMonth }: MonthViewProps) {
  const grid = useRef<HTMLTableElement>(null);
  const bookable = month.days.filter((day) => day.state !== 'outside');
  // One day takes Tab (the chosen one, else the first with a free slot); arrows move from there.
  const focusDay =
    bookable.find((day) => day.date === chosen) ?? bookable.find((day) => day.state === 'open') ?? bookable[0];

  const move = (event: KeyboardEvent) => {
    const from = (event.target as HTMLElement).dataset.date;
    if (event.key === 'PageUp' && month.previous) onMonth(month.previous);
    else if (event.key === 'PageDown' && month.next) onMonth(month.next);
    else if (from && (event.key in STEPS || event.key === 'Home' || event.key === 'End')) {
      const at = bookable.findIndex((day) => day.date === from);
      const index = event.key === 'Home' ? 0 : event.key === 'End' ? bookable.length - 1 : at + (STEPS[event.key] ?? 0);
      const target = bookable[Math.max(0, Math.min(bookable.length - 1, index))];
      grid.current?.querySelector<HTMLButtonElement>(`button[data-date="${target?.date}"]`)?.focus();
    } else return;
    event.preventDefault();
  };

  const weeks = weeksOf(month.days);
  // Every column holds a day in some week of any month: its weekday heads the column.
  const weekdays = [0, 1, 2, 3, 4, 5, 6].map((column) => weeks.map((week) => week[column]).find(Boolean)?.date ?? '');

  return (
    <section className="month-view" aria-labelledby="month-view-title">
      <div className="month-nav">
        <button
          type="button"
          className="button button-small button-secondary"
          aria-label="Previous month"
          disabled={!month.previous}
          onClick={() => month.previous && onMonth(month.previous)}
        >
          ‹
        </button>
        <h3 id="month-view-title" aria-live="polite">
          {formatMonth(month.days[0]?.date ?? month.today)}
        </h3>
        <button
          type="button"
          className="button button-small button-secondary"
          aria-label="Next month"
          disabled={!month.next}
          onClick={() => month.next && onMonth(month.next)}
        >
          ›
        </button>
      </div>
      <table ref={grid} className="month-grid" aria-labelledby="month-view-title" onKeyDown={move}>
        <thead>
          <tr>
            {weekdays.map((date) => (
              <th key={date} scope="col">
                {formatWeekday(date)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.find(Boolean)?.date}>
              {week.map((day, i) => (
                <td key={day?.date ?? i}>
                  {day && (
                    <DayCell day={day} chosen={day.date === chosen} tabbable={day === focusDay} onChoose={onChoose} />
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="month-legend">A number is how many slots are free that day.</p>
    </section>
  );
}

function DayCell({
  day,
  chosen,
  tabbable,
  onChoose,
}: {
  day: MonthDayJson;
  chosen: boolean;
  tabbable: boolean;
  onChoose: (date: string) => void;
}) {
  const number = formatDayOfMonth(day.date);
  if (day.state === 'outside')
    return (
      <span className="month-day month-day-outside" aria-hidden="true">
        {number}
      </span>
    );
  return (
    <button
      type="button"
      className={`month-day month-day-${day.state}`}
      data-date={day.date}
      aria-pressed={chosen}
      tabIndex={tabbable ? 0 : -1}
      onClick={() => onChoose(day.date)}
    >
      {/* The cell shows the day and its mark; a screen reader hears the whole date and what it holds. */}
      <span aria-hidden="true">{number}</span>
      <span className="month-day-mark" aria-hidden="true">
        {MARK[day.state](day)}
      </span>
      <span className="visually-hidden">{`${formatLongDate(day.date)}: ${SAYS[day.state](day)}`}</span>
    </button>
  );
}
