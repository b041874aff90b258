import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import { earlyMorningZone } from './clinic-zone.ts';
import { clinicDateTime } from '../../src/domain/shared/clock.ts';
import { hospitalSize, parseScale, parseScales, slotCapacity, slotStride } from './scale.ts';

describe('hospital size', () => {
  it('is the issue hospital at full scale and one percent of its people at small scale', () => {
    const full = hospitalSize(parseScale('full'));
    assert.deepEqual([full.doctors, full.patients, full.appointments], [300, 100_000, 1_000_000]);
    assert.equal(full.pastDays + full.futureDays, 730);
    const small = hospitalSize(parseScale('small'));
    assert.deepEqual([small.doctors, small.patients, small.appointments], [3, 1_000, 10_000]);
    assert.equal(small.departments, full.departments);
    const group = hospitalSize(parseScale('group'));
    assert.deepEqual([group.doctors, group.patients, group.appointments], [3_000, 1_000_000, 10_000_000]);
    assert.ok(slotCapacity(group) >= group.appointments);
  });

  it('refuses a scale that is not a share of the full hospital', () => {
    for (const bad of ['0', '-1', '11', 'huge']) assert.throws(() => parseScale(bad), /--scale/);
    assert.equal(parseScale('0.1'), 0.1);
    assert.equal(parseScale('10'), 10);
  });

  it('reads a series of scales, smallest first and each once', () => {
    assert.deepEqual(parseScales('full'), [1]);
    assert.deepEqual(parseScales('1, 0.1,small,0.01'), [0.01, 0.1, 1]);
    assert.deepEqual(parseScales('group,full'), [1, 10]);
    assert.throws(() => parseScales('0.1,20'), /--scale/);
  });

  it('walks every slot of the calendar exactly once with its stride', () => {
    const size = { ...hospitalSize(0.01), doctors: 3, pastDays: 5, futureDays: 2, slotsPerDay: 4 };
    const capacity = slotCapacity(size);
    const stride = slotStride(capacity);
    const seen = new Set(Array.from({ length: capacity }, (_, n) => (n * stride) % capacity));
    assert.equal(seen.size, capacity);
  });
});

describe('earlyMorningZone', () => {
  it('names a zone where it is between 01:00 and 02:00, for every hour of the UTC day', () => {
    for (let hour = 0; hour < 24; hour++) {
      const now = new Date(Date.UTC(2025, 2, 14, hour, 30));
      assert.equal(clinicDateTime(now, earlyMorningZone(now)).time, '01:30', `at ${hour}:30 UTC`);
    }
  });
});
