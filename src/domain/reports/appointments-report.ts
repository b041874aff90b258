import { clinicToday, type Clock } from '../shared/clock.ts';
import { Validator, asRecord } from '../shared/validate.ts';

/** One line of the morning print-out. Times are HH:mm. */
export interface DayAppointment {
  id: number;
  doctor: string;
  start_time: string;
  end_time: string;
  patient: string;
  patient_phone: string;
  department: string | null;
  room: string | null;
  status: string;
}

export interface DayAppointmentQueries {
  /** The date's appointments that are not cancelled, by doctor name, then start time. */
  appointmentsOn(date: string): Promise<DayAppointment[]>;
}

export interface AppointmentsReportDeps {
  dayAppointments: DayAppointmentQueries;
  clock: Clock;
  timeZone: string;
}

/** The day's appointments per doctor (default: the clinic's today), for the front desk's morning print-out. */
export async function appointmentsReport(
  deps: AppointmentsReportDeps,
  query: Record<string, unknown>,
): Promise<{ date: string; appointments: DayAppointment[] }> {
  const v = new Validator(asRecord(query));
  const date = v.date('date', { optional: true }) ?? clinicToday(deps.clock, deps.timeZone);
  v.done();
  return { date, appointments: await deps.dayAppointments.appointmentsOn(date) };
}
