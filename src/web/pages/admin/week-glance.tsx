import type { ScheduleJson } from '../../../domain/scheduling/pattern-use-cases.ts';
import { formatTime } from '../../format.ts';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** A doctor's saved week at a glance: each day's hours (the gaps are breaks), slot lengths, rooms and slot count. */
export function WeekGlance({ schedule }: { schedule: ScheduleJson }) {
  return (
    <table className="table week-glance" aria-label="Week at a glance">
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Hours</th>
          <th scope="col">Slots</th>
        </tr>
      </thead>
      <tbody>
        {WEEKDAYS.map((day, index) => {
          const hours = schedule.hours.filter((h) => h.weekday === index + 1);
          const slots = schedule.slots.filter((s) => s.weekday === index + 1).length;
          return (
            <tr key={day}>
              <th scope="row">{day}</th>
              <td>
                {hours.length === 0
                  ? 'Day off'
                  : hours
                      .map(
                        (h) =>
                          `${formatTime(h.start_time)}–${formatTime(h.end_time)} (${h.slot_minutes} min${h.room ? `, ${h.room.name}` : ''})`,
                      )
                      .join(' · ')}
              </td>
              <td>{slots === 1 ? '1 slot' : `${slots} slots`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
