import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { openSlots, type WeeklySlot } from './scheduling.ts';
import { closedBy, covers } from './time-off.ts';

const span = (startTime: string, endTime: string) => ({ startTime, endTime });
const weekly = (id: number, weekday: number, startTime: string, endTime: string): WeeklySlot => ({
  id,
  doctorId: 1,
  weekday,
  startTime,
  endTime,
  room: null,
  retired: false,
});

describe('covers', () => {
  const days = { startsOn: '2026-06-16', endsOn: '2026-06-18', startTime: null, endTime: null };
  const afternoon = { startsOn: '2026-06-16', endsOn: '2026-06-16', startTime: '13:00', endTime: '17:00' };

  it('takes away every slot of whole days, first to last', () => {
    assert.equal(covers(days, '2026-06-16', span('09:00', '09:20')), true);
    assert.equal(covers(days, '2026-06-18', span('16:40', '17:00')), true);
    assert.equal(covers(days, '2026-06-15', span('09:00', '09:20')), false);
    assert.equal(covers(days, '2026-06-19', span('09:00', '09:20')), false);
  });

  it('takes away only the slots that overlap part of a day', () => {
    assert.equal(covers(afternoon, '2026-06-16', span('12:40', '13:00')), false);
    assert.equal(covers(afternoon, '2026-06-16', span('12:50', '13:10')), true);
    assert.equal(covers(afternoon, '2026-06-16', span('16:40', '17:00')), true);
    assert.equal(covers(afternoon, '2026-06-17', span('14:00', '14:20')), false);
  });
});

describe('openSlots', () => {
  // Tuesday 2026-06-16: a doctor's leave; Wednesday 2026-06-17: a clinic closure (a holiday).
  const pattern = [
    weekly(1, 2, '09:00', '09:20'),
    weekly(2, 2, '13:30', '13:50'),
    weekly(3, 3, '09:00', '09:20'),
    weekly(4, 4, '09:00', '09:20'),
  ];
  const leave = {
    id: 1,
    doctor: { id: 1, name: 'Dr. Ada' },
    startsOn: '2026-06-16',
    endsOn: '2026-06-16',
    startTime: null,
    endTime: null,
    reason: '',
  };
  const closure = {
    id: 2,
    doctor: null,
    startsOn: '2026-06-17',
    endsOn: '2026-06-17',
    startTime: null,
    endTime: null,
    reason: 'Holiday',
  };

  it("gives the day's slots of the weekly pattern when nothing is off", () => {
    assert.deepEqual(
      openSlots(pattern, '2026-06-23', []).map((s) => s.id),
      [1, 2],
    );
  });

  it("removes every slot of a doctor's leave day and of a closure day, and no other day's", () => {
    assert.deepEqual(openSlots(pattern, '2026-06-16', [leave, closure]), []);
    assert.deepEqual(openSlots(pattern, '2026-06-17', [leave, closure]), []);
    assert.deepEqual(
      openSlots(pattern, '2026-06-18', [leave, closure]).map((s) => s.id),
      [4],
    );
  });

  it('says which time off closed a slot', () => {
    assert.equal(closedBy([leave, closure], '2026-06-17', span('09:00', '09:20'))?.reason, 'Holiday');
    assert.equal(closedBy([leave, closure], '2026-06-18', span('09:00', '09:20')), undefined);
  });
});
