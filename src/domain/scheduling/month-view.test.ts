import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import { monthDays, monthSpan, nextMonth, previousMonth } from './month-view.ts';
import type { WeeklySlot } from './scheduling.ts';
import type { TimeOff } from './time-off.ts';

const slot = (id: number, weekday: number, startTime: string, endTime: string): WeeklySlot => ({
  id,
  doctorId: 1,
  weekday,
  startTime,
  endTime,
  room: null,
  retired: false,
});
// Mondays two slots, Wednesdays one.
const pattern = [slot(1, 1, '09:00', '09:30'), slot(2, 1, '09:30', '10:00'), slot(3, 3, '14:00', '14:30')];
const off = (id: number, startsOn: string, endsOn: string, doctor: boolean, reason: string): TimeOff => ({
  id,
  startsOn,
  endsOn,
  startTime: null,
  endTime: null,
  doctor: doctor ? { id: 1, name: 'Dr. Ada' } : null,
  reason,
});
// Monday 3 June 2030, 09:15 at the clinic: the first Monday slot has started.
const now = { date: '2030-06-03', time: '09:15' };
const window = { from: '2030-06-03', to: '2030-08-02' };

describe('a doctor month for booking', () => {
  it('spans the calendar month and steps across years', () => {
    assert.deepEqual(monthSpan('2030-02'), { first: '2030-02-01', last: '2030-02-28' });
    assert.deepEqual(monthSpan('2030-12'), { first: '2030-12-01', last: '2030-12-31' });
    assert.equal(nextMonth('2030-12'), '2031-01');
    assert.equal(previousMonth('2031-01'), '2030-12');
    assert.equal(nextMonth('2030-01'), '2030-02');
  });

  it('tells each day open with its free slots, full, closed and why, off, or outside the window', () => {
    const days = monthDays(
      '2030-06',
      window,
      {
        pattern,
        taken: [{ date: '2030-06-05', startTime: '14:00', endTime: '14:30' }],
        timeOff: [
          off(1, '2030-06-10', '2030-06-12', true, 'Conference'),
          off(2, '2030-06-12', '2030-06-12', false, 'Founders Day'),
        ],
      },
      now,
    );
    const at = (date: string) => {
      const day = days.find((d) => d.date === date);
      assert.ok(day, date);
      return { state: day.state, free: day.free, why: day.closedBy?.reason ?? null };
    };
    assert.equal(days.length, 30);
    assert.deepEqual(at('2030-06-01'), { state: 'outside', free: 0, why: null }, 'before today');
    assert.deepEqual(at('2030-06-03'), { state: 'open', free: 1, why: null }, '09:00 has started');
    assert.deepEqual(at('2030-06-04'), { state: 'off', free: 0, why: null });
    assert.deepEqual(at('2030-06-05'), { state: 'full', free: 0, why: null });
    assert.deepEqual(at('2030-06-10'), { state: 'closed', free: 0, why: 'Conference' }, 'leave');
    assert.deepEqual(at('2030-06-12'), { state: 'closed', free: 0, why: 'Founders Day' }, 'the closure comes first');
    assert.deepEqual(at('2030-06-17'), { state: 'open', free: 2, why: null });
  });

  it('marks the days after the booking window outside', () => {
    const days = monthDays('2030-08', window, { pattern, taken: [], timeOff: [] }, now);
    assert.equal(days.find((d) => d.date === '2030-08-02')?.state, 'off');
    assert.equal(days.find((d) => d.date === '2030-08-05')?.state, 'outside');
  });
});
