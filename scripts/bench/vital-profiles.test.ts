import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import { DETERIORATING_STEPS, STABLE_PROFILES, VITAL_PROFILES } from './vital-profiles.ts';

describe('the generated vital-sign profiles', () => {
  it('are stable patients (NEWS2 0 to 2, no alert) and one who rises from 1 to 7 (high risk, continuous)', () => {
    const stable = VITAL_PROFILES.slice(0, STABLE_PROFILES);
    assert.ok(stable.every((p) => p.total <= 2 && p.risk === 'low'));
    const rising = VITAL_PROFILES.slice(STABLE_PROFILES);
    assert.equal(rising.length, DETERIORATING_STEPS);
    assert.deepEqual(
      rising.map((p) => p.total),
      [1, 2, 3, 5, 6, 7],
    );
    assert.deepEqual(
      rising.map((p) => p.risk),
      ['low', 'low', 'low', 'medium', 'medium', 'high'],
    );
  });

  it('are due again as Medora times the next set: 4 hours at 1 to 4, hourly at 5 and 6, 15 minutes at 7', () => {
    const due = new Map(VITAL_PROFILES.map((p) => [p.total, p.dueMinutes]));
    assert.deepEqual([due.get(0), due.get(1), due.get(5), due.get(7)], [720, 240, 60, 15]);
  });
});
