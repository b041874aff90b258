/**
 * On the doctor's day: their critical lab values not yet acknowledged, their department's gone 30 minutes
 * unacknowledged, and their results waiting for review.
 */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { ListJson } from '../../http/answers.ts';
import type { ReviewEntryJson, StandingAlertJson } from './lab-labels.ts';
import { useLoaded } from './use-fetched.ts';
import { endpoints, routes } from '../paths.ts';
import { ALL } from './use-alert.ts';

/**
 * The notice (none when nothing waits, or a request failed, which is only logged) and whether both its answers
 * have come: a page holds what stands below the notice until they have, so the notice does not push it down.
 */
export function useCriticalResultsNotice(): { settled: boolean; notice: ReactNode } {
  const review = useLoaded<ListJson<'results', ReviewEntryJson>>(endpoints.lab.toReview, 'Results to review', ALL);
  const critical = useLoaded<{ alerts: StandingAlertJson[] }>(endpoints.lab.criticalAlerts, 'Critical results');
  const settled = review.loaded.state !== 'loading' && critical.loaded.state !== 'loading';
  if (review.loaded.state !== 'loaded' || critical.loaded.state !== 'loaded') return { settled, notice: null };
  const answer = review.loaded.value;
  const { alerts } = critical.loaded.value;
  const yours = alerts.filter((a) => a.yours).length;
  const department = alerts.length - yours;
  if (answer.total + alerts.length === 0) return { settled, notice: null };
  return {
    settled,
    notice: (
      <section className={alerts.length > 0 ? 'lab-notice lab-notice-critical' : 'lab-notice'} aria-label="Lab results">
        <p>
          {yours > 0 && (
            <strong>{yours === 1 ? '1 critical result' : `${yours} critical results`} to acknowledge. </strong>
          )}
          {department > 0 && (
            <strong>
              {department === 1 ? "1 of your department's" : `${department} of your department's`} critical results left
              unacknowledged.{' '}
            </strong>
          )}
          {answer.total > 0 && `${answer.total === 1 ? '1 lab report' : `${answer.total} lab reports`} to review.`}
        </p>
        <Link href={routes.doctor.results} className="button button-small button-primary">
          Results to review
        </Link>
      </section>
    ),
  };
}
