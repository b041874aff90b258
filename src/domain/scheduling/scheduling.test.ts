import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { clinicDateTime } from '../shared/clock.ts';
import { canRecordNow } from './lifecycle.ts';
import {
  agendaDates,
  dateOutOfRange,
  freeDays,
  hasStarted,
  periodOf,
  slotStatus,
  type Appointment,
  type WeeklySlot,
} from './scheduling.ts';

const span = (startTime: string, endTime: string) => ({ startTime, endTime });

describe('periodOf', () => {
  it('puts a slot starting before noon in AM and one from noon on in PM', () => {
    assert.deepEqual(['00:00', '11:59', '12:00', '12:30', '23:30'].map(periodOf), ['AM', 'AM', 'PM', 'PM', 'PM']);
  });
});

describe('dateOutOfRange', () => {
  it('allows today up to 60 days ahead', () => {
    assert.equal(dateOutOfRange('2026-06-10', '2026-06-10'), undefined);
    assert.equal(dateOutOfRange('2026-08-09', '2026-06-10'), undefined);
  });

  it('refuses a past date and one more than 60 days ahead', () => {
    assert.equal(dateOutOfRange('2026-06-09', '2026-06-10'), 'must not be in the past');
    assert.equal(dateOutOfRange('2026-08-10', '2026-06-10'), 'must be at most 60 days ahead');
  });
});

describe('slotStatus', () => {
  const now = { date: '2026-06-10', time: '10:15' };

  it('marks a slot of today past once its start time has come', () => {
    assert.equal(slotStatus(span('10:00', '10:30'), '2026-06-10', now, []), 'past');
    assert.equal(slotStatus(span('10:15', '10:45'), '2026-06-10', now, []), 'past');
    assert.equal(slotStatus(span('10:30', '11:00'), '2026-06-10', now, []), 'available');
    assert.equal(slotStatus(span('08:00', '08:30'), '2026-06-11', now, []), 'available');
  });

  it('marks a slot booked when any appointment overlaps it, even one starting at another time', () => {
    const bookings = [span('11:00', '11:30')];
    assert.equal(slotStatus(span('11:00', '11:30'), '2026-06-11', now, bookings), 'booked');
    assert.equal(slotStatus(span('10:45', '11:15'), '2026-06-11', now, bookings), 'booked');
    assert.equal(slotStatus(span('11:30', '12:00'), '2026-06-11', now, bookings), 'available');
  });

  it('calls a past slot past even when it is booked', () => {
    assert.equal(slotStatus(span('09:00', '09:30'), '2026-06-10', now, [span('09:00', '09:30')]), 'past');
  });
});

describe('freeDays', () => {
  // Wednesday 2026-06-10, 16:45 in the clinic: today's slots are over.
  const now = { date: '2026-06-10', time: '16:45' };
  let id = 0;
  const weekly = (weekday: number, startTime: string, endTime: string): WeeklySlot => ({
    id: ++id,
    doctorId: 1,
    weekday,
    startTime,
    endTime,
    room: null,
    retired: false,
  });
  // Wednesdays and Fridays, 09:00 and 16:00.
  const pattern = [
    weekly(3, '09:00', '09:30'),
    weekly(3, '16:00', '16:30'),
    weekly(5, '09:00', '09:30'),
    weekly(5, '16:00', '16:30'),
  ];
  const dates = (days: { date: string }[]) => days.map((day) => day.date);

  it('skips a day that is over and the weekdays the doctor does not work, and stops at the count', () => {
    const days = freeDays(pattern, [], [], { from: '2026-06-10', to: '2026-08-09', count: 3 }, now);
    assert.deepEqual(dates(days), ['2026-06-12', '2026-06-17', '2026-06-19']);
    assert.deepEqual(
      days[0]?.slots.map((slot) => slot.startTime),
      ['09:00', '16:00'],
    );
  });

  it('leaves out booked slots and days fully booked', () => {
    const bookings = [
      { date: '2026-06-12', startTime: '09:00', endTime: '09:30' },
      { date: '2026-06-12', startTime: '16:00', endTime: '16:30' },
      { date: '2026-06-17', startTime: '09:00', endTime: '09:30' },
    ];
    const days = freeDays(pattern, bookings, [], { from: '2026-06-11', to: '2026-08-09', count: 2 }, now);
    assert.deepEqual(dates(days), ['2026-06-17', '2026-06-19']);
    assert.deepEqual(
      days[0]?.slots.map((slot) => slot.startTime),
      ['16:00'],
    );
  });

  it("skips the slots of a doctor's leave and every slot of a clinic closure", () => {
    const timeOff = [
      { startsOn: '2026-06-12', endsOn: '2026-06-12', startTime: '08:00', endTime: '12:00' },
      { startsOn: '2026-06-17', endsOn: '2026-06-17', startTime: null, endTime: null },
    ];
    const days = freeDays(pattern, [], timeOff, { from: '2026-06-11', to: '2026-08-09', count: 2 }, now);
    assert.deepEqual(dates(days), ['2026-06-12', '2026-06-19']);
    assert.deepEqual(
      days[0]?.slots.map((slot) => slot.startTime),
      ['16:00'],
    );
  });

  it('finds nothing past the end of the window or for a doctor with no pattern', () => {
    assert.deepEqual(freeDays(pattern, [], [], { from: '2026-06-13', to: '2026-06-16', count: 3 }, now), []);
    assert.deepEqual(freeDays([], [], [], { from: '2026-06-10', to: '2026-08-09', count: 3 }, now), []);
  });
});

