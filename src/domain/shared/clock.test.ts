import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { clinicDateTime, clinicInstant } from './clock.ts';

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

describe('the clinic wall clock of an instant', () => {
  const reference = (instant: Date, timeZone: string) => {
    const at = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      dateStyle: 'short',
      timeStyle: 'short',
      hourCycle: 'h23',
    }).format(instant);
    return { date: at.slice(0, 10), time: at.slice(11, 16) };
  };

  it('reads the same as a formatter made afresh, second by second across a change of clocks, zone after zone', () => {
    // 01:00 UTC on 25 October 2026: Berlin's clocks go back from 03:00 to 02:00.
    const change = Date.UTC(2026, 9, 25, 1, 0, 0);
    for (let second = -90; second <= 90; second++) {
      for (const zone of ['Europe/Berlin', 'Asia/Kolkata', 'Europe/Berlin', 'America/St_Johns']) {
        const instant = new Date(change + second * 1000);
        assert.deepEqual(
          clinicDateTime(instant, zone),
          reference(instant, zone),
          `${instant.toISOString()} in ${zone}`,
        );
      }
    }
  });

  it('reads the seconds of an offset that had them, as Monrovia did until 1972', () => {
    for (const second of [0, 20, 40, 59]) {
      const instant = new Date(Date.UTC(1960, 0, 1, 12, 0, second));
      assert.deepEqual(
        clinicDateTime(instant, 'Africa/Monrovia'),
        reference(instant, 'Africa/Monrovia'),
        instant.toISOString(),
      );
    }
  });
});
