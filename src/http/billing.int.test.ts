import { after, before, describe, it as itOnEveryEngine } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fixedClock, signUpAdmin, startTestServer, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { onOneDatabase, testDatabases } from '../testing/test-db.ts';
import { first } from '../testing/assert.ts';

const NOW = '2026-06-10T18:00:00Z'; // 20:00 in the clinic's Europe/Berlin: today's fixture visits have all begun

for (const target of testDatabases('both')) {
  describe(`bills and payments over HTTP on ${target.name}`, () => {
    // `it` registers a test on the database testDatabases('one') gives alone: above the database, the engines do not
    // differ. The races on one bill, settled by its row lock and unique keys, run on both (itOnEveryEngine).
    const it = onOneDatabase(target, itOnEveryEngine);
    let server: TestServer;
    let fx: ReturnType<typeof clinicFixtures>;
    let doctor: Awaited<ReturnType<typeof fx.doctor>>;
    let patient: Awaited<ReturnType<typeof fx.patient>>;
    let otherPatient: Awaited<ReturnType<typeof fx.patient>>;
    let diseaseId: number;

    before(async () => {
      server = await startTestServer(target, {
        clock: fixedClock(NOW),
        clinicName: 'St. Test Clinic',
        clinicAddress: '1 Harbour Road',
        clinicPhone: '+1 555 0100',
      });
      fx = clinicFixtures(server);
      doctor = await fx.doctor();
      patient = await fx.patient('Paula Patient');
      otherPatient = await fx.patient('Oscar Other');
      diseaseId = await fx.disease('Migraine');
    });
    after(() => server.close());

    /** A bill raised the way the clinic raises them: a doctor records a visit with a cost. */
    async function billFor(
      who: { patientId: number },
      cost = '80.00',
      date = '2026-06-10',
      service = 'Consultation',
    ): Promise<number> {
      const appointmentId = await fx.appointment({ doctor, patientId: who.patientId, date });
      const res = await server.api('POST', `/api/doctor/appointments/${appointmentId}/medical-record`, {
        token: doctor.token,
        body: { disease_id: diseaseId, diagnosis: 'Tension headache', service_type: service, cost, record_date: date },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.billing.id;
    }
    // Without a card processor the patient pays at the desk (card-payments.int.test.ts pays online through one).
    const payAtDesk = async (billId: number, headers: Record<string, string> = {}) =>
      server.api('POST', `/api/billings/${billId}/payments`, {
        token: (await deskMember()).token,
        headers,
        body: { method: 'card' },
      });
    let deskSignedIn: ReturnType<typeof signUpAdmin> | undefined;
    const deskMember = () => {
      deskSignedIn ??= signUpAdmin(server);
      return deskSignedIn;
    };

    it("lists only the patient's own bills, newest first", async () => {
      const older = await billFor(patient, '40.00', '2026-06-01', 'Blood test');
      const newer = await billFor(patient, '55.25', '2026-06-09', 'Follow-up');
      const foreign = await billFor(otherPatient);
      const res = await server.api('GET', '/api/patient/billings', { token: patient.token });
      assert.equal(res.status, 200);
      const ids = res.body.billings.map((b: { id: number }) => b.id);
      assert.ok(ids.indexOf(newer) < ids.indexOf(older));
      assert.ok(!ids.includes(foreign));
      assert.equal(res.body.billings.find((b: { id: number }) => b.id === newer).amount, '55.25');
      const searched = await server.api('GET', '/api/patient/billings?q=blood', { token: patient.token });
      assert.deepEqual(
        searched.body.billings.map((b: { id: number }) => b.id),
        [older],
      );
      assert.equal((await server.api('GET', '/api/patient/billings', { token: doctor.token })).status, 403);
    });

    it('takes a bill once, then answers 409 bill_already_paid', async () => {
      const billId = await billFor(patient);
      const first = await payAtDesk(billId);
      assert.equal(first.status, 200);
      assert.equal(first.body.message, 'Payment successful');
      assert.equal(first.body.billing.payment_status, 'paid');
      assert.equal(first.body.billing.amount_cents, 8000);
      const again = await payAtDesk(billId);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'bill_already_paid');
      assert.equal(await fx.count('payments', 'billing_id = $1', [billId]), 1);
    });

    it('answers 404 for a bill that does not exist', async () => {
      assert.equal((await payAtDesk(9_999_999)).status, 404);
    });

    itOnEveryEngine('makes exactly one payment when twenty pays race on one bill', async () => {
      const billId = await billFor(patient);
      const answers = await Promise.all(Array.from({ length: 20 }, () => payAtDesk(billId)));
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [200, ...Array(19).fill(409)]);
      assert.ok(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'bill_already_paid'));
      assert.equal(await fx.count('payments', 'billing_id = $1', [billId]), 1);
    });

    itOnEveryEngine(
      'replays the first answer to a retry with the same Idempotency-Key, even a racing one',
      async () => {
        const billId = await billFor(patient);
        const headers = { 'idempotency-key': `pay-${billId}-attempt` };
        const answers = await Promise.all(Array.from({ length: 5 }, () => payAtDesk(billId, headers)));
        assert.deepEqual(
          answers.map((a) => a.status),
          [200, 200, 200, 200, 200],
        );
        const firstAnswer = first(answers);
        for (const a of answers) assert.deepEqual(a.body, firstAnswer.body);
        const later = await payAtDesk(billId, headers);
        assert.equal(later.status, 200);
        assert.deepEqual(later.body, firstAnswer.body);
        assert.equal(await fx.count('payments', 'billing_id = $1', [billId]), 1);
        assert.equal((await payAtDesk(billId)).status, 409, 'without the key a repeat is still a conflict');
      },
    );

    it('refuses an Idempotency-Key reused for another bill with 422', async () => {
      const first = await billFor(patient);
      const second = await billFor(patient);
      const headers = { 'idempotency-key': `shared-key-${first}` };
      assert.equal((await payAtDesk(first, headers)).status, 200);
      const reused = await payAtDesk(second, headers);
      assert.equal(reused.status, 422);
      assert.equal(reused.body.code, 'idempotency_key_reused');
      assert.equal(await fx.count('payments', 'billing_id = $1', [second]), 0);
    });

    it('takes part of a bill at the desk, up to its balance, and shows it partly paid with its balance until the patient pays the rest', async () => {
      const desk = await signUpAdmin(server);
      const billId = await billFor(patient, '100.00');
      const take = (body: object) =>
        server.api('POST', `/api/billings/${billId}/payments`, { token: desk.token, body });
      const tooMuch = await take({ method: 'cash', amount: '100.01' });
      assert.deepEqual([tooMuch.status, Object.keys(tooMuch.body.errors)], [422, ['amount']]);
      const part = await take({ method: 'insurance', amount: '60' });
      assert.equal(part.status, 200);
      assert.deepEqual(
        [part.body.billing.payment_status, part.body.billing.paid, part.body.billing.balance],
        ['partly_paid', '60.00', '40.00'],
      );
      const mine = await server.api('GET', '/api/patient/billings', { token: patient.token });
      assert.equal(mine.body.billings.find((b: { id: number }) => b.id === billId).balance_cents, 4000);
      const rest = await payAtDesk(billId);
      assert.deepEqual([rest.body.billing.payment_status, rest.body.billing.balance_cents], ['paid', 0]);
      const receipt = await server.api('GET', `/api/billings/${billId}/receipt`, { token: patient.token });
      assert.deepEqual(
        receipt.body.payments.map((p: { method: string; amount: string }) => [p.method, p.amount]),
        [
          ['insurance', '60.00'],
          ['card', '40.00'],
        ],
      );
      assert.equal((await take({ method: 'cash', amount: '1' })).body.code, 'bill_already_paid');
    });

    it("sums the desk's takings of a day per method to exactly the payments taken, lists each with who took it, and gives the same as CSV", async () => {
      const desk = await signUpAdmin(server);
      const before = await server.api('GET', '/api/desk/takings?date=2026-06-10', { token: desk.token });
      assert.equal(before.status, 200);
      const partly = await billFor(otherPatient, '30.00');
      const byCard = await billFor(otherPatient, '20.00');
      await server.api('POST', `/api/billings/${partly}/payments`, {
        token: desk.token,
        body: { method: 'cash', amount: '12.34' },
      });
      await server.api('POST', `/api/billings/${partly}/payments`, {
        token: desk.token,
        body: { method: 'bank_transfer' },
      });
      await payAtDesk(byCard);
      const after = await server.api('GET', '/api/desk/takings?date=2026-06-10', { token: desk.token });
      const taken = (report: { body: { methods: { method: string; amount_cents: number }[] } }, method: string) =>
        report.body.methods.find((m) => m.method === method)?.amount_cents ?? 0;
      assert.deepEqual(
        ['cash', 'bank_transfer', 'card', 'insurance'].map((method) => taken(after, method) - taken(before, method)),
        [1234, 1766, 2000, 0],
      );
      assert.equal(after.body.total_cents - before.body.total_cents, 5000);
      const { sum } = first(
        await server.db.query<{ sum: number }>('select sum(amount_cents)::int as sum from payments'),
      );
      assert.equal(after.body.total_cents, sum, 'the total is every payment of the day');
      type Taken = {
        bill_id: number;
        bill_number: string;
        method: string;
        amount_cents: number;
        patient: { name: string };
        taken_by: string | null;
      };
      const listed = (after.body.taken as Taken[]).filter((p) => [partly, byCard].includes(p.bill_id));
      const deskName = (await deskMember()).user.name;
      assert.deepEqual(
        listed.map((p) => [p.bill_id, p.method, p.amount_cents, p.patient.name, p.taken_by]),
        [
          [partly, 'cash', 1234, 'Oscar Other', desk.user.name],
          [partly, 'bank_transfer', 1766, 'Oscar Other', desk.user.name],
          [byCard, 'card', 2000, 'Oscar Other', deskName],
        ],
      );
      assert.ok(listed.every((p) => p.bill_number === `B-${String(p.bill_id).padStart(6, '0')}`));
      assert.equal(after.body.taken.length, after.body.payments, 'every payment of the day is listed');
      const csv = await server.api('GET', '/api/desk/takings.csv?date=2026-06-10', { token: desk.token });
      assert.equal(csv.status, 200);
      assert.ok(String(csv.body).startsWith('date,method,payments,amount,amount_cents,currency\r\n'));
      assert.ok(
        String(csv.body).includes(
          `2026-06-10,total,${after.body.payments},${after.body.total},${after.body.total_cents},USD\r\n`,
        ),
      );
      assert.equal((await server.api('GET', '/api/desk/takings', { token: patient.token })).status, 403);
      assert.deepEqual(
        Object.keys((await server.api('GET', '/api/desk/takings?date=June', { token: desk.token })).body.errors),
        ['date'],
      );
    });

    it("gives the owner and an admin a receipt with the clinic's address and phone, the patient's birth date, the doctor, the visit date and who took each payment, and no one else", async () => {
      const billId = await billFor(patient, '120.50', '2026-06-08', 'X-ray');
      const unpaid = await server.api('GET', `/api/billings/${billId}/receipt`, { token: patient.token });
      assert.equal(unpaid.status, 200);
      assert.equal(unpaid.body.payment_status, 'unpaid');
      assert.equal(unpaid.body.amount_paid, '0.00');
      assert.equal(unpaid.body.payment_date, null);

      assert.equal((await payAtDesk(billId)).status, 200);
      const admin = await signUpAdmin(server);
      const receipt = await server.api('GET', `/api/billings/${billId}/receipt`, { token: admin.token });
      assert.equal(receipt.status, 200);
      assert.deepEqual(receipt.body, {
        clinic_name: 'St. Test Clinic',
        clinic: { name: 'St. Test Clinic', address: '1 Harbour Road', phone: '+1 555 0100' },
        bill_number: `B-${String(billId).padStart(6, '0')}`,
        patient: { id: patient.patientId, name: 'Paula Patient', email: patient.email, birth_date: '1990-05-17' },
        doctor_name: 'Dr. Grey',
        visit_date: '2026-06-08',
        billing_date: '2026-06-08',
        supplements_bill_number: null,
        items: [{ description: 'X-ray', amount: '120.50', amount_cents: 12050 }],
        credit_notes: [],
        total: '120.50',
        total_cents: 12050,
        amount_paid: '120.50',
        amount_paid_cents: 12050,
        balance: '0.00',
        balance_cents: 0,
        refund_due: '0.00',
        refund_due_cents: 0,
        payments: [
          {
            date: '2026-06-10',
            method: 'card',
            amount: '120.50',
            amount_cents: 12050,
            taken_by: (await deskMember()).user.name,
          },
        ],
        payment_date: '2026-06-10',
        payment_method: 'card',
        payment_status: 'paid',
        currency: 'USD',
      });
      const stranger = await server.api('GET', `/api/billings/${billId}/receipt`, { token: otherPatient.token });
      assert.equal(stranger.status, 404);
      assert.equal(stranger.body.code, 'not_found');
      assert.equal((await server.api('GET', `/api/billings/${billId}/receipt`, { token: doctor.token })).status, 403);
    });

    it("answers the patient's outstanding balance over their unpaid bills only", async () => {
      const fresh = await fx.patient('Bea Balance');
      const none = await server.api('GET', '/api/patient/balance', { token: fresh.token });
      assert.deepEqual(none.body, { outstanding: '0.00', outstanding_cents: 0, unpaid_bills: 0 });
      const paid = await billFor(fresh, '10.00');
      await billFor(fresh, '20.25');
      await billFor(fresh, '5.50');
      await billFor(otherPatient, '99.00');
      assert.equal((await payAtDesk(paid)).status, 200);
      const res = await server.api('GET', '/api/patient/balance', { token: fresh.token });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { outstanding: '25.75', outstanding_cents: 2575, unpaid_bills: 2 });
      assert.equal((await server.api('GET', '/api/patient/balance', { token: doctor.token })).status, 403);
    });

    it('audits the payment against the patient, naming who took it', async () => {
      const billId = await billFor(patient);
      const paid = await payAtDesk(billId);
      const admin = await signUpAdmin(server);
      const taker = (await deskMember()).user;
      const res = await server.api('GET', `/api/admin/audit?patient_id=${patient.patientId}`, { token: admin.token });
      const entry = res.body.entries.find(
        (e: { request_id: string }) => e.request_id === paid.headers.get('x-request-id'),
      );
      assert.equal(entry.action, 'pay');
      assert.equal(entry.entity, 'billing');
      assert.equal(entry.entity_id, String(billId));
      assert.deepEqual(entry.actor, { id: taker.id, name: 'Ada Admin', role: 'admin' });
    });
  });
}
