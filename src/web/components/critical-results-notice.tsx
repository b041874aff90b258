/**
 * On the doctor's day: their critical lab values not yet acknowledged, their department's gone 30 minutes
 * unacknowledged, and their results waiting for review.
 */
import { Link } from 'wouter';
import type { ListJson } from '../../http/answers.ts';
import type { EscalatedAlertJson, ReviewEntryJson } from './lab-labels.ts';
import { useFetched } from './use-fetched.ts';
import { endpoints, routes } from '../paths.ts';
import { ALL } from './use-alert.ts';

export function CriticalResultsNotice() {
  const answer = useFetched<ListJson<'results', ReviewEntryJson>>(endpoints.lab.toReview, 'Results to review', ALL);
  const department = useFetched<ListJson<'alerts', EscalatedAlertJson>>(
    endpoints.lab.departmentCriticals,
    "The department's critical results",
    ALL,
  );
  const escalated = department?.total ?? 0;
  if (!answer || answer.total + escalated === 0) return null;
  const critical = answer.results.flatMap((r) => r.order.report.critical_alerts).filter((a) => !a.acknowledged_at);
  return (
    <section
      className={critical.length + escalated > 0 ? 'lab-notice lab-notice-critical' : 'lab-notice'}
      aria-label="Lab results"
    >
      <p>
        {critical.length > 0 && (
          <strong>
            {critical.length === 1 ? '1 critical result' : `${critical.length} critical results`} to acknowledge.{' '}
          </strong>
        )}
        {escalated > 0 && (
          <strong>
            {escalated === 1 ? "1 of your department's" : `${escalated} of your department's`} critical results left
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
