/** On the doctor's day: their critical lab values not yet acknowledged, and their results waiting for review. */
import { Link } from 'wouter';
import type { ListJson } from '../../http/answers.ts';
import type { ReviewEntryJson } from './lab-labels.ts';
import { useFetched } from './use-fetched.ts';
import { endpoints, routes } from '../paths.ts';
import { ALL } from './use-alert.ts';

export function CriticalResultsNotice() {
  const answer = useFetched<ListJson<'results', ReviewEntryJson>>(endpoints.lab.toReview, 'Results to review', ALL);
  if (!answer || answer.total === 0) return null;
  const critical = answer.results.flatMap((r) => r.order.report.critical_alerts).filter((a) => !a.acknowledged_at);
  return (
    <section className={critical.length > 0 ? 'lab-notice lab-notice-critical' : 'lab-notice'} aria-label="Lab results">
      <p>
        {critical.length > 0 && (
          <strong>
            {critical.length === 1 ? '1 critical result' : `${critical.length} critical results`} to acknowledge.{' '}
          </strong>
        )}
        {answer.total === 1 ? '1 lab report' : `${answer.total} lab reports`} to review.
      </p>
      <Link href={routes.doctor.results} className="button button-small button-primary">
        Results to review
      </Link>
    </section>
  );
}
