/**
 * The desk's day list on paper: one page per doctor under the clinic's letterhead and the day, each visit in time
 * order with the patient's name, birth date and id and a box to tick on arrival.
 */
import { fetchList } from '../../api.ts';
import { StatusBadge } from '../../components/status-badge.tsx';
import { ALL } from '../../components/use-alert.ts';
import { formatDate, formatTime, formatDay } from '../../format.ts';
import { PrintHead, type Contact } from '../../components/printout.tsx';
import { endpoints } from '../../paths.ts';
import type { DeskAppointmentJson } from '../../../domain/scheduling/scheduling-shapes.ts';

/** Every visit of the day that is not cancelled (of one doctor, when given), page by page. */
export async function visitsOfDay(date: string, doctorId: string): Promise<DeskAppointmentJson[]> {
  const visits: DeskAppointmentJson[] = [];
  for (let page = 1; ; page++) {
    const { rows, total } = await fetchList<DeskAppointmentJson>(endpoints.desk.appointments, 'appointments', {
      ...ALL,
      page,
      date: date || undefined,
      doctor_id: doctorId || undefined,
    });
    visits.push(...rows);
    if (rows.length === 0 || visits.length >= total) return visits;
  }
}

export function DaySheet({ date, visits, clinic }: { date: string; visits: DeskAppointmentJson[]; clinic: Contact }) {
  const doctors = [...new Set(visits.map((a) => a.doctor_name))].sort((a, b) => a.localeCompare(b));
  return (
    <section className="day-sheet" aria-label="Day list to print">
      {doctors.length === 0 && <p>No appointments on {formatDay(date)}.</p>}
      {doctors.map((doctor) => (
        <section key={doctor} className="printout day-sheet-doctor">
          <PrintHead
            title="Day list"
            reference={doctor}
            clinic={clinic}
            dated={{ label: 'Day', value: formatDay(date) }}
          />
          <table className="printout-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Patient</th>
                <th scope="col">Birth date</th>
                <th scope="col">Patient ID</th>
                <th scope="col">Room</th>
                <th scope="col">Status</th>
                <th scope="col">Arrived</th>
              </tr>
            </thead>
            <tbody>
              {visits
                .filter((a) => a.doctor_name === doctor)
                .map((a) => (
                  <tr key={a.id}>
                    <td>{formatTime(a.start_time)}</td>
                    <td>{a.patient_name}</td>
                    <td>{a.patient_birth_date ? formatDate(a.patient_birth_date) : '—'}</td>
                    <td>{a.patient.id}</td>
                    <td>{a.room_name ?? '—'}</td>
                    <td>
                      <StatusBadge status={a.status} />
                    </td>
                    <td className="day-sheet-tick" />
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      ))}
    </section>
  );
}
