import { useEffect, useState } from 'react';
import { apiGet } from '../api.ts';
import { formatTime, formatDay } from '../format.ts';
import { endpoints } from '../paths.ts';
import type { AlertMessage } from './alert.tsx';
import { useReschedule } from './reschedule-dialog.tsx';
import { ALL } from './use-alert.ts';
import type { VisitToMoveJson } from '../../domain/scheduling/scheduling-shapes.ts';

const whyOf = (v: VisitToMoveJson) =>
  (v.time_off.kind === 'leave' ? `${v.doctor_name} is on leave` : 'the clinic is closed') +
  (v.time_off.reason ? ` (${v.time_off.reason})` : '');

/**
 * Visits still booked inside a doctor's leave or a clinic closure, from today on: they stay booked until the desk
 * moves or cancels them, so the desk sees how many beside the day's title and opens the list there. Nothing shows
 * when there are none.
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
    <details className="visits-to-move">
      <summary className="button button-small">Visits to move ({visits.total})</summary>
      <section className="card visits-to-move-list" aria-label="Visits to move">
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
      </section>
      {dialog}
    </details>
  );
}
