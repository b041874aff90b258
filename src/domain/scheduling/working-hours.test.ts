import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../shared/errors.ts';
import { defaultHours, rangesOf, readHours, sameHours, slotsOf, type HoursRange } from './working-hours.ts';

const range = (
  weekday: number,
  startTime: string,
  endTime: string,
  slotMinutes: number,
  roomId: number | null = null,
): HoursRange => ({
  weekday,
  startTime,
  endTime,
  slotMinutes,
  roomId,
});
const times = (plan: { weekday: number; startTime: string; endTime: string }[]) =>
  plan.map((s) => `${s.weekday} ${s.startTime}-${s.endTime}`);

function fieldErrors(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof DomainError && error.kind === 'invalid', `expected an invalid error, got ${error}`);
    return error.fields ?? {};
  }
  assert.fail('expected the input to be refused');
}

describe('slotsOf', () => {
  it('cuts each range into back-to-back slots of its own length and room, with no slot in a lunch break', () => {
    const plan = slotsOf([range(1, '13:30', '14:30', 20, 4), range(1, '09:00', '10:00', 30, 3)]);
    assert.deepEqual(times(plan), [
      '1 09:00-09:30',
      '1 09:30-10:00',
      '1 13:30-13:50',
      '1 13:50-14:10',
      '1 14:10-14:30',
    ]);
    assert.deepEqual(
      plan.map((s) => s.roomId),
      [3, 3, 4, 4, 4],
    );
  });

  it('gives a Monday-to-Friday doctor of 09:00–12:30 and 13:30–17:00 in 20-minute slots 10 + 10 slots a day', () => {
    const week = [1, 2, 3, 4, 5].flatMap((day) => [range(day, '09:00', '12:30', 20), range(day, '13:30', '17:00', 20)]);
    const plan = slotsOf(week);
    assert.equal(plan.length, 5 * 20);
    const monday = plan.filter((s) => s.weekday === 1);
    assert.deepEqual(times(monday.slice(9, 11)), ['1 12:00-12:20', '1 13:30-13:50']);
    assert.ok(!monday.some((s) => s.startTime >= '12:20' && s.startTime < '13:30'), 'no slot in the lunch break');
  });

  it('leaves a remainder too short for a whole slot free', () => {
    assert.deepEqual(times(slotsOf([range(2, '13:00', '14:50', 45)])), ['2 13:00-13:45', '2 13:45-14:30']);
  });

  it('gives a new doctor Monday to Friday, 09:00 to 17:00, in 30-minute slots', () => {
    const week = slotsOf(defaultHours(5));
    assert.equal(week.length, 5 * 16);
    assert.deepEqual(week[0], { weekday: 1, startTime: '09:00', endTime: '09:30', roomId: 5 });
    assert.deepEqual(week.at(-1), { weekday: 5, startTime: '16:30', endTime: '17:00', roomId: 5 });
  });
});

describe('rangesOf', () => {
  it('joins back-to-back slots of one length and room, and gives the very slots back', () => {
    const plan = [
      ...slotsOf([range(1, '09:00', '10:00', 20, 1)]),
      { weekday: 1, startTime: '10:00', endTime: '10:30', roomId: 1 },
      { weekday: 1, startTime: '11:00', endTime: '11:20', roomId: 1 },
    ];
    const ranges = rangesOf(plan);
    assert.deepEqual(ranges, [
      range(1, '09:00', '10:00', 20, 1),
      range(1, '10:00', '10:30', 30, 1),
      range(1, '11:00', '11:20', 20, 1),
    ]);
    assert.deepEqual(slotsOf(ranges), plan);
  });
});

describe('sameHours', () => {
  it('says whether hours are exactly the saved ones, in any order', () => {
    const saved = [
      { weekday: 1, startTime: '09:00', endTime: '12:00', slotMinutes: 20, room: { id: 2, name: 'Room 2' } },
      { weekday: 1, startTime: '13:00', endTime: '17:00', slotMinutes: 20, room: null },
    ];
    assert.equal(sameHours([range(1, '13:00', '17:00', 20), range(1, '09:00', '12:00', 20, 2)], saved), true);
    assert.equal(sameHours([range(1, '13:00', '17:00', 30), range(1, '09:00', '12:00', 20, 2)], saved), false);
    assert.equal(sameHours([range(1, '09:00', '12:00', 20, 2)], saved), false);
  });
});

