/** The NEWS2 alerts standing on the wards of the doctor's patients, highest first, each opening the stay's flowsheet. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useLoaded } from './use-fetched.ts';
import { formatDateTime } from '../format.ts';
import { endpoints, routes, withId } from '../paths.ts';
import type { News2AlertJson } from '../../domain/vitals/vitals-shapes.ts';

/**
 * The alerts' card (none when there are none, or their request failed, which is only logged) and whether their
 * answer has come: a page holds what stands below the card until it has, so the card does not push it down.
 */
export function useNews2Alerts(): { settled: boolean; card: ReactNode } {
  const { loaded } = useLoaded<{ alerts: News2AlertJson[] }>(endpoints.vitals.alerts, 'NEWS2 alerts');
  const alerts = loaded.state === 'loaded' ? loaded.value.alerts : [];
  return {
    settled: loaded.state !== 'loading',
    card: alerts.length > 0 && (
      <section className="card news2-alerts" aria-labelledby="news2-alerts">
        <h2 id="news2-alerts">NEWS2 alerts</h2>
        <ul>
          {alerts.map((a) => (
            <li key={a.id}>
              <span className="badge badge-alert">
                NEWS2 {a.total} · {a.risk}
              </span>{' '}
              <Link href={withId(routes.doctor.flowsheet, a.admission_id)}>{a.patient.name}</Link>{' '}
              <span className="muted">
                {a.bed.ward}, {a.bed.room}, bed {a.bed.label} · since {formatDateTime(a.raised_at)}
              </span>
            </li>
          ))}
        </ul>
      </section>
    ),
  };
}
