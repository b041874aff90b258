/**
 * Choosing a doctor, a day and a free slot, with the doctor's next free days when the day has none: the patient's
 * booking page, the desk's booking for a patient, and moving an appointment all choose a slot with this.
 */
import { useEffect, useState } from 'react';
import type { Period } from '../../domain/scheduling/scheduling.ts';
import { apiGet, fetchList } from '../api.ts';
import { failure, success, type AlertMessage } from './alert.tsx';
import { Field } from './field.tsx';
import { LoadFailure } from './list-states.tsx';
import { MonthView, closedText } from './booking-month.tsx';
import { ALL, serverFailure } from './use-alert.ts';
import { useLatestRequest } from './use-latest-request.ts';
import { useSubmit } from './use-submit.ts';
import { capitalize, formatTime, formatDay } from '../format.ts';
import { endpoints } from '../paths.ts';
import type {
  AvailableSlotsJson,
  BookRequest,
  MonthAvailabilityJson,
  NextAvailableJson,
  SlotJson,
} from '../../domain/scheduling/scheduling-shapes.ts';
import type { Static } from '../../domain/shared/wire-schema.ts';
import type { Doctor } from '../../domain/catalogue/catalogue-shapes.ts';

/** The slot chosen, as the booking and moving endpoints take it (the form always gives its date). */
export type SlotChoiceJson = Required<Static<typeof BookRequest>>;

interface BookingFormProps {
  /** The doctor chosen on arrival ('' for none). */
  presetDoctor?: string;
  /** The day shown first with the preset doctor (default the clinic's today). */
  presetDate?: string;
  submitLabel: string;
  /** Sends the choice; answers the success message to show. */
  submit: (choice: SlotChoiceJson) => Promise<string>;
  /** What a refusal says when the server gave no reason. */
  failureText: string;
  setAlert: (message: AlertMessage) => void;
  onDone?: () => void;
  /** Puts the patient on the doctor's waitlist for a day whose slots are all taken; answers the success message. */
  joinWaitlist?: (doctorId: number, date: string) => Promise<string>;
}

const PERIODS: Period[] = ['AM', 'PM'];

const isFree = (slot: SlotJson) => slot.status === 'available';
/** A slot that has started is not offered at all; a booked one shows, taken. */
const isShown = (slot: SlotJson) => slot.status !== 'past';