describe('clinic time across daylight-saving changes', () => {
  it('reads Berlin wall-clock time on the spring-forward day (2026-03-29, 02:00 → 03:00)', () => {
    // 07:30 UTC is 09:30 in Berlin after the change; the winter offset would wrongly say 08:30.
    const now = clinicDateTime(new Date('2026-03-29T07:30:00Z'), 'Europe/Berlin');
    assert.deepEqual(now, { date: '2026-03-29', time: '09:30' });
    assert.equal(slotStatus(span('09:00', '09:30'), '2026-03-29', now, []), 'past');
    assert.equal(slotStatus(span('09:30', '10:00'), '2026-03-29', now, []), 'past');
    assert.equal(slotStatus(span('10:00', '10:30'), '2026-03-29', now, []), 'available');
  });

  it("takes the clinic's date, not UTC's, around midnight of a DST day", () => {
    // 23:30 UTC on 28 March is already 00:30 on the 29th in Berlin: today is the 29th, the 28th is past.
    const now = clinicDateTime(new Date('2026-03-28T23:30:00Z'), 'Europe/Berlin');
    assert.equal(now.date, '2026-03-29');
    assert.equal(dateOutOfRange('2026-03-28', now.date), 'must not be in the past');
    assert.equal(hasStarted('2026-03-29', '00:30', now), true);
    assert.equal(hasStarted('2026-03-29', '09:00', now), false);
  });

  it('reads New York wall-clock time on the fall-back day (2026-11-01, 02:00 → 01:00)', () => {
    // 14:00 UTC is 09:00 EST after the change; the summer offset would say 10:00.
    const now = clinicDateTime(new Date('2026-11-01T14:00:00Z'), 'America/New_York');
    assert.deepEqual(now, { date: '2026-11-01', time: '09:00' });
    assert.equal(slotStatus(span('09:00', '09:30'), '2026-11-01', now, []), 'past');
    assert.equal(slotStatus(span('09:30', '10:00'), '2026-11-01', now, []), 'available');
  });
});

describe("the doctor's agenda", () => {
  it('shows a day alone, or its week from Monday to Sunday, across a year end too', () => {
    assert.deepEqual(agendaDates('2026-06-10', 'day'), {
      from: '2026-06-10',
      to: '2026-06-10',
      dates: ['2026-06-10'],
      step: 1,
    });
    const sunday = agendaDates('2026-06-14', 'week');
    assert.deepEqual([sunday.from, sunday.to], ['2026-06-08', '2026-06-14']);
    assert.deepEqual(agendaDates('2026-12-31', 'week').dates, [
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });

  it('offers the record of a scheduled or checked-in visit once it has begun, never of a closed one', () => {
    const now = { date: '2026-06-10', time: '10:10' };
    const visit = (status: Appointment['status'], date: string, startTime: string): Appointment => ({
      id: 1,
      date,
      startTime,
      endTime: startTime,
      status,
      patient: { id: 1, name: 'Ann', email: 'ann@example.test' },
      patientBirthDate: null,
      doctor: { id: 2, name: 'Dr. Grey', email: 'grey@example.test' },
      department: null,
      room: null,
      sequence: 0,
    });
    assert.equal(canRecordNow(visit('scheduled', '2026-06-10', '10:00'), now), true);
    assert.equal(canRecordNow(visit('scheduled', '2026-06-09', '16:00'), now), true);
    assert.equal(canRecordNow(visit('checked_in', '2026-06-10', '10:00'), now), true);
    assert.equal(canRecordNow(visit('no_show', '2026-06-10', '09:00'), now), false);
    assert.equal(canRecordNow(visit('scheduled', '2026-06-10', '10:30'), now), false);
    assert.equal(canRecordNow(visit('completed', '2026-06-10', '09:00'), now), false);
    assert.equal(canRecordNow(visit('cancelled', '2026-06-10', '09:00'), now), false);
  });
});
