import { after, before, describe, it, it as itOnEveryEngine } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fixedClock, signUpAdmin, signUpReceptionist, startTestServer, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { onOneDatabase, testDatabases } from '../testing/test-db.ts';
import { present } from '../testing/assert.ts';
import {
  STAND_IN_SECRET_KEY,
  STAND_IN_WEBHOOK_SECRET,
  startStripeStandIn,
  type StripeStandIn,
} from '../testing/stripe-stand-in.ts';
import { billingRoutes } from './routes/billing.ts';
import { assertRoutesAnswerByAccess } from '../testing/route-access.ts';

const NOW = '2026-06-10T18:00:00Z';

/** A bill raised as the clinic raises them, a doctor recording a visit with a cost; its id. */
async function billOf(server: TestServer, fx: ReturnType<typeof clinicFixtures>, patientId: number, cost = '80.00') {
  const doctor = await fx.doctor();
  const diseaseId = await fx.disease(`Migraine ${patientId}`);
  const appointmentId = await fx.appointment({ doctor, patientId, date: '2026-06-10' });
  const res = await server.api('POST', `/api/doctor/appointments/${appointmentId}/medical-record`, {
    token: doctor.token,
    body: {
      disease_id: diseaseId,
      diagnosis: 'Tension headache',
      service_type: 'Consultation',
      cost,
      record_date: '2026-06-10',
    },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.billing.id as number;
}

for (const target of testDatabases('one')) {
  describe(`online card payment without a card processor on ${target.name}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(target, {
        clock: fixedClock(NOW),
        bankTransferDetails: 'IBAN DE89 3704 0044 0532 0130 00',
      });
    });
    after(() => server.close());

    it('refuses to take a card online, saying how to pay instead, and records nothing', async () => {
      const fx = clinicFixtures(server);
      const patient = await fx.patient('Nora Nocard');
      const billId = await billOf(server, fx, patient.patientId);
      const res = await server.api('POST', `/api/patient/billings/${billId}/pay`, { token: patient.token });
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'online_payment_off');
      assert.match(res.body.message, /front desk or by bank transfer quoting B-0+\d+/);
      assert.equal(await fx.count('payments', 'billing_id = $1', [billId]), 0);
      const options = await server.api('GET', '/api/patient/payment-options', { token: patient.token });
      assert.equal(options.status, 200);
      assert.deepEqual(
        [options.body.online_card, options.body.bank_transfer],
        [false, 'IBAN DE89 3704 0044 0532 0130 00'],
      );
      const webhook = await server.api('POST', '/api/card-payments/webhook', { body: {} });
      assert.deepEqual([webhook.status, webhook.body.code], [409, 'online_payment_off']);
    });
  });
}

for (const target of testDatabases('both')) {
  describe(`online card payment through Stripe Checkout (a stand-in) on ${target.name}`, () => {
    // `it` registers a test on the database testDatabases('one') gives alone: above the database, the engines do not
    // differ. Duplicate webhook deliveries at once, settled by the database, run on both (itOnEveryEngine).
    const it = onOneDatabase(target, itOnEveryEngine);
    let server: TestServer;
    let stripe: StripeStandIn;
    let fx: ReturnType<typeof clinicFixtures>;
    before(async () => {
      stripe = await startStripeStandIn();
      server = await startTestServer(target, {
        clock: fixedClock(NOW),
        stripe: { secretKey: STAND_IN_SECRET_KEY, webhookSecret: STAND_IN_WEBHOOK_SECRET, apiUrl: stripe.url },
      });
      stripe.webhookUrl = `${server.url}/api/card-payments/webhook`;
      fx = clinicFixtures(server);
    });
    after(async () => {
      await server.close();
      await stripe.close();
    });

    itOnEveryEngine(
      'marks the bill paid only by the signed webhook, once across duplicate and out-of-order deliveries',
      async () => {
        const patient = await fx.patient('Carla Card');
        const billId = await billOf(server, fx, patient.patientId, '120.00');
        const pay = () => server.api('POST', `/api/patient/billings/${billId}/pay`, { token: patient.token });
        const opened = await pay();
        assert.equal(opened.status, 200, JSON.stringify(opened.body));
        const session = present(stripe.sessions.at(-1));
        assert.equal(opened.body.checkout_url, session.url);
        assert.deepEqual([session.amount_total, session.currency, session.mode], [12000, 'usd', 'payment']);
        assert.match(session.success_url, /^http:\/\/127\.0\.0\.1:\d+\/user\/patient\/bills\?checkout=paid$/);
        assert.equal((await pay()).body.checkout_url, session.url, 'a second Pay gets the open checkout back');
        assert.equal(stripe.sessions.length, 1);
        const status = async () =>
          (
            await server.db.query<{ payment_status: string }>('select payment_status from billings where id = $1', [
              billId,
            ])
          )[0]?.payment_status;
        assert.equal(await status(), 'unpaid', 'opening a checkout pays nothing');

        const completed = stripe.event(session, 'checkout.session.completed', 'evt_completed');
        const asyncSucceeded = stripe.event(session, 'checkout.session.async_payment_succeeded', 'evt_async');
        // Expired first (out of order), then the same completed event three times at once, then another paid event.
        assert.equal(
          (await stripe.deliver(stripe.event(session, 'checkout.session.expired', 'evt_expired'))).status,
          200,
        );
        const answers = await Promise.all([completed, completed, completed].map((e) => stripe.deliver(e)));
        assert.deepEqual(
          answers.map((a) => a.status),
          [200, 200, 200],
        );
        assert.equal((await stripe.deliver(asyncSucceeded)).status, 200);
        assert.equal((await stripe.deliver(completed)).status, 200);

        assert.equal(await status(), 'paid');
        const payments = await server.db.query<{ method: string; amount_cents: number; recorded_by: number | null }>(
          'select method, amount_cents::int as amount_cents, recorded_by from payments where billing_id = $1',
          [billId],
        );
        assert.deepEqual(payments, [{ method: 'card', amount_cents: 12000, recorded_by: null }]);
        const admin = await signUpAdmin(server);
        const takings = await server.api('GET', '/api/desk/takings?date=2026-06-10', { token: admin.token });
        const card = present(takings.body.methods.find((m: { method: string }) => m.method === 'card'));
        assert.deepEqual([card.payments, card.amount_cents], [1, 12000]);
        assert.equal((await pay()).body.code, 'bill_already_paid');
      },
    );

    it('refuses a forged or missing signature with 400 and pays nothing', async () => {
      const patient = await fx.patient('Fred Forged');
      const billId = await billOf(server, fx, patient.patientId);
      await server.api('POST', `/api/patient/billings/${billId}/pay`, { token: patient.token });
      const session = present(stripe.sessions.at(-1));
      const forged = await stripe.deliver(stripe.event(session, 'checkout.session.completed'), 'whsec_forged');
      assert.deepEqual([forged.status, (forged.body as { code: string }).code], [400, 'bad_signature']);
      const unsigned = await server.api('POST', '/api/card-payments/webhook', { body: {} });
      assert.deepEqual([unsigned.status, unsigned.body.code], [400, 'bad_signature']);
      assert.equal(await fx.count('payments', 'billing_id = $1', [billId]), 0);
    });

    it("refuses another patient's bill as missing, and names a method other than card", async () => {
      const owner = await fx.patient('Olga Owner');
      const other = await fx.patient('Igor Intruder');
      const billId = await billOf(server, fx, owner.patientId);
      const foreign = await server.api('POST', `/api/patient/billings/${billId}/pay`, { token: other.token });
      assert.equal(foreign.status, 404);
      const cash = await server.api('POST', `/api/patient/billings/${billId}/pay`, {
        token: owner.token,
        body: { method: 'cash' },
      });
      assert.deepEqual([cash.status, Object.keys(cash.body.errors)], [422, ['method']]);
      assert.equal(stripe.sessions.filter((s) => s.client_reference_id !== null).length, stripe.sessions.length);
    });

    it('answers every billing route to each identity as its access says', async () => {
      const admin = await signUpAdmin(server);
      const identities: Record<string, string | undefined> = {
        none: undefined,
        patient: (await fx.patient('Ida Identity')).token,
        doctor: (await fx.doctor()).token,
        reception: (await signUpReceptionist(server, admin)).token,
        admin: admin.token,
      };
      const routes = billingRoutes(server.app, {});
      await assertRoutesAnswerByAccess(server, routes, identities);
    });
  });
}
