import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { clinicInstant } from './clock.ts';

describe('the clinic wall clock as an instant', () => {
  it('reads a date and time in the clinic zone, in winter and in summer', () => {
    assert.equal(clinicInstant('2026-01-15', '02:30', 'Europe/Berlin').toISOString(), '2026-01-15T01:30:00.000Z');
    assert.equal(clinicInstant('2026-07-15', '02:30', 'Europe/Berlin').toISOString(), '2026-07-15T00:30:00.000Z');
    assert.equal(clinicInstant('2026-07-15', '23:45', 'America/New_York').toISOString(), '2026-07-16T03:45:00.000Z');
  });

  it('keeps the wall time on the days the clocks change, and moves a time the clocks skip by an hour', () => {
    assert.equal(clinicInstant('2026-10-25', '04:00', 'Europe/Berlin').toISOString(), '2026-10-25T03:00:00.000Z');
    assert.equal(clinicInstant('2026-03-29', '04:00', 'Europe/Berlin').toISOString(), '2026-03-29T02:00:00.000Z');
    const skipped = clinicInstant('2026-03-29', '02:30', 'Europe/Berlin').toISOString();
    assert.ok(['2026-03-29T00:30:00.000Z', '2026-03-29T01:30:00.000Z'].includes(skipped), skipped);
  });
});
