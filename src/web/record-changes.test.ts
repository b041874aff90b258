import assert from 'node:assert/strict';
import { describe, it } from '../testing/node-test.ts';
import { recordChanges, recordFields } from './record-changes.ts';

const first = {
  version: 1,
  disease: { id: 1, name: 'Hypertension' },
  diagnosis: 'High blood pressure',
  lab_tests: '',
  prescriptions: 'amlodipine 5 mg',
  written_by: { id: 2, name: 'Dr Grey' },
  written_at: '2026-03-01T09:00:00.000Z',
  reason: null,
};
const second = { ...first, version: 2, prescriptions: 'amlodipine 10 mg', lab_tests: 'Lipid panel', reason: 'Dose' };

describe('record changes', () => {
  it('names only the fields an amendment changed, old and new, in the record order', () => {
    assert.deepEqual(recordChanges(first, second), [
      { label: 'Prescriptions', before: 'amlodipine 5 mg', after: 'amlodipine 10 mg' },
      { label: 'Lab tests', before: '', after: 'Lipid panel' },
    ]);
  });

  it('reads a disease taken away as a change to nothing, and an unchanged version as no change', () => {
    assert.deepEqual(recordChanges(first, { ...first, version: 2, disease: null }), [
      { label: 'Disease', before: 'Hypertension', after: '' },
    ]);
    assert.deepEqual(recordChanges(first, { ...first, version: 2 }), []);
  });

  it('gives the first version every field', () => {
    assert.deepEqual(
      recordFields(first).map((field) => field.label),
      ['Disease', 'Diagnosis', 'Prescriptions', 'Lab tests'],
    );
  });
});
