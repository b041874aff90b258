import assert from 'node:assert/strict';
import { describe, it } from '../../../testing/node-test.ts';
import { slotStarts } from './slot-starts.ts';

describe('the week preview of working hours', () => {
  it('lists each slot that ends by its range end, across a day’s ranges in time order', () => {
    const ranges = [
      { weekday: 1, start: '13:00', end: '14:00', minutes: '20' },
      { weekday: 1, start: '10:00', end: '12:10', minutes: '30' },
      { weekday: 2, start: '09:00', end: '10:00', minutes: '30' },
    ];
    assert.deepEqual(slotStarts(ranges, 1), ['10:00', '10:30', '11:00', '11:30', '13:00', '13:20', '13:40']);
    assert.deepEqual(slotStarts(ranges, 2), ['09:00', '09:30']);
    assert.deepEqual(slotStarts(ranges, 7), []);
  });

  it('gives nothing for a range still being typed', () => {
    assert.deepEqual(slotStarts([{ weekday: 3, start: '', end: '12:00', minutes: '30' }], 3), []);
    assert.deepEqual(slotStarts([{ weekday: 3, start: '09:00', end: '12:00', minutes: '' }], 3), []);
    assert.deepEqual(slotStarts([{ weekday: 3, start: '12:00', end: '09:00', minutes: '30' }], 3), []);
  });
});
