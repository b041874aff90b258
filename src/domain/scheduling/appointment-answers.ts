import type { Appointment } from './scheduling.ts';
import type { AppointmentJson } from './scheduling-shapes.ts';

/** An appointment as the wire carries it (AppointmentShape): nested, and with the flat names the tables show. */
export function appointmentJson(a: Appointment): AppointmentJson {
  return {
    id: a.id,
    date: a.date,
    start_time: a.startTime,
    end_time: a.endTime,
    status: a.status,
    patient: a.patient,
    doctor: a.doctor,
    department: a.department,
    room: a.room,
    patient_name: a.patient.name,
    patient_email: a.patient.email,
    doctor_name: a.doctor.name,
    doctor_email: a.doctor.email,
    department_name: a.department?.name ?? null,
    room_name: a.room?.name ?? null,
  };
}
