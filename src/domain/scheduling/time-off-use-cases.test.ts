import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fakeScheduling, movableClock } from '../../testing/scheduling-fakes.ts';
import { EACH_DAY, workingWeek } from '../../testing/working-week.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { availableSlots, book, nextAvailable } from './booking-use-cases.ts';
import { cancelMyAppointment, reschedule } from './cancel-use-cases.ts';
import { doctorAgenda } from './list-use-cases.ts';
import { getSchedule, replaceSchedule } from './pattern-use-cases.ts';
import { addClosure, addLeave, removeTimeOff, visitsToMove } from './time-off-use-cases.ts';
import { joinWaitlist } from './waitlist-use-cases.ts';

const NOW = '2030-03-20T10:00:00Z'; // Wednesday 11:00 in Berlin
const MONDAY = '2030-03-25';
const TUESDAY = '2030-03-26'; // the doctor's leave
const THURSDAY = '2030-03-28';
const FRIDAY = '2030-03-29'; // the clinic's holiday

const admin: Actor = { userId: 1, role: 'admin', name: 'Ada Admin' };
const desk: Actor = { userId: 2, role: 'reception', name: 'Rita Reception' };
const asPatient = (p: { id: number; name: string }): Actor => ({
  userId: 100 + p.id,
  role: 'patient',
  name: p.name,
  patientId: p.id,
});

const WEEK = { hours: workingWeek() };

async function clinic() {
  const clock = movableClock(NOW);
  const fake = fakeScheduling(clock);
  const doctor = fake.addDoctor('Dr. Ada Lovelace', []);
  const colleague = fake.addDoctor('Dr. Grace Hopper', []);
  await replaceSchedule(fake.deps, doctor.id, WEEK, admin);
  await replaceSchedule(fake.deps, colleague.id, WEEK, admin);
  const patient = asPatient(fake.addPatient('Mia Meyer'));
  const starts = async (date: string, who = doctor.id) =>
    (await availableSlots(fake.deps, who, { date }, patient)).available_appointments.map((s) => s.start_time);
  const slotAt = async (date: string, start: string) => {
    const found = (await availableSlots(fake.deps, doctor.id, { date }, patient)).available_appointments.find(
      (s) => s.start_time === start,
    );
    assert.ok(found, `a slot at ${start} on ${date}`);
    return found.schedule_id;
  };
  return { clock, fake, doctor, colleague, patient, starts, slotAt };
}

const refusedWith = (field: string, message: string) => (error: unknown) => {
  assert.ok(error instanceof DomainError && error.kind === 'invalid', `expected an invalid error, got ${error}`);
  assert.deepEqual(error.fields, { [field]: [message] });
  return true;
};

describe('working hours with a lunch break', () => {
  it('offers exactly the slots of both ranges on a working day and none in the break', async () => {
    const c = await clinic();
    assert.deepEqual(await c.starts(MONDAY), EACH_DAY);
    assert.deepEqual(await c.starts('2030-03-30'), [], 'no Saturday hours');
  });

  it('loads exactly the saved ranges, and saving them unchanged changes nothing and audits nothing', async () => {
    const c = await clinic();
    const before = await getSchedule(c.fake.deps, c.doctor.id);
    assert.deepEqual(before.hours.slice(0, 2), [
      { weekday: 1, start_time: '09:00', end_time: '12:30', slot_minutes: 20, room: null },
      { weekday: 1, start_time: '13:30', end_time: '17:00', slot_minutes: 20, room: null },
    ]);
    const audited = c.fake.audit().length;
    const hours = before.hours.map((h) => ({
      weekday: h.weekday,
      start_time: h.start_time,
      end_time: h.end_time,
      slot_minutes: h.slot_minutes,
    }));
    assert.deepEqual(await replaceSchedule(c.fake.deps, c.doctor.id, { hours }, admin), before);
    assert.equal(c.fake.audit().length, audited);
  });
});

