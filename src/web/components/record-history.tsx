/** An amended record's mark and its every version, with who wrote it, when and why; nothing for one never amended. */
import type { MedicalRecordJson } from '../../domain/records/records-shapes.ts';
import { formatDateTime } from '../format.ts';
import { StatusBadge } from './status-badge.tsx';

type History = Pick<MedicalRecordJson, 'amended' | 'history'>;

export function RecordHistory({ record }: { record: History }) {
  if (!record.amended) return null;
  return (
    <details className="record-history">
      <summary>
        <StatusBadge status="amended" /> History ({record.history.length} versions)
      </summary>
      <ol reversed>
        {[...record.history].reverse().map((version) => (
          <li key={version.version}>
            <p>
              <strong>Version {version.version}</strong>, {version.reason === null ? 'recorded' : 'amended'} by{' '}
              {version.written_by.name} on {formatDateTime(version.written_at)}
              {version.reason !== null && <>: “{version.reason}”</>}
            </p>
            <dl className="details details-compact">
              <dt>Disease</dt>
              <dd>{version.disease?.name || 'N/A'}</dd>
              <dt>Diagnosis</dt>
              <dd>{version.diagnosis}</dd>
              <dt>Prescriptions</dt>
              <dd>{version.prescriptions || 'None'}</dd>
              <dt>Lab tests</dt>
              <dd>{version.lab_tests || 'None'}</dd>
            </dl>
          </li>
        ))}
      </ol>
    </details>
  );
}
