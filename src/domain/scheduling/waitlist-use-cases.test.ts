import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fakeScheduling, movableClock } from '../../testing/scheduling-fakes.ts';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { availableSlots, book } from './booking-use-cases.ts';
import { cancelMyAppointment } from './cancel-use-cases.ts';
import { acceptOffer, declineOffer, expireOffers, joinWaitlist, myWaitlist } from './waitlist-use-cases.ts';

const NOW = '2030-03-20T10:00:00Z'; // Wednesday 11:00 in Berlin
const MONDAY = '2030-03-25';
const minutesAfter = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

const refusedWith = (kind: string, code: string) => (error: unknown) => {
  assert.ok(error instanceof DomainError, `expected a DomainError, got ${error}`);
  assert.deepEqual([error.kind, error.code], [kind, code]);
  return true;
};

/** A doctor with one Monday slot, booked by `booker`, and `waiting` patients on the waitlist in that order. */
async function clinic(waiting: string[]) {
  const clock = movableClock(NOW);
  const fake = fakeScheduling(clock);
  const doctor = fake.addDoctor('Dr. Ada Lovelace', [[1, '09:00', '09:30']]);
  const scheduleId = doctor.slots[0]?.id;
  const asPatient = (p: { id: number; name: string }): Actor => ({
    userId: 100 + p.id,
    role: 'patient',
    name: p.name,
    patientId: p.id,
  });
  const booker = asPatient(fake.addPatient('Bea Booker'));
  const stranger = asPatient(fake.addPatient('Olga Other'));
  const line: Actor[] = [];
  for (const name of waiting) {
    const patient = asPatient(fake.addPatient(name));
    await joinWaitlist(fake.deps, { doctor_id: doctor.id, from_date: MONDAY, to_date: MONDAY }, patient);
    line.push(patient);
  }
  const booked = await book(fake.deps, { doctor_id: doctor.id, schedule_id: scheduleId, date: MONDAY }, booker);
  const offers = () => fake.outbox().filter((m) => m.kind === 'waitlist_offer');
  /** The token of the latest offer e-mailed to `patient`, as its link carries it. */
  const tokenOf = (patient: Actor) => {
    const mail = offers()
      .filter((m) => m.to === `${patient.name.toLowerCase().replace(/\W+/g, '.')}@example.test`)
      .at(-1);
    assert.ok(mail?.linkId, `no offer was sent to ${patient.name}`);
    return fake.offerToken(mail.linkId);
  };
  const statusFor = async (actor: Actor) =>
    (await availableSlots(fake.deps, doctor.id, { date: MONDAY }, actor)).available_appointments.find(
      (s) => s.schedule_id === scheduleId,
    )?.status;
  const freeTheSlot = () => cancelMyAppointment(fake.deps, booked.id, booker);
  return { clock, fake, doctor, scheduleId, booker, stranger, line, offers, tokenOf, statusFor, freeTheSlot };
}

const recipients = (messages: { to: string }[]) => messages.map((m) => m.to);

describe('waitlist offers', () => {
  it('offers a freed slot to the first in line alone, holding it from everyone else', async () => {
    const c = await clinic(['Mia First', 'Noah Second']);
    const [first] = c.line;
    assert.ok(first);
    await c.freeTheSlot();
    assert.deepEqual(recipients(c.offers()), ['mia.first@example.test']);
    assert.match(c.offers()[0]?.text ?? '', /We hold it for you until Wed, Mar 20, 11:30 AM\./);
    assert.ok(
      c.fake
        .audit()
        .some((e) => e.action === 'offer' && e.entity === 'waitlist_entry' && e.patientId === first.patientId),
    );
    assert.deepEqual([await c.statusFor(c.stranger), await c.statusFor(first)], ['booked', 'available']);
    await assert.rejects(
      book(c.fake.deps, { doctor_id: c.doctor.id, schedule_id: c.scheduleId, date: MONDAY }, c.stranger),
      refusedWith('conflict', 'slot_taken'),
    );
    const [entry] = (await myWaitlist(c.fake.deps, {}, first)).items;
    assert.equal(entry?.offer?.hold_until, '2030-03-20 11:30');
  });

  it('books the held slot when the offered patient accepts, and their place in line is done', async () => {
    const c = await clinic(['Mia First', 'Noah Second']);
    const [first] = c.line;
    assert.ok(first);
    await c.freeTheSlot();
    const { appointment } = await acceptOffer(c.fake.deps, { token: c.tokenOf(first) });
    assert.deepEqual(
      [appointment.status, appointment.patient.id, appointment.start_time],
      ['scheduled', first.patientId, '09:00'],
    );
    assert.deepEqual((await myWaitlist(c.fake.deps, {}, first)).items, []);
    assert.equal(
      c.fake.audit().find((e) => e.action === 'book' && e.patientId === first.patientId)?.details?.via,
      'waitlist offer',
    );
    assert.ok(c.fake.outbox().some((m) => m.kind === 'booking_confirmation' && m.to === 'mia.first@example.test'));
    await assert.rejects(
      acceptOffer(c.fake.deps, { token: c.tokenOf(first) }),
      refusedWith('conflict', 'offer_accepted'),
    );
  });

  it('offers a declined slot to the next in line, and the patient who declined stays on the waitlist', async () => {
    const c = await clinic(['Mia First', 'Noah Second']);
    const [first, second] = c.line;
    assert.ok(first && second);
    await c.freeTheSlot();
    await declineOffer(c.fake.deps, { token: c.tokenOf(first) });
    assert.deepEqual(recipients(c.offers()), ['mia.first@example.test', 'noah.second@example.test']);
    assert.ok(c.fake.audit().some((e) => e.action === 'offer_declined' && e.patientId === first.patientId));
    assert.equal((await myWaitlist(c.fake.deps, {}, first)).items.length, 1);
    await assert.rejects(
      acceptOffer(c.fake.deps, { token: c.tokenOf(first) }),
      refusedWith('conflict', 'offer_closed'),
    );
  });

  it('refuses an offer link that opens nothing', async () => {
    const c = await clinic([]);
    await assert.rejects(
      acceptOffer(c.fake.deps, { token: 'not-a-token' }),
      refusedWith('invalid', 'offer_link_invalid'),
    );
  });
});

