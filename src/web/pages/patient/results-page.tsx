/**
 * My results: the lab results a doctor released (or the clinic released after its set days), each with its usual
 * range in plain words and how the value stands against it, a trend per test, and what a correction changed.
 */
import type { ListJson } from '../../../http/answers.ts';
import { valueText, type MyResultJson } from '../../components/lab-labels.ts';
import { PanelBody } from '../../components/list-states.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Trends } from '../../components/trend-chart.tsx';
import { ALL } from '../../components/use-alert.ts';
import { useLoaded } from '../../components/use-fetched.ts';
import { formatDateTime } from '../../format.ts';
import { endpoints } from '../../paths.ts';
import { PrintButton } from '../../components/print-button.tsx';
import { MyPrintHead } from './my-print-head.tsx';

/** "Usual range 3.5 to 5 mmol/L — your value is above the usual range". */
const rangeSentence = (r: MyResultJson) =>
  r.interpretation ? `${r.range} — your value is ${r.interpretation.toLowerCase()}` : r.range;

export default function MyResultsPage() {
  const { loaded, retry } = useLoaded<ListJson<'results', MyResultJson>>(endpoints.lab.myResults, 'Your results', ALL);
  return (
    <>
      <PageHeader title="My Results">
        {loaded.state === 'loaded' && loaded.value.results.length > 0 && <PrintButton />}
      </PageHeader>
      <PanelBody loaded={loaded} retry={retry} what="Your results" skeleton={<div className="card lab-order" />}>
        {({ results }) =>
          results.length === 0 ? (
            <p className="empty">No results yet. Your doctor releases them here once they have seen them.</p>
          ) : (
            <div className="printout lab-report">
              <MyPrintHead title="Laboratory results" />
              <Trends
                entries={results
                  .filter((r) => r.value_type === 'quantity')
                  .map((r) => ({
                    code: r.code,
                    name: r.name,
                    unit: r.unit,
                    reference: r.reference,
                    point: { at: r.effective_at, value: r.value, flag: r.flag },
                  }))}
              />
              <section aria-labelledby="results-heading">
                <h2 id="results-heading">Results</h2>
                <ul className="my-results">
                  {results.map((r) => (
                    <li key={r.id} className="card my-result">
                      <h3>{r.name}</h3>
                      <p className="my-result-value">
                        <strong>{valueText(r)}</strong>
                        {r.corrected && <span className="badge badge-corrected">Corrected</span>}
                      </p>
                      {r.value_type === 'quantity' && <p>{rangeSentence(r)}</p>}
                      <p className="muted">
                        {formatDateTime(r.effective_at)} · order {r.order_number}
                      </p>
                      {r.history.length > 0 && (
                        <div className="correction-history">
                          <p>What changed:</p>
                          <ol>
                            {r.history.map((v) => (
                              <li key={v.recorded_at}>
                                <strong>{valueText(v)}</strong> — {formatDateTime(v.recorded_at)}
                                {v.reason ? `: ${v.reason}` : ''}
                              </li>
                            ))}
                          </ol>
                        </div>
                      )}
                    </li>
                  ))}
                </ul>
              </section>
            </div>
          )
        }
      </PanelBody>
    </>
  );
}
