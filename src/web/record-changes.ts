/** What an amendment changed: each field of a record version that differs from the version before it. */
import type { RecordHistoryJson } from '../domain/records/records-shapes.ts';

type RecordVersion = RecordHistoryJson['history'][number];

export interface FieldChange {
  label: string;
  before: string;
  after: string;
}

const fields: { label: string; read: (version: RecordVersion) => string }[] = [
  { label: 'Disease', read: (version) => version.disease?.name ?? '' },
  { label: 'Diagnosis', read: (version) => version.diagnosis },
  { label: 'Prescriptions', read: (version) => version.prescriptions },
  { label: 'Lab tests', read: (version) => version.lab_tests },
];

/** The fields of a version, labelled, for the version first recorded. */
export function recordFields(version: RecordVersion): { label: string; value: string }[] {
  return fields.map(({ label, read }) => ({ label, value: read(version) }));
}

/** The fields whose text differs between two consecutive versions, in the record's field order. */
export function recordChanges(before: RecordVersion, after: RecordVersion): FieldChange[] {
  return fields
    .map(({ label, read }) => ({ label, before: read(before), after: read(after) }))
    .filter((change) => change.before !== change.after);
}
