/**
 * The doctor's Results to review: their department's escalated critical values to acknowledge, then their own
 * signed-off lab reports not yet reviewed, critical first, then abnormal.
 */
import { useState } from 'react';
import type { ListJson } from '../../../http/answers.ts';
import { Alert } from '../../components/alert.tsx';
import { DepartmentCriticalResults } from '../../components/department-critical-results.tsx';
import type { ReviewEntryJson } from '../../components/lab-labels.ts';
import { LabOrderCard } from '../../components/lab-order-card.tsx';
import { PanelBody } from '../../components/list-states.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { ALL, useAlert } from '../../components/use-alert.ts';
import { useLoaded } from '../../components/use-fetched.ts';
import { endpoints } from '../../paths.ts';

const RANK_LABELS = { critical: 'Critical', abnormal: 'Abnormal', normal: 'Normal' } as const;

export default function ResultsToReviewPage() {
  const { alert, setAlert, dismiss } = useAlert();
  const [reloadKey, setReloadKey] = useState(0);
  const { loaded, retry } = useLoaded<ListJson<'results', ReviewEntryJson>>(
    endpoints.lab.toReview,
    'Results to review',
    ALL,
    reloadKey,
  );
  return (
    <>
      <PageHeader title="Results to review" />
      <Alert message={alert} onDismiss={dismiss} />
      <DepartmentCriticalResults
        setAlert={setAlert}
        reloadKey={reloadKey}
        onChanged={() => setReloadKey((key) => key + 1)}
      />
      <PanelBody loaded={loaded} retry={retry} what="Results to review" skeleton={<div className="card lab-order" />}>
        {(answer) =>
          answer.results.length === 0 ? (
            <p className="empty">No results wait for your review.</p>
          ) : (
            <ol className="lab-orders">
              {answer.results.map((entry) => (
                <li key={entry.order.id} className={`lab-rank-${entry.rank}`}>
                  <p className={`lab-rank lab-rank-${entry.rank}`}>{RANK_LABELS[entry.rank]}</p>
                  <LabOrderCard
                    order={entry.order}
                    showPatient
                    setAlert={setAlert}
                    onChanged={() => setReloadKey((key) => key + 1)}
                  />
                </li>
              ))}
            </ol>
          )
        }
      </PanelBody>
    </>
  );
}