export function BookingForm({
  presetDoctor = '',
  presetDate = '',
  submitLabel,
  submit,
  failureText,
  setAlert,
  onDone,
  joinWaitlist,
}: BookingFormProps) {
  const [doctors, setDoctors] = useState<Doctor[]>([]);
  const [doctorId, setDoctorId] = useState(presetDoctor);
  // Empty until the server answers with the clinic's today: the browser's own date may be another day.
  const [date, setDate] = useState('');
  const [today, setToday] = useState('');
  const [slots, setSlots] = useState<SlotJson[] | null>(null);
  const [slotsFailed, setSlotsFailed] = useState(false);
  const [selected, setSelected] = useState<SlotJson | null>(null);
  // Asked for when the day shown has no free slot: the next days that have one.
  const [nextDays, setNextDays] = useState<AvailableSlotsJson[] | null>(null);
  // The month view's month: which days have free slots, and why a closed day is closed.
  const [month, setMonth] = useState<MonthAvailabilityJson | null>(null);
  const { busy, run } = useSubmit('booking');
  const slotsRequest = useLatestRequest();
  const nextDaysRequest = useLatestRequest();
  const monthRequest = useLatestRequest();

  useEffect(() => {
    fetchList<Doctor>(endpoints.doctors, 'doctors', ALL)
      .then((list) => setDoctors(list.rows))
      .catch((error: unknown) => console.error('doctors fetch failed', error));
    // The preset doctor is read once, on arrival.
    if (presetDoctor) loadSlots(presetDoctor, presetDate);
  }, []);

  const loadNextDays = (forDoctor: string, from: string) =>
    nextDaysRequest.start(
      (signal) => apiGet<NextAvailableJson>(endpoints.nextAvailable, { doctor_id: forDoctor, from }, signal),
      (answer) => setNextDays(answer.days),
      (error) => console.error('next free days fetch failed', error),
    );

  /** Shows the doctor's month of `day` (the clinic's this month when none) in the month view. */
  const loadMonth = (forDoctor: string, day: string) =>
    monthRequest.start(
      (signal) =>
        apiGet<MonthAvailabilityJson>(endpoints.availableMonth(forDoctor), { month: day || undefined }, signal),
      setMonth,
      (error) => console.error('month fetch failed', error),
    );

  /** Loads a doctor's slots for `day`, or for the clinic's today when no day is given yet, and the day's month. */
  const loadSlots = (forDoctor: string, day: string) => {
    setSelected(null);
    setNextDays(null);
    setSlotsFailed(false);
    nextDaysRequest.abort();
    if (!forDoctor) {
      slotsRequest.abort();
      monthRequest.abort();
      setMonth(null);
      return setSlots(null);
    }
    slotsRequest.start(
      (signal) => apiGet<AvailableSlotsJson>(endpoints.availableSlots(forDoctor), { date: day || undefined }, signal),
      (answer) => {
        setSlots(answer.available_appointments);
        setDate(answer.date);
        if (!day) setToday(answer.date);
        loadMonth(forDoctor, answer.date);
        if (!answer.available_appointments.some(isFree)) loadNextDays(forDoctor, answer.date);
      },
      (error) => {
        console.error('slots fetch failed', error);
        setSlots(null);
        setSlotsFailed(true);
      },
    );
  };

  const book = async () => {
    if (!doctorId || !selected?.schedule_id) return setAlert(failure('Please select a valid time slot.'));
    await run(
      async () => {
        setAlert(success(await submit({ doctor_id: Number(doctorId), schedule_id: selected.schedule_id, date })));
        onDone?.();
      },
      // A slot taken meanwhile (409 slot_taken) or a clash with the patient's own visit is worded by the server.
      (error) => setAlert(serverFailure(error, failureText)),
    );
    loadSlots(doctorId, date);
  };

  const waitlist = (join: NonNullable<typeof joinWaitlist>) => () =>
    void run(
      async () => setAlert(success(await join(Number(doctorId), date))),
      (error) => setAlert(serverFailure(error, 'Joining the waitlist failed. Please try again.')),
    );

  const shownSlots = slots?.filter(isShown) ?? [];
  const doctor = doctors.find((each) => String(each.id) === doctorId);
  const chosenDay = month?.days.find((day) => day.date === date);
  const choose = (day: string) => {
    setDate(day);
    loadSlots(doctorId, day);
  };

  return (
    <div className="card booking">
      <div className="form-grid">
        <Field label="Doctor">
          {(control) => (
            <select
              {...control}
              value={doctorId}
              onChange={(event) => {
                setDoctorId(event.target.value);
                loadSlots(event.target.value, date);
              }}
            >
              <option value="">Choose a doctor</option>
              {doctors.map((doctor) => (
                <option key={doctor.id} value={doctor.id}>
                  {doctor.name}
                  {doctor.specialization ? ` — ${doctor.specialization.name}` : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Date" hint={doctorId ? undefined : 'Choose a doctor to see the day’s slots.'}>
          {(control) => (
            <input
              {...control}
              type="date"
              value={date}
              min={today || undefined}
              disabled={!doctorId}
              onChange={(event) => {
                setDate(event.target.value);
                loadSlots(doctorId, event.target.value);
              }}
            />
          )}
        </Field>
      </div>

      {month && doctorId && (
        <MonthView month={month} chosen={date} onChoose={choose} onMonth={(day) => loadMonth(doctorId, day)} />
      )}

      {slotsFailed && <LoadFailure what="Time slots" onRetry={() => loadSlots(doctorId, date)} />}
      {slots && !slots.some(isFree) && (
        <NextFreeDays
          closed={chosenDay && closedText(chosenDay)}
          dayHasSlots={slots.length > 0}
          days={nextDays}
          onJoinWaitlist={
            joinWaitlist && slots.some((slot) => slot.status === 'booked') ? waitlist(joinWaitlist) : undefined
          }
          onChoose={choose}
        />
      )}
      {shownSlots.length > 0 && (
        <div className="slot-groups">
          {PERIODS.map((period) => (
            <SlotGroup
              key={period}
              legend={period}
              slots={shownSlots.filter((slot) => slot.period === period)}
              selected={selected}
              onSelect={setSelected}
            />
          ))}
        </div>
      )}

      <BookingSummary doctor={doctor} date={date} slot={selected} />

      {/* Kept in view at the bottom of a phone's screen, with the time it books, once the slot list is long. */}
      <div className="booking-bar">
        {selected && (
          <span className="booking-bar-choice">
            {formatDay(date)} · {formatTime(selected.start_time)}
          </span>
        )}
        <button type="button" className="button button-primary" disabled={!selected || busy} onClick={book}>
          {submitLabel}
        </button>
      </div>
    </div>
  );
}

/** What Book will book, shown before it: the doctor, the day, the time and the department. */
function BookingSummary({ doctor, date, slot }: { doctor: Doctor | undefined; date: string; slot: SlotJson | null }) {
  return (
    <section className="booking-summary" aria-label="Summary" aria-live="polite">
      {doctor && slot ? (
        <dl className="details">
          <dt>Doctor</dt>
          <dd>
            {doctor.name}
            {doctor.specialization ? ` — ${doctor.specialization.name}` : ''}
          </dd>
          <dt>Date</dt>
          <dd>{formatDay(date)}</dd>
          <dt>Time</dt>
          <dd>
            {formatTime(slot.start_time)} – {formatTime(slot.end_time)}
          </dd>
          <dt>Department</dt>
          <dd>{doctor.department?.name ?? 'N/A'}</dd>
        </dl>
      ) : (
        <p className="empty">Choose a doctor and a time slot: a summary shows here before you book.</p>
      )}
    </section>
  );
}

interface NextFreeDaysProps {
  /** Why the day is closed (a clinic closure or the doctor's leave), when it is. */
  closed: string | undefined;
  /** The day has slots, all of them taken or over; otherwise the doctor does not work that day. */
  dayHasSlots: boolean;
  days: AvailableSlotsJson[] | null;
  onChoose: (date: string) => void;
  /** Offered when the day's slots are taken, not merely over: a time may still free up. */
  onJoinWaitlist?: () => void;
}

/** What a day without a free slot offers instead: the doctor's next days with one. */
function NextFreeDays({ closed, dayHasSlots, days, onChoose, onJoinWaitlist }: NextFreeDaysProps) {
  return (
    <>
      <p className="empty">
        {closed ?? (dayHasSlots ? 'No free time slot is left on this day.' : 'No time slots on this day.')}
      </p>
      {onJoinWaitlist && (
        <p>
          <button type="button" className="button button-small" onClick={onJoinWaitlist}>
            Join the waitlist
          </button>{' '}
          and get an e-mail if a time on this day frees up.
        </p>
      )}
      {days && days.length === 0 && <p>This doctor has no free time slot in the next 60 days.</p>}
      {days && days.length > 0 && (
        <>
          <p id="next-free-days">Next days with a free time slot:</p>
          <ul className="next-free-days-list" aria-labelledby="next-free-days">
            {days.map((day) => {
              const [first] = day.available_appointments;
              return (
                <li key={day.date}>
                  <button type="button" className="button button-small" onClick={() => onChoose(day.date)}>
                    {formatDay(day.date)}
                    {first && ` · from ${formatTime(first.start_time)}`}
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </>
  );
}

interface SlotGroupProps {
  legend: Period;
  slots: SlotJson[];
  selected: SlotJson | null;
  onSelect: (slot: SlotJson) => void;
}

function SlotGroup({ legend, slots, selected, onSelect }: SlotGroupProps) {
  return (
    <fieldset className="slot-group">
      <legend>{legend}</legend>
      {slots.length === 0 && <p className="empty">No slots.</p>}
      <div className="slots">
        {slots.map((slot) => (
          <label key={slot.schedule_id} className={`slot slot-${slot.status}`}>
            <input
              type="radio"
              name="slot"
              value={slot.schedule_id}
              checked={selected?.schedule_id === slot.schedule_id}
              disabled={slot.status !== 'available'}
              onChange={() => onSelect(slot)}
            />
            <span>
              {formatTime(slot.start_time)} – {formatTime(slot.end_time)}
            </span>
            {slot.status !== 'available' && <span className="slot-status">{capitalize(slot.status)}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