describe("a doctor's leave", () => {
  it('removes every slot of a leave day, and only of that doctor', async () => {
    const c = await clinic();
    await addLeave(c.fake.deps, c.doctor.id, { starts_on: TUESDAY }, admin);
    assert.deepEqual(await c.starts(TUESDAY), []);
    assert.deepEqual(await c.starts(TUESDAY, c.colleague.id), EACH_DAY);
    assert.deepEqual(await c.starts(MONDAY), EACH_DAY);
  });

  it('removes only the slots a part-day leave overlaps', async () => {
    const c = await clinic();
    await addLeave(
      c.fake.deps,
      c.doctor.id,
      { starts_on: THURSDAY, start_time: '12:00', end_time: '17:00', reason: 'Conference' },
      admin,
    );
    assert.deepEqual(await c.starts(THURSDAY), EACH_DAY.slice(0, 9));
  });

  it('refuses booking or moving into leave, naming the slot', async () => {
    const c = await clinic();
    const tuesdayNine = await c.slotAt(TUESDAY, '09:00');
    const booked = await book(
      c.fake.deps,
      { doctor_id: c.doctor.id, schedule_id: await c.slotAt(MONDAY, '09:00'), date: MONDAY },
      c.patient,
    );
    await addLeave(c.fake.deps, c.doctor.id, { starts_on: TUESDAY }, admin);
    const refusal = refusedWith('schedule_id', "falls in the doctor's leave");
    await assert.rejects(
      book(c.fake.deps, { doctor_id: c.doctor.id, schedule_id: tuesdayNine, date: TUESDAY }, c.patient),
      refusal,
    );
    await assert.rejects(
      reschedule(c.fake.deps, booked.id, { schedule_id: tuesdayNine, date: TUESDAY }, desk),
      refusal,
    );
  });

  it('keeps visits already booked inside it, lists them for the desk and audits the leave', async () => {
    const c = await clinic();
    const booked = await book(
      c.fake.deps,
      { doctor_id: c.doctor.id, schedule_id: await c.slotAt(TUESDAY, '10:00'), date: TUESDAY },
      c.patient,
    );
    const added = await addLeave(
      c.fake.deps,
      c.doctor.id,
      { starts_on: TUESDAY, ends_on: THURSDAY, reason: 'Holiday' },
      admin,
    );
    assert.equal(added.time_off.kind, 'leave');
    assert.deepEqual(
      added.visits_to_move.map((v) => [v.id, v.status, v.time_off.id]),
      [[booked.id, 'scheduled', added.time_off.id]],
    );
    assert.equal(added.visits_to_move_total, 1);
    assert.deepEqual(
      (await visitsToMove(c.fake.deps, {}, desk)).items.map((v) => v.id),
      [booked.id],
    );
    assert.ok(
      c.fake.audit().some((e) => e.action === 'create' && e.entity === 'time_off' && e.entityId === added.time_off.id),
    );

    await removeTimeOff(c.fake.deps, added.time_off.id, admin);
    assert.deepEqual((await visitsToMove(c.fake.deps, {}, desk)).items, []);
    assert.equal((await c.starts(TUESDAY)).length, EACH_DAY.length);
  });

  it("shows on the doctor's agenda for the days it covers", async () => {
    const c = await clinic();
    await addLeave(c.fake.deps, c.doctor.id, { starts_on: TUESDAY }, admin);
    const doctorActor: Actor = { userId: 50, role: 'doctor', name: 'Dr. Ada Lovelace', doctorId: c.doctor.id };
    const week = await doctorAgenda(c.fake.deps, { date: MONDAY, view: 'week' }, doctorActor);
    assert.deepEqual(
      week.days.map((d) => d.time_off.map((t) => t.kind)),
      [[], ['leave'], [], [], [], [], []],
    );
  });

  it('is not offered to the waitlist when a visit inside it is cancelled', async () => {
    const c = await clinic();
    const booked = await book(
      c.fake.deps,
      { doctor_id: c.doctor.id, schedule_id: await c.slotAt(TUESDAY, '09:00'), date: TUESDAY },
      c.patient,
    );
    await joinWaitlist(
      c.fake.deps,
      { doctor_id: c.doctor.id, from_date: TUESDAY, to_date: TUESDAY },
      asPatient(c.fake.addPatient('Willa Waiting')),
    );
    await addLeave(c.fake.deps, c.doctor.id, { starts_on: TUESDAY }, admin);
    await cancelMyAppointment(c.fake.deps, booked.id, c.patient);
    assert.deepEqual(
      c.fake.outbox().filter((m) => m.kind === 'waitlist_offer'),
      [],
    );
  });

  it('refuses dates in the past, backwards ranges and half a time span, naming the field', async () => {
    const c = await clinic();
    await assert.rejects(
      addLeave(c.fake.deps, c.doctor.id, { starts_on: '2030-03-01', ends_on: '2030-03-02' }, admin),
      refusedWith('ends_on', 'must not be in the past'),
    );
    await assert.rejects(
      addLeave(c.fake.deps, c.doctor.id, { starts_on: FRIDAY, ends_on: TUESDAY }, admin),
      refusedWith('ends_on', 'must be on or after starts_on'),
    );
    await assert.rejects(
      addLeave(c.fake.deps, c.doctor.id, { starts_on: FRIDAY, start_time: '13:00' }, admin),
      refusedWith('end_time', 'is required with start_time'),
    );
    await assert.rejects(addLeave(c.fake.deps, c.doctor.id, {}, admin), refusedWith('starts_on', 'is required'));
  });
});

describe('a clinic closure', () => {
  it("removes every doctor's slots that day, and next-available skips it and the doctor's leave", async () => {
    const c = await clinic();
    await addLeave(c.fake.deps, c.doctor.id, { starts_on: TUESDAY }, admin);
    const closure = await addClosure(c.fake.deps, { starts_on: FRIDAY, reason: 'Clinic holiday' }, admin);
    assert.equal(closure.time_off.kind, 'closure');
    assert.deepEqual(await c.starts(FRIDAY), []);
    assert.deepEqual(await c.starts(FRIDAY, c.colleague.id), []);
    const next = await nextAvailable(c.fake.deps, { doctor_id: c.doctor.id, from: TUESDAY }, c.patient);
    assert.deepEqual(
      next.days.map((d) => d.date),
      ['2030-03-27', THURSDAY, '2030-04-01'],
    );
  });

  it('needs a reason, which the desk sees', async () => {
    const c = await clinic();
    await assert.rejects(addClosure(c.fake.deps, { starts_on: FRIDAY }, admin), refusedWith('reason', 'is required'));
  });
});
