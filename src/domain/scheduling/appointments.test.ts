import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fakeScheduling, movableClock } from '../../testing/scheduling-fakes.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { availableSlots, book, bookForPatient } from './booking-use-cases.ts';
import { cancelAppointment, cancelMyAppointment, reschedule } from './cancel-use-cases.ts';

const NOW = '2030-03-20T10:00:00Z'; // Wednesday 11:00 in Berlin
const MONDAY = '2030-03-25';
const WEDNESDAY = '2030-03-20';

const refusedWith = (kind: string, code: string) => (error: unknown) => {
  assert.ok(error instanceof DomainError, `expected a DomainError, got ${error}`);
  assert.deepEqual([error.kind, error.code], [kind, code]);
  return true;
};

function clinic() {
  const clock = movableClock(NOW);
  const fake = fakeScheduling(clock);
  const doctor = fake.addDoctor('Dr. Ada Lovelace', [
    [1, '09:00', '09:30'],
    [1, '09:30', '10:00'],
    [3, '09:00', '09:30'],
    [3, '12:00', '12:30'],
  ]);
  const [mondayNine, mondayHalfPast, wednesdayNine] = doctor.slots.map((s) => s.id);
  const patient = fake.addPatient('Mia Meyer');
  const other = fake.addPatient('Noah Neumann');
  const asPatient = (p: { id: number; name: string }): Actor => ({
    userId: 100 + p.id,
    role: 'patient',
    name: p.name,
    patientId: p.id,
  });
  const desk: Actor = { userId: 1, role: 'reception', name: 'Rita Reception' };
  const slot = (scheduleId: number | undefined, date = MONDAY) => ({
    doctor_id: doctor.id,
    schedule_id: scheduleId,
    date,
  });
  const statusOf = async (scheduleId: number | undefined, actor: Actor, date = MONDAY) =>
    (await availableSlots(fake.deps, doctor.id, { date }, actor)).available_appointments.find(
      (s) => s.schedule_id === scheduleId,
    )?.status;
  return {
    clock,
    fake,
    doctor,
    mondayNine,
    mondayHalfPast,
    wednesdayNine,
    patient,
    other,
    me: asPatient(patient),
    them: asPatient(other),
    desk,
    slot,
    statusOf,
  };
}

describe('booking', () => {
  it('books a free slot for the patient, audits it and queues the confirmation and the reminder', async () => {
    const c = clinic();
    const booked = await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    assert.deepEqual(
      [booked.status, booked.date, booked.start_time, booked.patient_name],
      ['scheduled', MONDAY, '09:00', 'Mia Meyer'],
    );
    assert.deepEqual(
      c.fake.audit().map((e) => [e.action, e.entity, e.entityId]),
      [['book', 'appointment', booked.id]],
    );
    assert.deepEqual(
      c.fake.outbox().map((m) => [m.kind, m.to]),
      [
        ['booking_confirmation', 'mia.meyer@example.test'],
        ['reminder', 'mia.meyer@example.test'],
      ],
    );
    assert.equal(await c.statusOf(c.mondayNine, c.them), 'booked');
  });

  it('refuses a second booking of a taken slot, and writes nothing for it', async () => {
    const c = clinic();
    await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    await assert.rejects(book(c.fake.deps, c.slot(c.mondayNine), c.them), refusedWith('conflict', 'slot_taken'));
    assert.equal(c.fake.audit().length, 1);
    assert.ok(c.fake.outbox().every((m) => m.to === 'mia.meyer@example.test'));
  });

  it('refuses a date in the past and a slot that has already started today', async () => {
    const c = clinic();
    const pastDay = (error: unknown) =>
      error instanceof DomainError && error.kind === 'invalid' && error.fields?.date?.[0] === 'must not be in the past';
    await assert.rejects(book(c.fake.deps, c.slot(c.mondayNine, '2030-03-18'), c.me), pastDay);
    const started = (error: unknown) =>
      error instanceof DomainError &&
      error.kind === 'invalid' &&
      /already started/.test(error.fields?.schedule_id?.[0] ?? '');
    await assert.rejects(book(c.fake.deps, c.slot(c.wednesdayNine, WEDNESDAY), c.me), started);
    assert.equal(await c.statusOf(c.wednesdayNine, c.me, WEDNESDAY), 'past');
  });

  it('refuses a patient a second visit with the doctor that day, but the desk may book it for them', async () => {
    const c = clinic();
    await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    await assert.rejects(book(c.fake.deps, c.slot(c.mondayHalfPast), c.me), refusedWith('conflict', 'booking_limit'));
    const byDesk = await bookForPatient(c.fake.deps, { patient_id: c.patient.id, ...c.slot(c.mondayHalfPast) }, c.desk);
    assert.deepEqual([byDesk.status, byDesk.start_time], ['scheduled', '09:30']);
  });

  it('refuses a booking by anyone but a patient for themselves, and a desk booking by a patient', async () => {
    const c = clinic();
    const doctor: Actor = { userId: 9, role: 'doctor', name: 'Dr. Ada Lovelace', doctorId: c.doctor.id };
    await assert.rejects(book(c.fake.deps, c.slot(c.mondayNine), doctor), refusedWith('forbidden', 'forbidden'));
    await assert.rejects(book(c.fake.deps, c.slot(c.mondayNine), c.desk), refusedWith('forbidden', 'forbidden'));
    await assert.rejects(
      bookForPatient(c.fake.deps, { patient_id: c.other.id, ...c.slot(c.mondayNine) }, c.me),
      refusedWith('forbidden', 'forbidden'),
    );
    assert.equal(await c.statusOf(c.mondayNine, c.me), 'available');
  });
});

