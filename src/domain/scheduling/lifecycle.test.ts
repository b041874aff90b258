import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../shared/errors.ts';
import { deskActions, deskTransition, transition, type VisitEvent } from './lifecycle.ts';
import { APPOINTMENT_STATUSES, type AppointmentStatus } from './scheduling.ts';

const refusedWith = (code: string) => (error: unknown) =>
  error instanceof DomainError && error.kind === 'conflict' && error.code === code;

describe('transition', () => {
  const allowed: [AppointmentStatus, VisitEvent, AppointmentStatus][] = [
    ['scheduled', 'check_in', 'checked_in'],
    ['scheduled', 'complete', 'completed'],
    ['checked_in', 'complete', 'completed'],
    ['scheduled', 'no_show', 'no_show'],
    ['scheduled', 'cancel', 'cancelled'],
    ['checked_in', 'cancel', 'cancelled'],
    ['checked_in', 'undo_check_in', 'scheduled'],
    ['no_show', 'undo_no_show', 'scheduled'],
  ];
  for (const [from, event, to] of allowed) {
    it(`${event} moves ${from} to ${to}`, () => assert.equal(transition(from, event), to));
  }

  it('refuses every other move with 409 invalid_transition', () => {
    const events: VisitEvent[] = ['check_in', 'complete', 'no_show', 'cancel', 'undo_check_in', 'undo_no_show'];
    let refused = 0;
    for (const from of APPOINTMENT_STATUSES) {
      for (const event of events) {
        if (allowed.some(([f, e]) => f === from && e === event)) continue;
        assert.throws(() => transition(from, event), refusedWith('invalid_transition'), `${from} ${event}`);
        refused++;
      }
    }
    assert.equal(refused, APPOINTMENT_STATUSES.length * events.length - allowed.length);
  });

  it("says the appointment's status in the refusal", () => {
    assert.throws(() => transition('no_show', 'check_in'), /no show and cannot be checked in/);
  });
});

describe('deskTransition', () => {
  const visit = { status: 'scheduled' as const, date: '2026-03-02', startTime: '10:00' };

  it('checks a patient in on the day of the visit, before or after its start', () => {
    assert.equal(deskTransition(visit, 'check_in', { date: '2026-03-02', time: '08:00' }), 'checked_in');
    assert.equal(deskTransition(visit, 'check_in', { date: '2026-03-02', time: '10:15' }), 'checked_in');
  });

  it('refuses a check-in on another day with not_visit_day', () => {
    assert.throws(
      () => deskTransition(visit, 'check_in', { date: '2026-03-01', time: '10:00' }),
      refusedWith('not_visit_day'),
    );
    assert.throws(
      () => deskTransition(visit, 'check_in', { date: '2026-03-03', time: '09:00' }),
      refusedWith('not_visit_day'),
    );
  });

  it('marks a no-show from the start time on, never before', () => {
    assert.throws(
      () => deskTransition(visit, 'no_show', { date: '2026-03-02', time: '09:59' }),
      refusedWith('visit_not_started'),
    );
    assert.equal(deskTransition(visit, 'no_show', { date: '2026-03-02', time: '10:00' }), 'no_show');
    assert.equal(deskTransition(visit, 'no_show', { date: '2026-03-05', time: '08:00' }), 'no_show');
  });

  it('refuses a checked-in patient as a no-show', () => {
    assert.throws(
      () => deskTransition({ ...visit, status: 'checked_in' }, 'no_show', { date: '2026-03-02', time: '11:00' }),
      refusedWith('invalid_transition'),
    );
  });

  it("takes a check-in or a no-show back on the visit's day only", () => {
    const day = { date: '2026-03-02', time: '23:59' };
    assert.equal(deskTransition({ ...visit, status: 'checked_in' }, 'undo_check_in', day), 'scheduled');
    assert.equal(deskTransition({ ...visit, status: 'no_show' }, 'undo_no_show', day), 'scheduled');
    assert.throws(
      () => deskTransition({ ...visit, status: 'no_show' }, 'undo_no_show', { date: '2026-03-03', time: '00:00' }),
      refusedWith('not_visit_day'),
    );
    assert.throws(
      () => deskTransition({ ...visit, status: 'checked_in' }, 'undo_check_in', { date: '2026-03-01', time: '12:00' }),
      refusedWith('not_visit_day'),
    );
    assert.throws(() => deskTransition(visit, 'undo_check_in', day), refusedWith('invalid_transition'));
  });

  it('offers the desk exactly what it would accept now', () => {
    assert.deepEqual(deskActions(visit, { date: '2026-03-01', time: '12:00' }), []);
    assert.deepEqual(deskActions(visit, { date: '2026-03-02', time: '09:00' }), ['check_in']);
    assert.deepEqual(deskActions(visit, { date: '2026-03-02', time: '10:00' }), ['check_in', 'no_show']);
    assert.deepEqual(deskActions(visit, { date: '2026-03-03', time: '10:00' }), ['no_show']);
    assert.deepEqual(deskActions({ ...visit, status: 'checked_in' }, { date: '2026-03-02', time: '10:00' }), [
      'undo_check_in',
    ]);
    assert.deepEqual(deskActions({ ...visit, status: 'no_show' }, { date: '2026-03-03', time: '10:00' }), []);
    assert.deepEqual(deskActions({ ...visit, status: 'completed' }, { date: '2026-03-02', time: '10:00' }), []);
  });
});
