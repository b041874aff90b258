import { useEffect, useState, type FormEvent } from 'react';
import type { Room } from '../../../domain/catalogue/catalogue.ts';
import type { WeeklySlotJson } from '../../../domain/scheduling/scheduling.ts';
import type { ScheduleJson } from '../../../domain/scheduling/pattern-use-cases.ts';
import { ApiError, apiGet, apiPut } from '../../api.ts';
import { Alert, failure, success } from '../../components/alert.tsx';
import { Field } from '../../components/field.tsx';
import { NamedSelect } from '../../components/named-select.tsx';
import { useAlert } from '../../components/use-alert.ts';
import { useAllRows } from '../../components/use-all-rows.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { endpoints } from '../../paths.ts';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * A doctor's weekly working hours: the current slots per day, and a form that replaces them (days, hours, slot
 * length, room). Booked appointments keep their times.
 */
export function ScheduleForm({ doctorId }: { doctorId: number | string }) {
  const [slots, setSlots] = useState<WeeklySlotJson[] | null>(null);
  const rooms = useAllRows<Room>(endpoints.admin.rooms, 'rooms');
  const [days, setDays] = useState<number[]>([1, 2, 3, 4, 5]);
  const [start, setStart] = useState('09:00');
  const [end, setEnd] = useState('17:00');
  const [minutes, setMinutes] = useState('30');
  const [roomId, setRoomId] = useState('');
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('schedule save');

  useEffect(() => {
    apiGet<ScheduleJson>(endpoints.admin.doctorSchedule(doctorId))
      .then((answer) => {
        setSlots(answer.slots);
        const worked = [...new Set(answer.slots.map((s) => s.weekday))].sort();
        if (worked.length > 0) {
          setDays(worked);
          setStart(answer.slots.reduce((min, s) => (s.start_time < min ? s.start_time : min), '23:59'));
          setEnd(answer.slots.reduce((max, s) => (s.end_time > max ? s.end_time : max), '00:00'));
          setRoomId(answer.slots[0]?.room ? String(answer.slots[0].room.id) : '');
        }
      })
      .catch((error: unknown) => {
        console.error('schedule fetch failed', error);
        setSlots([]);
      });
  }, [doctorId]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    return run(
      async () => {
        const answer = await apiPut<ScheduleJson>(endpoints.admin.doctorSchedule(doctorId), {
          days,
          start_time: start,
          end_time: end,
          slot_minutes: Number(minutes),
          ...(roomId ? { room_id: Number(roomId) } : {}),
        });
        setSlots(answer.slots);
        setAlert(success('Schedule saved successfully'));
      },
      (error) => setAlert(failure(error instanceof ApiError ? `Failed to save schedule: ${error.message}` : 'Failed to save schedule')),
    );
  };

  const perDay = (weekday: number) => (slots ?? []).filter((s) => s.weekday === weekday).length;

  return (
    <>
      <Alert message={alert} onDismiss={dismiss} />
      <form className="form" onSubmit={save} aria-label="Working hours">
        <fieldset className="weekdays">
          <legend>Working days</legend>
          {WEEKDAYS.map((day, index) => (
            <label key={day} className="checkbox">
              <input
                type="checkbox"
                checked={days.includes(index + 1)}
                onChange={(e) => setDays(e.target.checked ? [...days, index + 1].sort() : days.filter((d) => d !== index + 1))}
              />
              {day}
              <span className="muted"> ({perDay(index + 1)} slots)</span>
            </label>
          ))}
        </fieldset>
        {errors.days && <p className="field-error">{errors.days.join(' ')}</p>}
        <div className="form-row">
          <Field label="Start time" errors={errors.start_time}>
            {(control) => <input {...control} type="time" required value={start} onChange={(e) => setStart(e.target.value)} />}
          </Field>
          <Field label="End time" errors={errors.end_time}>
            {(control) => <input {...control} type="time" required value={end} onChange={(e) => setEnd(e.target.value)} />}
          </Field>
          <Field label="Slot minutes" errors={errors.slot_minutes}>
            {(control) => <input {...control} type="number" min={5} max={240} required value={minutes} onChange={(e) => setMinutes(e.target.value)} />}
          </Field>
          <Field label="Room" errors={errors.room_id}>
            {(control) => <NamedSelect control={control} placeholder="No room" options={rooms} value={roomId} onChange={setRoomId} />}
          </Field>
        </div>
        <button type="submit" className="button button-primary" disabled={busy || days.length === 0}>
          Save Schedule
        </button>
      </form>
    </>
  );
}
