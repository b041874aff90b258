import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { makeApp, schedulingDeps } from '../app.ts';
import { openPostgres } from '../db/postgres.ts';
import { slotFreed } from '../domain/scheduling/slot-offers.ts';
import type { Clock } from '../domain/shared/clock.ts';
import { only } from '../testing/assert.ts';
import { signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { sendDue as sendDueMail } from '../testing/send-due.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { testDatabases } from '../testing/test-db.ts';

const ZONE = 'Europe/Berlin';
const NOW = '2030-03-20T10:00:00Z'; // Wednesday 11:00 in Berlin
const MONDAY = '2030-03-25'; // the fixtures' doctors work Mondays 09:00–09:30
const FRIDAY = '2030-03-22';
const minutesAfter = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

function movableClock(): Clock & { set(iso: string): void } {
  let now = new Date(NOW);
  return {
    now: () => now,
    set: (next) => {
      now = new Date(next);
    },
  };
}

for (const target of testDatabases('one')) {
  describe(`the waitlist over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let smtp: TestSmtp;
    let clock: ReturnType<typeof movableClock>;
    let fx: ReturnType<typeof clinicFixtures>;
    let admin: { token: string };

    before(async () => {
      clock = movableClock();
      server = await startTestServer(target, { clock, clinicTz: ZONE, clinicName: 'Lakeside Clinic' });
      smtp = await startTestSmtp();
      fx = clinicFixtures(server);
      admin = await signUpAdmin(server);
    });
    after(async () => {
      // Either is missing when the before hook failed; the other is still closed.
      await smtp?.close();
      await server?.close();
    });

    type Patient = Awaited<ReturnType<typeof fx.patient>>;
    type Doctor = Awaited<ReturnType<typeof fx.doctor>>;

    const join = (patient: Patient, doctor: Doctor, from = MONDAY, to = MONDAY) =>
      server.api('POST', '/api/patient/waitlist', {
        token: patient.token,
        body: { doctor_id: doctor.doctorId, from_date: from, to_date: to },
      });
    const book = (patient: Patient, doctor: Doctor) =>
      server.api('POST', '/api/appointments/book', {
        token: patient.token,
        body: { doctor_id: doctor.doctorId, schedule_id: doctor.scheduleId, date: MONDAY },
      });
    /** A patient books the doctor's Monday slot and cancels it: the slot is freed. */
    async function freeTheSlot(doctor: Doctor) {
      const canceller = await fx.patient('Carl Canceller');
      const booked = await book(canceller, doctor);
      assert.equal(booked.status, 201, JSON.stringify(booked.body));
      const cancelled = await server.api('POST', `/api/patient/appointments/${booked.body.id}/cancel`, {
        token: canceller.token,
      });
      assert.equal(cancelled.status, 200);
    }
    /** Sends what is due, as the mail worker does (minting each link's token then); holds expire only when a test says. */
    const sendDue = () => sendDueMail(server.db, smtp.url, clock);
    /** The token of the newest offer e-mailed to `patient`: only the sent e-mail carries one. */
    async function offerToken(patient: Patient): Promise<string> {
      await sendDue();
      const mails = smtp.received.filter(
        (m) =>
          m.subject?.startsWith('A time with') &&
          m.to &&
          !Array.isArray(m.to) &&
          m.to.value[0]?.address === patient.email,
      );
      const token = /#token=([\w%-]+)/.exec(mails.at(-1)?.text ?? '')?.[1];
      assert.ok(token, `an offer e-mail to ${patient.email}`);
      return decodeURIComponent(token);
    }
    /** What became of the newest offer e-mail to `patient` once what is due was sent. */
    async function offerMailAfterSending(patient: Patient): Promise<string> {
      await sendDue();
      const rows = await server.db.query<{ status: string }>(
        `select status from outbox where kind = 'waitlist_offer' and recipient = $1 order by id desc limit 1`,
        [patient.email],
      );
      return only(rows, 'offer e-mail').status;
    }
    const offersTo = async (patient: Patient) =>
      only(
        await server.db.query<{ n: number }>(
          `select count(*)::int as n from outbox where kind = 'waitlist_offer' and recipient = $1`,
          [patient.email],
        ),
      ).n;
    const openOffers = async (doctor: Doctor) =>
      server.db.query<{ entry_id: number }>(
        `select entry_id from waitlist_offers where doctor_id = $1 and status = 'open'`,
        [doctor.doctorId],
      );
    const slotStatus = async (doctor: Doctor, patient: Patient) => {
      const res = await server.api('GET', `/api/appointments/available/${doctor.doctorId}?date=${MONDAY}`, {
        token: patient.token,
      });
      return only(res.body.available_appointments as { status: string }[]).status;
    };
    const answer = (path: 'preview' | 'accept' | 'decline', token: string) =>
      server.api('POST', `/api/waitlist-offers/${path}`, { body: { token } });

    it('lets a patient join, see and leave a waitlist, refusing bad ranges by field and overlapping entries', async () => {
      clock.set(NOW);
      const doctor = await fx.doctor('Dr. Ada Lovelace');
      const patient = await fx.patient('Wanda Waiting');

      const missing = await server.api('POST', '/api/patient/waitlist', { token: patient.token, body: {} });
      assert.equal(missing.status, 422);
      assert.deepEqual(Object.keys(missing.body.errors).sort(), ['doctor_id', 'from_date', 'to_date']);
      const backwards = await join(patient, doctor, MONDAY, FRIDAY);
      assert.equal(backwards.status, 422);
      assert.deepEqual(backwards.body.errors, { to_date: ['must not be before from_date'] });
      const past = await join(patient, doctor, '2030-03-19', MONDAY);
      assert.deepEqual([past.status, past.body.errors], [422, { from_date: ['must not be in the past'] }]);
      const far = await join(patient, doctor, MONDAY, '2030-06-01');
      assert.deepEqual([far.status, far.body.errors], [422, { to_date: ['must be at most 60 days ahead'] }]);
      const nobody = await server.api('POST', '/api/patient/waitlist', {
        token: patient.token,
        body: { doctor_id: 999999, from_date: MONDAY, to_date: MONDAY },
      });
      assert.deepEqual([nobody.status, nobody.body.errors], [422, { doctor_id: ['is not a doctor of the clinic'] }]);

      const joined = await join(patient, doctor, FRIDAY, MONDAY);
      assert.equal(joined.status, 201, JSON.stringify(joined.body));
      assert.deepEqual(
        { ...joined.body, id: undefined, joined_at: undefined },
        {
          id: undefined,
          joined_at: undefined,
          doctor: { id: doctor.doctorId, name: 'Dr. Ada Lovelace' },
          doctor_name: 'Dr. Ada Lovelace',
          from_date: FRIDAY,
          to_date: MONDAY,
          offer: null,
        },
      );
      const twice = await join(patient, doctor, MONDAY, '2030-03-29');
      assert.deepEqual(
        [twice.status, twice.body.code, Object.keys(twice.body.errors)],
        [409, 'waitlist_duplicate', ['from_date']],
      );

      const list = await server.api('GET', '/api/patient/waitlist', { token: patient.token });
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.entries.map((e: { id: number }) => e.id),
        [joined.body.id],
      );

      const stranger = await fx.patient('Nosy Parker');
      assert.equal(
        (await server.api('DELETE', `/api/patient/waitlist/${joined.body.id}`, { token: stranger.token })).status,
        404,
      );
      assert.deepEqual((await server.api('GET', '/api/patient/waitlist', { token: stranger.token })).body.entries, []);
      assert.equal(
        (await server.api('DELETE', `/api/patient/waitlist/${joined.body.id}`, { token: patient.token })).status,
        204,
      );
      assert.deepEqual((await server.api('GET', '/api/patient/waitlist', { token: patient.token })).body.entries, []);
      assert.equal(
        (await server.api('DELETE', `/api/patient/waitlist/${joined.body.id}`, { token: patient.token })).status,
        404,
        'left already',
      );
      assert.equal((await join(patient, doctor)).status, 201, 'an entry left no longer counts as a duplicate');
    });

    it('lets staff put a patient on a waitlist, and nobody else', async () => {
      clock.set(NOW);
      const doctor = await fx.doctor();
      const patient = await fx.patient();
      const body = { patient_id: patient.patientId, doctor_id: doctor.doctorId, from_date: MONDAY, to_date: MONDAY };
      const added = await server.api('POST', '/api/waitlist', { token: admin.token, body });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      assert.deepEqual(
        (await server.api('GET', '/api/patient/waitlist', { token: patient.token })).body.entries.map(
          (e: { id: number }) => e.id,
        ),
        [added.body.id],
      );
      assert.equal((await server.api('POST', '/api/waitlist', { token: patient.token, body })).status, 403);
      assert.equal((await server.api('POST', '/api/waitlist', { token: doctor.token, body })).status, 403);
      const unknown = await server.api('POST', '/api/waitlist', {
        token: admin.token,
        body: { ...body, patient_id: 999999 },
      });
      assert.deepEqual([unknown.status, unknown.body.errors], [422, { patient_id: ['is not a registered patient'] }]);
      assert.equal((await server.api('POST', '/api/patient/waitlist', { token: admin.token, body })).status, 403);
    });

    it('offers a cancelled slot to the first in line by e-mail, holds it from everyone else, and its link books it', async () => {
      clock.set(NOW);
      const doctor = await fx.doctor('Dr. Ada Lovelace');
      const [first, second, other] = [
        await fx.patient('Mia Meyer'),
        await fx.patient('Noah Neumann'),
        await fx.patient('Olga Other'),
      ];
      assert.equal((await join(first, doctor, FRIDAY, MONDAY)).status, 201);
      assert.equal((await join(second, doctor)).status, 201);
      await freeTheSlot(doctor);
      assert.deepEqual([await offersTo(first), await offersTo(second)], [1, 0], 'only the first in line is offered it');

      await sendDueMail(server.db, smtp.url, clock, { beforeRound: () => server.app.waitlist.expireOffers() });
      const mail = await smtp.waitForMessage(
        (m) => m.subject === 'A time with Dr. Ada Lovelace is free: Monday, March 25, 2030 at 9:00 AM',
      );
      assert.match(mail.text ?? '', /We hold it for you until Wed, Mar 20, 11:30 AM\./);
      const link =
        /Accept or decline this time: (https:\/\/lakeside\.test\/appointments\/waitlist-offer#token=[\w%-]+)/.exec(
          mail.text ?? '',
        )?.[1];
      assert.ok(link, mail.text);
      const token = decodeURIComponent(new URL(link).hash.replace('#token=', ''));

      const preview = await answer('preview', token);
      assert.equal(preview.status, 200);
      assert.deepEqual(preview.body.offer, {
        doctor: { id: doctor.doctorId, name: 'Dr. Ada Lovelace' },
        date: MONDAY,
        start_time: '09:00',
        end_time: '09:30',
        expires_at: '2030-03-20T10:30:00.000Z',
        hold_until: '2030-03-20 11:30',
      });
      assert.equal(await slotStatus(doctor, other), 'booked', 'held from everyone else');
      assert.equal(await slotStatus(doctor, first), 'available', 'but open to the patient it is offered to');
      const refused = await book(other, doctor);
      assert.deepEqual([refused.status, refused.body.code], [409, 'slot_taken']);
      const mine = await server.api('GET', '/api/patient/waitlist', { token: first.token });
      assert.equal(mine.body.entries[0].offer.hold_until, '2030-03-20 11:30');

      clock.set(minutesAfter(NOW, 10));
      const accepted = await answer('accept', token);
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
      assert.deepEqual(
        [accepted.body.appointment.patient.id, accepted.body.appointment.date, accepted.body.appointment.start_time],
        [first.patientId, MONDAY, '09:00'],
      );
      const appointments = await server.api('GET', '/api/patient/appointments', { token: first.token });
      assert.deepEqual(
        appointments.body.appointments.map((a: { id: number }) => a.id),
        [accepted.body.appointment.id],
      );
      assert.deepEqual(
        (await server.api('GET', '/api/patient/waitlist', { token: first.token })).body.entries,
        [],
        'the entry is fulfilled',
      );
      const again = await answer('accept', token);
      assert.deepEqual([again.status, again.body.code], [409, 'offer_accepted']);
      await sendDueMail(server.db, smtp.url, clock, { beforeRound: () => server.app.waitlist.expireOffers() });
      await smtp.waitForMessage(
        (m) =>
          m.subject === 'Your appointment on Monday, March 25, 2030 at 9:00 AM' &&
          m.text?.includes('Dear Mia Meyer') === true,
      );
      const [audit] = await server.db.query<{ details: { via: string } }>(
        `select details from audit_log where action = 'book' and entity = 'appointment' and entity_id = $1`,
        [String(accepted.body.appointment.id)],
      );
      assert.equal(audit?.details.via, 'waitlist offer');
      assert.equal(await offersTo(second), 0, 'the second in line was never offered a slot that was taken');
    });

    it('offers the slot to the next in line once the hold expires, and the late link is refused', async () => {
      clock.set(NOW);
      const doctor = await fx.doctor();
      const [first, second] = [await fx.patient('First Inline'), await fx.patient('Second Inline')];
      await join(first, doctor);
      await join(second, doctor);
      await freeTheSlot(doctor);
      const token = await offerToken(first);

      clock.set(minutesAfter(NOW, 29));
      assert.equal(await server.app.waitlist.expireOffers(), 0, 'held for 30 minutes');
      assert.equal(await offersTo(second), 0);
      clock.set(minutesAfter(NOW, 30));
      assert.equal(await server.app.waitlist.expireOffers(), 1);
      assert.equal(await offersTo(second), 1, 'the next in line is offered it');
      const late = await answer('accept', token);
      assert.deepEqual([late.status, late.body.code], [409, 'offer_expired']);
      assert.match(late.body.message, /expired/);
      assert.equal((await answer('preview', token)).body.code, 'offer_expired');
      assert.equal((await answer('accept', await offerToken(second))).status, 200);
      assert.equal((await answer('accept', 'not-a-token')).status, 422);
    });

    it('offers a declined slot to the next, and frees it when nobody is left in line', async () => {
      clock.set(NOW);
      const doctor = await fx.doctor();
      const [first, second, other] = [await fx.patient(), await fx.patient(), await fx.patient()];
      await join(first, doctor);
      await join(second, doctor);
      await freeTheSlot(doctor);

      const declined = await answer('decline', await offerToken(first));
      assert.equal(declined.status, 200);
      assert.equal(await offersTo(second), 1);
      assert.equal(
        (await server.api('GET', '/api/patient/waitlist', { token: first.token })).body.entries.length,
        1,
        'still waiting for another time',
      );
      assert.equal(await slotStatus(doctor, other), 'booked');

      assert.equal((await answer('decline', await offerToken(second))).status, 200);
      assert.deepEqual(await openOffers(doctor), []);
      assert.equal(await offersTo(first), 1, 'nobody is offered a slot twice');
      assert.equal(await slotStatus(doctor, other), 'available');
      assert.equal((await book(other, doctor)).status, 201);
    });

    it("offers a slot an admin cancels, and the offered patient's own booking of it fulfils the offer", async () => {
      clock.set(NOW);
      const doctor = await fx.doctor();
      const [waiting, booker] = [await fx.patient(), await fx.patient()];
      await join(waiting, doctor);
      const booked = await book(booker, doctor);
      assert.equal(
        (await server.api('POST', `/api/admin/appointments/${booked.body.id}/cancel`, { token: admin.token })).status,
        200,
      );
      assert.equal(await offersTo(waiting), 1);
      const own = await book(waiting, doctor);
      assert.equal(own.status, 201, JSON.stringify(own.body));
      assert.deepEqual(await openOffers(doctor), []);
      assert.deepEqual((await server.api('GET', '/api/patient/waitlist', { token: waiting.token })).body.entries, []);
      assert.equal(
        await offerMailAfterSending(waiting),
        'skipped',
        'an offer fulfilled before its e-mail went out is not sent and gets no token',
      );
    });

    it('answers an offer whose doctor left the clinic meanwhile that its time closed', async () => {
      clock.set(NOW);
      const doctor = await fx.doctor();
      const patient = await fx.patient();
      await join(patient, doctor);
      await freeTheSlot(doctor);
      const token = await offerToken(patient);
      assert.equal(
        (await server.api('DELETE', `/api/admin/doctors/${doctor.doctorId}`, { token: admin.token })).status,
        200,
      );
      const accepted = await answer('accept', token);
      assert.deepEqual([accepted.status, accepted.body.code], [409, 'offer_closed']);
    });

    it('hands a held slot on when its patient leaves the waitlist', async () => {
      clock.set(NOW);
      const doctor = await fx.doctor();
      const [first, second] = [await fx.patient(), await fx.patient()];
      const entry = await join(first, doctor);
      await join(second, doctor);
      await freeTheSlot(doctor);
      assert.equal(
        (await server.api('DELETE', `/api/patient/waitlist/${entry.body.id}`, { token: first.token })).status,
        204,
      );
      assert.equal(await offersTo(second), 1);
      assert.equal(
        await offerMailAfterSending(first),
        'skipped',
        'an offer withdrawn before its e-mail went out is not sent and gets no token',
      );
    });

    it('offers one freed slot once when two instances process it and its expiry at the same time', {
      skip: target.name !== 'postgres' && 'needs a PostgreSQL server',
    }, async () => {
      clock.set(NOW);
      const secondDb = await openPostgres(server.databaseUrl ?? '');
      try {
        const doctor = await fx.doctor();
        const [first, second, third] = [await fx.patient(), await fx.patient(), await fx.patient()];
        for (const p of [first, second, third]) await join(p, doctor);
        const instances = [server.db, secondDb].map((db) => schedulingDeps(db, clock, server.app.config));
        const freed = { doctorId: doctor.doctorId, date: MONDAY, startTime: '09:00' };
        await Promise.all(instances.map((deps) => deps.transaction((tx) => slotFreed(deps, tx, freed))));
        assert.deepEqual(await openOffers(doctor), [
          only(
            await server.db.query<{ entry_id: number }>(
              `select id as entry_id from waitlist_entries where patient_id = $1`,
              [first.patientId],
            ),
          ),
        ]);
        assert.equal(await offersTo(first), 1);

        clock.set(minutesAfter(NOW, 31));
        const secondApp = makeApp({ db: secondDb, clock, config: server.app.config });
        await Promise.all([server.app.waitlist.expireOffers(), secondApp.waitlist.expireOffers()]);
        const statuses = await server.db.query<{ status: string }>(
          `select status from waitlist_offers where doctor_id = $1 order by id`,
          [doctor.doctorId],
        );
        assert.deepEqual(
          statuses.map((s) => s.status),
          ['expired', 'open'],
          'one instance hands the expired offer on',
        );
        assert.equal((await openOffers(doctor)).length, 1);
        assert.deepEqual([await offersTo(second), await offersTo(third)], [1, 0]);

        // The offered patient accepts on one instance while another patient books the held slot on the other.
        const thirdActor = {
          userId: third.user.id,
          role: 'patient' as const,
          name: third.name,
          patientId: third.patientId,
        };
        const [accepted, booked] = await Promise.allSettled([
          server.app.waitlist.acceptOffer({ token: await offerToken(second) }),
          secondApp.scheduling.book(
            { doctor_id: doctor.doctorId, schedule_id: doctor.scheduleId, date: MONDAY },
            thirdActor,
          ),
        ]);
        assert.equal(accepted.status, 'fulfilled');
        assert.equal(booked.status === 'rejected' && (booked.reason as { code?: string }).code, 'slot_taken');
        const visits = await server.db.query<{ patient_id: number }>(
          `select patient_id from appointments where doctor_id = $1 and date = $2 and status <> 'cancelled'`,
          [doctor.doctorId, MONDAY],
        );
        assert.deepEqual(visits, [{ patient_id: second.patientId }]);
      } finally {
        await secondDb.close();
      }
    });
  });
}