describe('readHours', () => {
  it('reads any number of ranges a day, each with its slot length and room', () => {
    const hours = readHours({
      hours: [
        { weekday: 1, start_time: '09:00', end_time: '12:30', slot_minutes: 20, room_id: 3 },
        { weekday: '1', start_time: '13:30', end_time: '17:00', slot_minutes: '15' },
      ],
    });
    assert.deepEqual(hours, [range(1, '09:00', '12:30', 20, 3), range(1, '13:30', '17:00', 15)]);
  });

  it('reads the same hours on several days, as older clients send them', () => {
    assert.deepEqual(
      readHours({ days: [6, '7'], start_time: '08:00', end_time: '09:00', slot_minutes: 20, room_id: 3 }),
      [range(6, '08:00', '09:00', 20, 3), range(7, '08:00', '09:00', 20, 3)],
    );
  });

  it('reads explicit slots as ranges, each with its own room', () => {
    const hours = readHours({
      slots: [
        { weekday: 2, start_time: '14:00', end_time: '14:45', room_id: 9 },
        { weekday: 4, start_time: '08:15', end_time: '09:00' },
      ],
    });
    assert.deepEqual(hours, [range(2, '14:00', '14:45', 45, 9), range(4, '08:15', '09:00', 45)]);
  });

  it('accepts an empty week, for a doctor who takes no bookings', () => {
    assert.deepEqual(readHours({ hours: [] }), []);
    assert.deepEqual(readHours({ slots: [] }), []);
  });

  it('refuses overlapping ranges or slots and names both', () => {
    assert.deepEqual(
      fieldErrors(() =>
        readHours({
          hours: [
            { weekday: 1, start_time: '09:00', end_time: '12:30', slot_minutes: 20 },
            { weekday: 1, start_time: '12:00', end_time: '17:00', slot_minutes: 20 },
          ],
        }),
      ),
      { hours: ['Monday 12:00–17:00 overlaps Monday 09:00–12:30'] },
    );
    assert.deepEqual(
      fieldErrors(() =>
        readHours({
          slots: [
            { weekday: 1, start_time: '09:00', end_time: '10:00' },
            { weekday: 1, start_time: '09:30', end_time: '10:30' },
          ],
        }),
      ),
      { slots: ['Monday 09:30–10:30 overlaps Monday 09:00–10:00'] },
    );
  });

  it('names every bad field of every range', () => {
    const errors = fieldErrors(() =>
      readHours({
        hours: [
          { weekday: 8, start_time: '9am', end_time: '10:00', slot_minutes: 20 },
          { weekday: 1, start_time: '11:00', end_time: '12:00', slot_minutes: 90, room_id: 'x' },
          { weekday: 2, start_time: '11:00', end_time: '10:00', slot_minutes: 2 },
        ],
      }),
    );
    assert.deepEqual(errors, {
      'hours[0].weekday': ['must be a weekday from 1 (Monday) to 7 (Sunday)'],
      'hours[0].start_time': ['must be a time as HH:mm'],
      'hours[1].slot_minutes': ['must fit between start_time and end_time'],
      'hours[1].room_id': ['must be a valid id'],
      'hours[2].end_time': ['must be after start_time'],
      'hours[2].slot_minutes': ['must be between 5 and 480'],
    });
    assert.deepEqual(
      fieldErrors(() => readHours({ hours: 'mornings' })),
      { hours: ['must be a list'] },
    );
  });

  it('names every bad field of hours on several days', () => {
    assert.deepEqual(
      fieldErrors(() => readHours({ days: [1, 1], start_time: '17:00', end_time: '09:00', slot_minutes: 0 })),
      {
        days: ['must not repeat a weekday'],
        end_time: ['must be after start_time'],
        slot_minutes: ['must be a valid id'],
      },
    );
    assert.deepEqual(
      fieldErrors(() => readHours({ days: [0], start_time: '09:00', end_time: '10:00', slot_minutes: 600 })),
      {
        days: ['each must be a weekday from 1 (Monday) to 7 (Sunday)'],
        slot_minutes: ['must be between 5 and 480'],
      },
    );
  });
});
