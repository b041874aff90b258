/**
 * On the doctor's day: their critical lab values not yet acknowledged, their department's gone 30 minutes
 * unacknowledged, and their results waiting for review.
 */
import { Link } from 'wouter';
import type { ListJson } from '../../http/answers.ts';
import type { ReviewEntryJson, StandingAlertJson } from './lab-labels.ts';
import { useFetched } from './use-fetched.ts';
import { endpoints, routes } from '../paths.ts';
import { ALL } from './use-alert.ts';

export function CriticalResultsNotice() {
  const answer = useFetched<ListJson<'results', ReviewEntryJson>>(endpoints.lab.toReview, 'Results to review', ALL);
  const alerts = useFetched<{ alerts: StandingAlertJson[] }>(endpoints.lab.criticalAlerts, 'Critical results');
  if (!answer || !alerts) return null;
  const yours = alerts.alerts.filter((a) => a.yours).length;
  const department = alerts.alerts.length - yours;
  if (answer.total + alerts.alerts.length === 0) return null;
  return (
    <section
      className={alerts.alerts.length > 0 ? 'lab-notice lab-notice-critical' : 'lab-notice'}
      aria-label="Lab results"
    >
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
  );
}
