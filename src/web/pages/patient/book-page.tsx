import { useEffect, useRef, useState } from 'react';
import { ApiError, apiGet, apiPost } from '../../api.ts';
import type { AvailableSlots, Doctor, Slot } from '../../api-types.ts';
import { Alert, failure, success, type AlertMessage } from '../../components/alert.tsx';
import { Field } from '../../components/field.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { capitalize, clockTime } from '../../format.ts';
import { endpoints } from '../../paths.ts';

/** The most doctors one request may list (docs/api.md); a clinic's roster fits in it. */
const MAX_PER_PAGE = 200;
const NOON = 12;

const isMorning = (slot: Slot) => Number(slot.start_time.split(':')[0]) < NOON;

export default function BookPage() {
  const [doctors, setDoctors] = useState<Doctor[]>([]);
  const [doctorId, setDoctorId] = useState('');
  // Empty until the server answers with the clinic's today: the browser's own date may be another day.
  const [date, setDate] = useState('');
  const [today, setToday] = useState('');
  const [slots, setSlots] = useState<Slot[] | null>(null);
  const [selected, setSelected] = useState<Slot | null>(null);
  const [alert, setAlert] = useState<AlertMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const latestRequest = useRef(0);

  useEffect(() => {
    apiGet<{ doctors: Doctor[] }>(endpoints.doctors, { per_page: MAX_PER_PAGE })
      .then((answer) => setDoctors(answer.doctors))
      .catch((error: unknown) => console.error('doctors fetch failed', error));
  }, []);

  /** Loads a doctor's slots for `day`, or for the clinic's today when no day is given yet. */
  const loadSlots = async (forDoctor: string, day: string) => {
    const request = ++latestRequest.current;
    setSelected(null);
    if (!forDoctor) return setSlots(null);
    try {
      const answer = await apiGet<AvailableSlots>(endpoints.availableSlots(forDoctor), { date: day || undefined });
      if (request !== latestRequest.current) return;
      setSlots(answer.available_appointments);
      setDate(answer.date);
      if (!day) setToday(answer.date);
    } catch (error) {
      console.error('slots fetch failed', error);
      if (request === latestRequest.current) setSlots([]);
    }
  };

  const book = async () => {
    if (!doctorId || !selected?.schedule_id) return setAlert(failure('Please select a valid time slot.'));
    setBusy(true);
    try {
      await apiPost(endpoints.book, { doctor_id: Number(doctorId), schedule_id: selected.schedule_id, date });
      setAlert(success('Appointment booked successfully!'));
    } catch (error) {
      // A slot taken meanwhile (409 slot_taken) or a clash with the patient's own visit is worded by the server.
      console.error('booking failed', error);
      setAlert(failure(error instanceof ApiError ? error.message : 'Booking failed. Please try again.'));
    } finally {
      setBusy(false);
      await loadSlots(doctorId, date);
    }
  };

  return (
    <>
      <PageHeader title="Select an Appointment" />
      <Alert message={alert} onDismiss={() => setAlert(null)} />
      <div className="card booking">
        <div className="form-grid">
          <Field label="Doctor">
            {(control) => (
              <select
                {...control}
                value={doctorId}
                onChange={(event) => {
                  setDoctorId(event.target.value);
                  void loadSlots(event.target.value, date);
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
                  void loadSlots(doctorId, event.target.value);
                }}
              />
            )}
          </Field>
        </div>

        {slots && slots.length === 0 && <p className="empty">No time slots on this day.</p>}
        {slots && slots.length > 0 && (
          <div className="slot-groups">
            <SlotGroup legend="AM" slots={slots.filter(isMorning)} selected={selected} onSelect={setSelected} />
            <SlotGroup legend="PM" slots={slots.filter((slot) => !isMorning(slot))} selected={selected} onSelect={setSelected} />
          </div>
        )}

        <button type="button" className="button button-primary" disabled={!selected || busy} onClick={book}>
          Book
        </button>
      </div>
    </>
  );
}

interface SlotGroupProps {
  legend: string;
  slots: Slot[];
  selected: Slot | null;
  onSelect: (slot: Slot) => void;
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
              {clockTime(slot.start_time)} – {clockTime(slot.end_time)}
            </span>
            {slot.status !== 'available' && <span className="slot-status">{capitalize(slot.status)}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
