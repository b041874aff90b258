import type { DischargeSummaryJson } from '../../domain/inpatient/inpatient-shapes.ts';
import { formatDateTime } from '../format.ts';

const SECTIONS = [
  ['diagnosis', 'Diagnosis'],
  ['treatment', 'Treatment'],
  ['medication', 'Medication'],
  ['instructions', 'Instructions'],
  ['follow_up', 'Follow-up'],
] as const;

/** What the doctor wrote when ordering the discharge, section by section, and who wrote it when. */
export function DischargeSummaryView({ summary }: { summary: DischargeSummaryJson }) {
  return (
    <dl className="details summary-sections">
      {SECTIONS.map(([key, label]) => (
        <div key={key} className="summary-section">
          <dt>{label}</dt>
          <dd>{summary[key] || 'None'}</dd>
        </div>
      ))}
      <div className="summary-section">
        <dt>Written by</dt>
        <dd>
          {summary.doctor.name}, {formatDateTime(summary.written_at)}
        </dd>
      </div>
    </dl>
  );
}
