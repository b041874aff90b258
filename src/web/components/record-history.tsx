/**
 * An amended record's mark and its history: the version first recorded whole, then each amendment as the fields it
 * changed (before struck, after inserted), with who wrote it, when and why; nothing for one never amended.
 */
import { Fragment } from 'react';
import type { RecordHistoryJson } from '../../domain/records/records-shapes.ts';
import { formatDateTime } from '../format.ts';
import { recordChanges, recordFields } from '../record-changes.ts';
import { StatusBadge } from './status-badge.tsx';

type RecordVersion = RecordHistoryJson['history'][number];

export function RecordHistory({ record }: { record: RecordHistoryJson }) {
  if (!record.amended) return null;
  const versions = record.history.map((version, index) => ({ version, before: record.history[index - 1] }));
  return (
    <details className="record-history">
      <summary>
        <StatusBadge status="amended" /> History ({record.history.length} versions)
      </summary>
      <ol reversed>
        {versions.reverse().map(({ version, before }) => (
          <li key={version.version}>
            <p>
              <strong>Version {version.version}</strong>, {version.reason === null ? 'recorded' : 'amended'} by{' '}
              {version.written_by.name} on {formatDateTime(version.written_at)}
              {version.reason !== null && <>: “{version.reason}”</>}
            </p>
            {before ? <VersionChanges before={before} after={version} /> : <VersionFields version={version} />}
          </li>
        ))}
      </ol>
    </details>
  );
}

function VersionFields({ version }: { version: RecordVersion }) {
  return (
    <dl className="details details-compact">
      {recordFields(version).map((field) => (
        <Fragment key={field.label}>
          <dt>{field.label}</dt>
          <dd>{field.value || 'None'}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

function VersionChanges({ before, after }: { before: RecordVersion; after: RecordVersion }) {
  const changes = recordChanges(before, after);
  if (changes.length === 0) return <p className="muted">No field changed.</p>;
  return (
    <dl className="details details-compact record-changes">
      {changes.map((change) => (
        <Fragment key={change.label}>
          <dt>{change.label} changed</dt>
          <dd>
            <span className="visually-hidden">was </span>
            <del>{change.before || 'None'}</del> <span aria-hidden="true">→</span>{' '}
            <span className="visually-hidden">now </span>
            <ins>{change.after || 'None'}</ins>
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}