describe('offer expiry', () => {
  it('expires a hold once it runs out and offers the slot to the next in line', async () => {
    const c = await clinic(['Mia First', 'Noah Second']);
    const [first, second] = c.line;
    assert.ok(first && second);
    await c.freeTheSlot();
    c.clock.set(minutesAfter(NOW, 29));
    assert.equal(await expireOffers(c.fake.deps), 0, 'held for 30 minutes');
    c.clock.set(minutesAfter(NOW, 30));
    assert.equal(await expireOffers(c.fake.deps), 1);
    assert.deepEqual(recipients(c.offers()), ['mia.first@example.test', 'noah.second@example.test']);
    assert.ok(c.fake.audit().some((e) => e.action === 'offer_expired' && e.patientId === first.patientId));
    await assert.rejects(
      acceptOffer(c.fake.deps, { token: c.tokenOf(first) }),
      refusedWith('conflict', 'offer_expired'),
    );
    assert.equal((await acceptOffer(c.fake.deps, { token: c.tokenOf(second) })).appointment.status, 'scheduled');
  });

  it('frees the slot for anyone when nobody is left in line', async () => {
    const c = await clinic(['Mia First']);
    await c.freeTheSlot();
    c.clock.set(minutesAfter(NOW, 31));
    assert.equal(await expireOffers(c.fake.deps), 1);
    assert.equal(c.offers().length, 1, 'nobody is offered a slot twice');
    assert.equal(await c.statusFor(c.stranger), 'available');
    assert.equal(
      (await book(c.fake.deps, { doctor_id: c.doctor.id, schedule_id: c.scheduleId, date: MONDAY }, c.stranger)).status,
      'scheduled',
    );
  });

  it('expires every due offer of a round, each handed on to its own line', async () => {
    const c = await clinic(['Mia First', 'Noah Second']);
    const other = c.fake.addDoctor('Dr. Grace Hopper', [[1, '10:00', '10:30']]);
    for (const name of ['Ida Third', 'Uwe Fourth']) {
      const patient = c.fake.addPatient(name);
      await joinWaitlist(
        c.fake.deps,
        { doctor_id: other.id, from_date: MONDAY, to_date: MONDAY },
        { userId: 100 + patient.id, role: 'patient', name, patientId: patient.id },
      );
    }
    const elsewhere = await book(
      c.fake.deps,
      { doctor_id: other.id, schedule_id: other.slots[0]?.id, date: MONDAY },
      c.stranger,
    );
    await c.freeTheSlot();
    await cancelMyAppointment(c.fake.deps, elsewhere.id, c.stranger);
    assert.deepEqual(recipients(c.offers()), ['mia.first@example.test', 'ida.third@example.test']);

    c.clock.set(minutesAfter(NOW, 30));
    assert.equal(await expireOffers(c.fake.deps), 2);
    assert.equal(c.fake.audit().filter((e) => e.action === 'offer_expired').length, 2);
    assert.deepEqual(recipients(c.offers().slice(2)), ['noah.second@example.test', 'uwe.fourth@example.test']);
    assert.equal(await expireOffers(c.fake.deps), 0);
  });
});
