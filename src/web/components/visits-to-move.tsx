import { useEffect, useState } from 'react';
import type { VisitToMoveJson } from '../../domain/scheduling/time-off-use-cases.ts';
import { apiGet } from '../api.ts';
import { formatTime, formatDay } from '../format.ts';
import { endpoints } from '../paths.ts';
import type { AlertMessage } from './alert.tsx';
import { useReschedule } from './reschedule-dialog.tsx';
import { ALL } from './use-alert.ts';

const whyOf = (v: VisitToMoveJson) =>
  (v.time_off.kind === 'leave' ? `${v.doctor_name} is on leave` : 'the clinic is closed') +
  (v.time_off.reason ? ` (${v.time_off.reason})` : '');

/**
 * Visits still booked inside a doctor's leave or a clinic closure, from today on: they stay booked until the desk
 * moves or cancels them, so the desk sees them here first. Nothing shows when there are none.
 */
export function VisitsToMove({ setAlert }: { setAlert: (message: AlertMessage) => void }) {
  const [visits, setVisits] = useState<{ items: VisitToMoveJson[]; total: number } | null>(null);
  const load = () =>
    apiGet<{ appointments: VisitToMoveJson[]; total: number }>(endpoints.desk.toMove, ALL)
      .then((answer) => setVisits({ items: answer.appointments, total: answer.total }))
      .catch((error: unknown) => console.error('visits to move fetch failed', error));
  useEffect(() => void load(), []);
  const { reschedule, dialog } = useReschedule({ setAlert, onMoved: () => void load() });

  if (!visits || visits.total === 0) return null;
  return (
    <section className="card visits-to-move" aria-label="Visits to move">
      <h2>Visits to move ({visits.total})</h2>
      <ul>
        {visits.items.map((v) => (
          <li key={v.id}>
            {formatDay(v.date)} {formatTime(v.start_time)}: {v.patient_name} with {v.doctor_name}, but {whyOf(v)}{' '}
            <button
              type="button"
              className="button button-small"
              onClick={() => reschedule(v)}
              aria-label={`Reschedule ${v.patient_name} on ${formatDay(v.date)}`}
            >
              Reschedule
            </button>
          </li>
        ))}
      </ul>
      {dialog}
    </section>
  );
}
