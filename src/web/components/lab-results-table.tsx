/** One order's tests and results as a table: value, flag, usual range and status, with each correction's history. */
import type { LabOrderJson } from './lab-labels.ts';
import { FLAG_LABELS, ITEM_STATUS_LABELS, isCriticalFlag, valueText, versionLine } from './lab-labels.ts';

/** `printed`: each correction's history stands open, as a printout needs it. */
export function LabResultsTable({
  order,
  caption,
  printed = false,
}: {
  order: LabOrderJson;
  caption: string;
  printed?: boolean;
}) {
  return (
    <div className="table-scroll">
      <table className="lab-results">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Test</th>
            <th scope="col">Result</th>
            <th scope="col">Flag</th>
            <th scope="col">Usual range</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item) => {
            const result = item.result;
            const flag = result?.interpretation ?? null;
            return (
              <tr key={item.id} className={isCriticalFlag(flag) ? 'lab-critical' : undefined}>
                <th scope="row">{item.name}</th>
                <td className="lab-value" data-label="Result">
                  {result ? valueText(result) : '—'}
                  {result && result.versions.length > 1 && (
                    <CorrectionHistory versions={result.versions} open={printed} />
                  )}
                </td>
                <td data-label="Flag">{flag ? FLAG_LABELS[flag] || 'Normal' : ''}</td>
                <td data-label="Usual range">{result?.value_type === 'quantity' ? result.range_words : ''}</td>
                <td data-label="Status">
                  {result ? capitalizeStatus(result.status) : ITEM_STATUS_LABELS[item.status]}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const capitalizeStatus = (status: string) => status.charAt(0).toUpperCase() + status.slice(1).replaceAll('-', ' ');

type Versions = NonNullable<LabOrderJson['items'][number]['result']>['versions'];

/** Every version of a corrected result, oldest first: the value, when, by whom and why it changed. */
export function CorrectionHistory({ versions, open }: { versions: Versions; open: boolean }) {
  return (
    <details className="correction-history" open={open}>
      <summary>Corrected: history</summary>
      <ol>
        {versions.map((v) => (
          <li key={v.version}>
            <strong>{valueText(v)}</strong> ({v.status}) — {versionLine(v)}
          </li>
        ))}
      </ol>
    </details>
  );
}
