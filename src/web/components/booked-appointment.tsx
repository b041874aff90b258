/** What a patient sees once a visit is booked: who, when and where, with a calendar file and the way to the visit. */
import { Link } from 'wouter';
import type { SchemaAppointment as AppointmentJson } from '../api-wire.gen.ts';
import { formatTime, formatDay } from '../format.ts';
import { endpoints, routes } from '../paths.ts';

/** "Room 101, Cardiology": the room (when one is given) and the department. */
const placeOf = (a: AppointmentJson) =>
  [a.room_name, a.department_name].filter(Boolean).join(', ') || 'The clinic (the desk will show you the way)';

export function BookedAppointment({ appointment }: { appointment: AppointmentJson }) {
  return (
    <section className="card booked" aria-labelledby="booked-heading">
      <h2 id="booked-heading">Your appointment</h2>
      <dl className="details">
        <dt>Who</dt>
        <dd>{appointment.doctor_name}</dd>
        <dt>When</dt>
        <dd>
          {formatDay(appointment.date)}, {formatTime(appointment.start_time)} – {formatTime(appointment.end_time)}
        </dd>
        <dt>Where</dt>
        <dd>{placeOf(appointment)}</dd>
      </dl>
      <div className="booked-actions">
        <a
          className="button button-small"
          href={endpoints.patient.appointmentCalendar(appointment.id)}
          download="appointment.ics"
        >
          Add to calendar
        </a>
        <Link className="button button-small button-primary" href={routes.patient.appointments}>
          View appointment
        </Link>
      </div>
    </section>
  );
}
