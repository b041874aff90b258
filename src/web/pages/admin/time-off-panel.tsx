import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, apiDelete, apiGet, apiPost } from '../../api.ts';
import { Alert, failure, info, success } from '../../components/alert.tsx';
import { Field } from '../../components/field.tsx';
import { ALL, useAlert } from '../../components/use-alert.ts';
import { useSubmit } from '../../components/use-submit.ts';
import { endpoints } from '../../paths.ts';
import { formatDate, formatDay, formatTime } from '../../format.ts';
import type { TimeOffAddedJson, TimeOffJson } from '../../../domain/scheduling/scheduling-shapes.ts';

const whenOf = (t: TimeOffJson) =>
  `${formatDate(t.starts_on)}${t.ends_on === t.starts_on ? '' : ` to ${formatDate(t.ends_on)}`}${t.start_time && t.end_time ? `, ${formatTime(t.start_time)}–${formatTime(t.end_time)}` : ''}`;

/** What the desk must do after time off is added: the visits inside it stay booked until moved. */
function addedMessage(added: TimeOffAddedJson) {
  if (added.visits_to_move_total === 0) return success('Time off added; no booked visits inside it');
  const visits = added.visits_to_move
    .map((v) => `${formatDay(v.date)}, ${formatTime(v.start_time)} ${v.patient_name} with ${v.doctor_name}`)
    .join('; ');
  return info(
    `Time off added. ${added.visits_to_move_total} booked visit(s) inside it stay booked until the desk moves them: ${visits}`,
  );
}

/** The doctor's leave and the clinic's closures from today on, with a form to add either and a button to take one back. */
export function TimeOffPanel({ doctorId }: { doctorId: number | string }) {
  const [items, setItems] = useState<TimeOffJson[]>([]);
  const [kind, setKind] = useState<'leave' | 'closure'>('leave');
  const [form, setForm] = useState({ starts_on: '', ends_on: '', start_time: '', end_time: '', reason: '' });
  const { alert, setAlert, dismiss } = useAlert();
  const { busy, errors, run } = useSubmit('time off save');

  const load = () =>
    apiGet<{ time_off: TimeOffJson[] }>(endpoints.admin.timeOff, { ...ALL, doctor_id: doctorId })
      .then((answer) => setItems(answer.time_off))
      .catch((error: unknown) => console.error('time off fetch failed', error));
  useEffect(() => void load(), [doctorId]);

  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [field]: e.target.value });

  const add = (event: FormEvent) => {
    event.preventDefault();
    const body = Object.fromEntries(Object.entries(form).filter(([, value]) => value !== ''));
    return run(
      async () => {
        const added = await apiPost<TimeOffAddedJson>(
          kind === 'leave' ? endpoints.admin.doctorLeave(doctorId) : endpoints.admin.closures,
          body,
        );
        setAlert(addedMessage(added));
        setForm({ starts_on: '', ends_on: '', start_time: '', end_time: '', reason: '' });
        await load();
      },
      (error) =>
        setAlert(
          failure(error instanceof ApiError ? `Failed to add time off: ${error.message}` : 'Failed to add time off'),
        ),
    );
  };

  const remove = (t: TimeOffJson) =>
    run(
      async () => {
        await apiDelete(endpoints.admin.timeOffItem(t.id));
        setAlert(success('Time off removed'));
        await load();
      },
      () => setAlert(failure('Failed to remove time off')),
    );

  return (
    <section aria-label="Leave and closures">
      <h3>Leave and closures</h3>
      <Alert message={alert} onDismiss={dismiss} />
      {items.length === 0 ? (
        <p className="muted">No leave or closures ahead</p>
      ) : (
        <ul className="time-off-list">
          {items.map((t) => (
            <li key={t.id}>
              {t.kind === 'leave' ? 'Leave' : 'Clinic closed'}: {whenOf(t)}
              {t.reason && ` (${t.reason})`}{' '}
              <button
                type="button"
                className="button button-small"
                disabled={busy}
                onClick={() => remove(t)}
                aria-label={`Remove time off ${whenOf(t)}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="form time-off-form" onSubmit={add} aria-label="Add time off">
        <div className="form-row">
          <Field label="Kind">
            {(control) => (
              <select
                {...control}
                value={kind}
                onChange={(e) => setKind(e.target.value === 'closure' ? 'closure' : 'leave')}
              >
                <option value="leave">Leave of this doctor</option>
                <option value="closure">Clinic closure (every doctor)</option>
              </select>
            )}
          </Field>
          <Field label="First day" errors={errors.starts_on}>
            {(control) => (
              <input {...control} type="date" required value={form.starts_on} onChange={set('starts_on')} />
            )}
          </Field>
          <Field label="Last day" errors={errors.ends_on}>
            {(control) => <input {...control} type="date" value={form.ends_on} onChange={set('ends_on')} />}
          </Field>
          <Field label="From" hint="Only part of each day" errors={errors.start_time}>
            {(control) => <input {...control} type="time" value={form.start_time} onChange={set('start_time')} />}
          </Field>
          <Field label="Until" errors={errors.end_time}>
            {(control) => <input {...control} type="time" value={form.end_time} onChange={set('end_time')} />}
          </Field>
          <Field label="Reason" errors={errors.reason}>
            {(control) => (
              <input
                {...control}
                maxLength={200}
                required={kind === 'closure'}
                value={form.reason}
                onChange={set('reason')}
              />
            )}
          </Field>
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          Add Time Off
        </button>
      </form>
    </section>
  );
}