describe('cancelling', () => {
  it('cancels the patient’s own visit, frees its slot, withdraws its reminder and tells patient and doctor', async () => {
    const c = clinic();
    const booked = await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    const cancelled = await cancelMyAppointment(c.fake.deps, booked.id, c.me);
    assert.equal(cancelled.status, 'cancelled');
    assert.deepEqual(
      c.fake.audit().map((e) => e.action),
      ['book', 'cancel'],
    );
    assert.deepEqual(
      c.fake.withdrawn().map((m) => m.kind),
      ['booking_confirmation', 'reminder'],
    );
    assert.deepEqual(
      c.fake.outbox().map((m) => [m.kind, m.to]),
      [
        ['cancellation', 'mia.meyer@example.test'],
        ['cancellation', 'dr.ada.lovelace@lakeside.test'],
      ],
    );
    assert.equal(await c.statusOf(c.mondayNine, c.them), 'available');
  });

  it("answers another patient's visit as not found, records the attempt and leaves the visit booked", async () => {
    const c = clinic();
    const booked = await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    await assert.rejects(cancelMyAppointment(c.fake.deps, booked.id, c.them), refusedWith('not_found', 'not_found'));
    assert.deepEqual(
      c.fake.audit().map((e) => [e.action, e.patientId]),
      [
        ['book', c.patient.id],
        ['refused', c.patient.id],
      ],
    );
    assert.equal(await c.statusOf(c.mondayNine, c.them), 'booked');
  });

  it('refuses a patient once the visit has started, while the desk may still cancel it', async () => {
    const c = clinic();
    const booked = await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    c.clock.set('2030-03-25T08:05:00Z'); // Monday 09:05 in Berlin
    await assert.rejects(
      cancelMyAppointment(c.fake.deps, booked.id, c.me),
      refusedWith('conflict', 'appointment_started'),
    );
    assert.equal((await cancelAppointment(c.fake.deps, booked.id, c.desk)).status, 'cancelled');
  });

  it('refuses to cancel a visit twice', async () => {
    const c = clinic();
    const booked = await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    await cancelMyAppointment(c.fake.deps, booked.id, c.me);
    await assert.rejects(
      cancelMyAppointment(c.fake.deps, booked.id, c.me),
      refusedWith('conflict', 'invalid_transition'),
    );
    assert.equal(c.fake.audit().filter((e) => e.action === 'cancel').length, 1);
  });
});

describe('rescheduling', () => {
  it('moves the visit to a free slot, frees the old one, audits both times and sends the new time', async () => {
    const c = clinic();
    const booked = await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    const moved = await reschedule(c.fake.deps, booked.id, { schedule_id: c.mondayHalfPast, date: MONDAY }, c.me);
    assert.deepEqual([moved.id, moved.status, moved.start_time], [booked.id, 'scheduled', '09:30']);
    const entry = c.fake.audit().at(-1);
    assert.equal(entry?.action, 'appointment_rescheduled');
    assert.deepEqual(
      [entry?.details?.from, entry?.details?.to],
      [
        { doctor_id: c.doctor.id, date: MONDAY, start_time: '09:00', end_time: '09:30' },
        { doctor_id: c.doctor.id, date: MONDAY, start_time: '09:30', end_time: '10:00' },
      ],
    );
    assert.deepEqual(
      c.fake.outbox().map((m) => m.kind),
      ['reschedule', 'reminder'],
    );
    assert.deepEqual(
      [await c.statusOf(c.mondayNine, c.them), await c.statusOf(c.mondayHalfPast, c.them)],
      ['available', 'booked'],
    );
  });

  it('refuses to move onto a taken slot and keeps the visit where it was', async () => {
    const c = clinic();
    const mine = await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    await book(c.fake.deps, c.slot(c.mondayHalfPast), c.them);
    await assert.rejects(
      reschedule(c.fake.deps, mine.id, { schedule_id: c.mondayHalfPast, date: MONDAY }, c.me),
      refusedWith('conflict', 'slot_taken'),
    );
    assert.equal(await c.statusOf(c.mondayNine, c.them), 'booked');
  });

  it("answers another patient's visit as not found", async () => {
    const c = clinic();
    const mine = await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    await assert.rejects(
      reschedule(c.fake.deps, mine.id, { schedule_id: c.mondayHalfPast, date: MONDAY }, c.them),
      refusedWith('not_found', 'not_found'),
    );
    assert.equal(c.fake.audit().at(-1)?.action, 'refused');
  });
});

describe('calendar sequence', () => {
  it('counts the event up with each move and the cancellation the patient is told of', async () => {
    const c = clinic();
    const sent = () =>
      c.fake
        .outbox()
        .flatMap((m) =>
          m.attachments.map((a) => [
            m.kind,
            /^METHOD:(\w+)\r$/m.exec(a.content)?.[1],
            Number(/^SEQUENCE:(\d+)\r$/m.exec(a.content)?.[1]),
          ]),
        );
    const booked = await book(c.fake.deps, c.slot(c.mondayNine), c.me);
    assert.deepEqual(sent(), [['booking_confirmation', 'REQUEST', 0]]);
    await reschedule(c.fake.deps, booked.id, { schedule_id: c.mondayHalfPast, date: MONDAY }, c.me);
    assert.deepEqual(sent(), [['reschedule', 'REQUEST', 1]]);
    await reschedule(c.fake.deps, booked.id, { schedule_id: c.mondayNine, date: MONDAY }, c.desk);
    assert.deepEqual(sent(), [['reschedule', 'REQUEST', 2]]);
    await cancelAppointment(c.fake.deps, booked.id, c.desk);
    assert.deepEqual(sent(), [['cancellation', 'CANCEL', 3]]);
  });
});
