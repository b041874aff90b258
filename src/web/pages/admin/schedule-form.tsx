import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, apiGet, apiPut } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useAllRows } from '../../components/use-all-rows.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { formatTime } from '../../format.ts';
import { endpoints } from '../../paths.ts';
import { TimeOffPanel } from './time-off-panel.tsx';
import { type RangeDraft, slotStarts, WEEKDAYS } from './slot-starts.ts';
import type { Room } from '../../../domain/catalogue/catalogue-shapes.ts';
import type { HoursRangeJson, ScheduleJson } from '../../../domain/scheduling/scheduling-shapes.ts';

/** One range of the form, as its inputs hold it. */
interface Draft extends RangeDraft {
  roomId: string;
}

const draftOf = (h: HoursRangeJson): Draft => ({
  weekday: h.weekday,
  start: h.start_time,
  end: h.end_time,
  minutes: String(h.slot_minutes),
  roomId: h.room ? String(h.room.id) : '',
});

const bodyOf = (d: Draft) => ({
  weekday: d.weekday,
  start_time: d.start,
  end_time: d.end,
  slot_minutes: Number(d.minutes),
  ...(d.roomId ? { room_id: Number(d.roomId) } : {}),
});

/**
 * A doctor's working hours: the saved week at a glance, a form holding exactly the saved ranges (any number a
 * day, each with its slot length and room), and the doctor's leave and the clinic's closures.
 */
export function ScheduleForm({ doctorId }: { doctorId: number | string }) {
  const [saved, setSaved] = useState<ScheduleJson | null>(null);
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const rooms = useAllRows<Room>(endpoints.admin.rooms, 'rooms');
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('schedule save');

  const show = (schedule: ScheduleJson) => {
    setSaved(schedule);
    setDrafts(schedule.hours.map(draftOf));
  };

  useEffect(() => {
    apiGet<ScheduleJson>(endpoints.admin.doctorSchedule(doctorId))
      .then(show)
      .catch((error: unknown) => {
        console.error('schedule fetch failed', error);
        setAlert(failure('Failed to load the schedule'));
      });
  }, [doctorId]);

  const change = (index: number, patch: Partial<Draft>) =>
    setDrafts(drafts.map((d, i) => (i === index ? { ...d, ...patch } : d)));
  const add = (weekday: number) => {
    const last = drafts.filter((d) => d.weekday === weekday).at(-1);
    setDrafts([
      ...drafts,
      {
        weekday,
        start: last?.end ?? '09:00',
        end: '17:00',
        minutes: last?.minutes ?? '30',
        roomId: last?.roomId ?? '',
      },
    ]);
  };
  const copyMonday = () =>
    setDrafts([
      ...drafts.filter((d) => d.weekday === 1 || d.weekday > 5),
      ...[2, 3, 4, 5].flatMap((weekday) => drafts.filter((d) => d.weekday === 1).map((d) => ({ ...d, weekday }))),
    ]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        show(await apiPut<ScheduleJson>(endpoints.admin.doctorSchedule(doctorId), { hours: drafts.map(bodyOf) }));
        setAlert(success('Schedule saved successfully'));
      },
      (error) =>
        setAlert(
          failure(error instanceof ApiError ? `Failed to save schedule: ${error.message}` : 'Failed to save schedule'),
        ),
    );
  };

  const addButton = (day: string, weekday: number) => (
    <button
      type="button"
      className="button button-small"
      aria-label={`Add hours to ${day}`}
      onClick={() => add(weekday)}
    >
      Add hours
    </button>
  );

  const rowErrors = (index: number) =>
    Object.entries(errors).flatMap(([field, messages]) =>
      field.startsWith(`hours[${index}].`) ? messages.map((m) => `${field.split('.')[1]} ${m}`) : [],
    );

  return (
    <>
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form schedule-form" onSubmit={save} aria-label="Working hours">
        {errors.hours && <p className="field-error">{errors.hours.join(' ')}</p>}
        {WEEKDAYS.map((day, dayIndex) => {
          const weekday = dayIndex + 1;
          const rows = drafts.flatMap((d, index) => (d.weekday === weekday ? [{ d, index }] : []));
          return (
            <fieldset key={day} className="working-day">
              <legend>{day}</legend>
              <div className="working-day-ranges">
                {rows.length === 0 && (
                  <div className="hours-range">
                    <span className="muted">Day off</span>
                    {addButton(day, weekday)}
                  </div>
                )}
                {rows.map(({ d, index }, n) => (
                  <div key={index} className="hours-range">
                    <label>
                      From
                      <input
                        aria-label={`${day} ${n + 1} start`}
                        className="hours-field"
                        type="time"
                        required
                        value={d.start}
                        onChange={(e) => change(index, { start: e.target.value })}
                      />
                    </label>
                    <label>
                      To
                      <input
                        aria-label={`${day} ${n + 1} end`}
                        className="hours-field"
                        type="time"
                        required
                        value={d.end}
                        onChange={(e) => change(index, { end: e.target.value })}
                      />
                    </label>
                    <label>
                      Slot (min)
                      <input
                        aria-label={`${day} ${n + 1} slot minutes`}
                        className="hours-field hours-minutes"
                        type="number"
                        min={5}
                        max={480}
                        required
                        value={d.minutes}
                        onChange={(e) => change(index, { minutes: e.target.value })}
                      />
                    </label>
                    <label>
                      Room
                      <select
                        aria-label={`${day} ${n + 1} room`}
                        className="hours-field"
                        value={d.roomId}
                        onChange={(e) => change(index, { roomId: e.target.value })}
                      >
                        <option value="">No room</option>
                        {rooms.map((room) => (
                          <option key={room.id} value={room.id}>
                            {room.name}
                          </option>
                        ))}
                      </select>
                    </label>
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Remove ${day} ${n + 1}`}
                      onClick={() => setDrafts(drafts.filter((_, i) => i !== index))}
                    >
                      Remove
                    </button>
                    {/* At the end of the day's last line, so adding a range takes no line of its own. */}
                    {n === rows.length - 1 && addButton(day, weekday)}
                    {rowErrors(index).length > 0 && <p className="field-error">{rowErrors(index).join(' ')}</p>}
                  </div>
                ))}
              </div>
            </fieldset>
          );
        })}
        <SlotPreview drafts={drafts} />
        <div className="form-actions">
          <button type="button" className="button" onClick={copyMonday}>
            Copy Monday to Tuesday–Friday
          </button>
          <button type="submit" className="button button-primary" disabled={busy || saved === null}>
            Save Schedule
          </button>
        </div>
      </form>
      <TimeOffPanel doctorId={doctorId} />
    </>
  );
}

/**
 * The slots the form's ranges would give, saved or not: each weekday's count and start times on one line, or the
 * earlier day it repeats (a working week of equal days reads as one day's times).
 */
function SlotPreview({ drafts }: { drafts: readonly RangeDraft[] }) {
  const days = WEEKDAYS.map((day, index) => {
    const starts = slotStarts(drafts, index + 1);
    return { day, count: starts.length, times: starts.map(formatTime).join(' ') };
  });
  return (
    <table className="slot-preview" aria-label="Slots preview">
      <caption>Slots these hours give</caption>
      <tbody>
        {days.map(({ day, count, times }, index) => {
          const same = times ? days.slice(0, index).find((earlier) => earlier.times === times) : undefined;
          return (
            <tr key={day}>
              <th scope="row">{day}</th>
              <td>{count === 1 ? '1 slot' : `${count} slots`}</td>
              <td>{same ? `Same as ${same.day}` : times}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
