/**
 * Unmatched results: results from outside (an analyser, another laboratory) whose order number matched no order,
 * oldest first, each for the lab to attach to the right order or reject with the reason.
 */
import { Alert } from '../../components/alert.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { UnmatchedResults } from '../../components/unmatched-results.tsx';
import { useAlert } from '../../components/use-alert.ts';

export default function UnmatchedPage() {
  const { alert, setAlert, dismiss } = useAlert();
  return (
    <>
      <PageHeader title="Unmatched results" />
      <p className="muted">
        Results received whose order number matched no order: attach each to its order, or reject it.
      </p>
      <Alert message={alert} onDismiss={dismiss} />
      <UnmatchedResults onDone={setAlert} />
    </>
  );
}
