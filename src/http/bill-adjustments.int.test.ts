import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { Invoice } from '@medplum/fhirtypes';
import { fixedClock, signUpAdmin, signUpReceptionist, startTestServer, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { fhirClient } from '../testing/fhir.ts';
import { testDatabases } from '../testing/test-db.ts';
import { first } from '../testing/assert.ts';

const NOW = '2026-06-10T18:00:00Z'; // 20:00 in the clinic's Europe/Berlin

for (const target of testDatabases('one')) {
  describe(`bill adjustments over HTTP on ${target.name}`, () => {
    let server: TestServer;
    let fx: ReturnType<typeof clinicFixtures>;
    let doctor: Awaited<ReturnType<typeof fx.doctor>>;
    let patient: Awaited<ReturnType<typeof fx.patient>>;
    let admin: { token: string };
    let reception: { token: string };
    let diseaseId: number;

    before(async () => {
      server = await startTestServer(target, { clock: fixedClock(NOW) });
      fx = clinicFixtures(server);
      doctor = await fx.doctor();
      patient = await fx.patient('Paula Patient');
      diseaseId = await fx.disease('Migraine');
      admin = await signUpAdmin(server);
      reception = await signUpReceptionist(server, admin);
    });
    after(() => server.close());

    async function billFor(cost = '100.00', date = '2026-06-10'): Promise<{ billId: number; recordId: number }> {
      const appointmentId = await fx.appointment({ doctor, patientId: patient.patientId, date });
      const res = await server.api('POST', `/api/doctor/appointments/${appointmentId}/medical-record`, {
        token: doctor.token,
        body: {
          disease_id: diseaseId,
          diagnosis: 'Tension headache',
          service_type: 'Consultation',
          cost,
          record_date: date,
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return { billId: res.body.billing.id, recordId: res.body.medical_record.id };
    }
    const adjust = (billId: number, body: object, token = reception.token, headers: Record<string, string> = {}) =>
      server.api('POST', `/api/billings/${billId}/adjustments`, { token, body, headers });
    const credit = (billId: number, amount: string, token = reception.token, headers: Record<string, string> = {}) =>
      adjust(billId, { kind: 'credit', amount, reason: 'Goodwill' }, token, headers);
    const take = (billId: number, amount?: string) =>
      server.api('POST', `/api/billings/${billId}/payments`, {
        token: reception.token,
        body: { method: 'cash', ...(amount ? { amount } : {}) },
      });
    const adjustmentsOf = (billId: number) =>
      server.db.query<{ n: number }>('select count(*)::int as n from bill_adjustments where billing_id = $1', [billId]);

    it('credits up to what remains creditable, names amount, reason and kind when wrong, and adjusts nothing then', async () => {
      const { billId } = await billFor('80.00');
      const issued = await credit(billId, '30');
      assert.equal(issued.status, 201, JSON.stringify(issued.body));
      assert.equal(issued.body.message, 'Credit note issued');
      const b = issued.body.billing;
      assert.deepEqual(
        [
          b.amount_cents,
          b.credited_cents,
          b.adjusted_amount_cents,
          b.balance_cents,
          b.refund_due_cents,
          b.payment_status,
        ],
        [8000, 3000, 5000, 5000, 0, 'unpaid'],
      );
      assert.deepEqual(
        b.adjustments.map((a: { kind: string; amount: string; reason: string }) => [a.kind, a.amount, a.reason]),
        [['credit', '30.00', 'Goodwill']],
      );
      const tooMuch = await credit(billId, '50.01');
      assert.deepEqual([tooMuch.status, Object.keys(tooMuch.body.errors)], [422, ['amount']]);
      const noReason = await adjust(billId, { kind: 'credit', amount: '1', reason: ' ' });
      assert.deepEqual([noReason.status, Object.keys(noReason.body.errors)], [422, ['reason']]);
      const badKind = await adjust(billId, { kind: 'refund', amount: '1', reason: 'x' });
      assert.deepEqual([badKind.status, Object.keys(badKind.body.errors)], [422, ['kind']]);
      assert.equal(first(await adjustmentsOf(billId)).n, 1);
      const all = await credit(billId, '50');
      assert.deepEqual([all.body.billing.balance_cents, all.body.billing.payment_status], [0, 'paid']);
      const again = await credit(billId, '0.01');
      assert.deepEqual([again.status, again.body.code], [409, 'bill_fully_credited']);
      assert.equal((await take(billId)).body.code, 'bill_already_paid');
    });

    it('is refused to patients and doctors with 403, and answers 404 for a bill that does not exist', async () => {
      const { billId } = await billFor();
      assert.equal((await credit(billId, '1', patient.token)).status, 403);
      assert.equal((await credit(billId, '1', doctor.token)).status, 403);
      assert.equal((await credit(9_999_999, '1', admin.token)).status, 404);
      assert.equal(first(await adjustmentsOf(billId)).n, 0);
    });

    it('keeps the status by the adjusted amount through payments and credits, and shows what was paid beyond as a refund due', async () => {
      const { billId } = await billFor('100.00');
      assert.equal((await take(billId, '60')).body.billing.payment_status, 'partly_paid');
      const settled = (await credit(billId, '40', admin.token)).body.billing;
      assert.deepEqual([settled.payment_status, settled.balance_cents, settled.refund_due_cents], ['paid', 0, 0]);
      const beyond = (await credit(billId, '15', admin.token)).body.billing;
      assert.deepEqual(
        [beyond.payment_status, beyond.adjusted_amount, beyond.balance_cents, beyond.refund_due],
        ['paid', '45.00', 0, '15.00'],
      );
      assert.equal((await take(billId, '1')).body.code, 'bill_already_paid');

      const second = (await billFor('100.00')).billId;
      await credit(second, '30');
      const paid = await take(second);
      assert.deepEqual([paid.body.billing.paid_cents, paid.body.billing.payment_status], [7000, 'paid']);
    });

    it('adjusts once under a double submit with one Idempotency-Key, and two racing credits never pass the amount', async () => {
      const { billId } = await billFor('100.00');
      const headers = { 'idempotency-key': `adjust-${billId}` };
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => credit(billId, '10', reception.token, headers)),
      );
      assert.deepEqual(
        answers.map((a) => a.status),
        [201, 201, 201, 201],
      );
      for (const a of answers) assert.deepEqual(a.body, first(answers).body);
      assert.equal(first(await adjustmentsOf(billId)).n, 1);
      const reused = await credit(billId, '11', reception.token, headers);
      assert.deepEqual([reused.status, reused.body.code], [422, 'idempotency_key_reused']);

      const racing = await Promise.all([credit(billId, '60'), credit(billId, '60')]);
      assert.deepEqual(racing.map((a) => a.status).sort(), [201, 422]);
      const { credited_cents } = first(
        await server.db.query<{ credited_cents: number }>('select credited_cents from billings where id = $1', [
          billId,
        ]),
      );
      assert.equal(Number(credited_cents), 7000);
    });

    it("issues a supplementary bill linked to the original, paid like any bill, on the patient's Bills with its receipt", async () => {
      const { billId } = await billFor('50.00');
      const res = await adjust(
        billId,
        { kind: 'supplementary', amount: '12.50', reason: 'Extra lab test' },
        admin.token,
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const extra = res.body.supplementary_billing;
      assert.deepEqual([extra.amount_cents, extra.supplements_bill_id, extra.payment_status], [1250, billId, 'unpaid']);
      assert.deepEqual(
        [res.body.billing.balance_cents, res.body.billing.adjustments[0].supplementary_bill_id],
        [5000, extra.id],
      );
      const mine = await server.api('GET', '/api/patient/billings', { token: patient.token });
      const listed = mine.body.billings.find((b: { id: number }) => b.id === extra.id);
      assert.equal(listed.service_details, `Supplement to B-${String(billId).padStart(6, '0')}: Extra lab test`);
      const paid = await take(extra.id);
      assert.equal(paid.body.billing.payment_status, 'paid');
      const receipt = await server.api('GET', `/api/billings/${extra.id}/receipt`, { token: patient.token });
      assert.deepEqual(
        [receipt.body.supplements_bill_number, receipt.body.doctor_name, receipt.body.total_cents],
        [`B-${String(billId).padStart(6, '0')}`, 'Dr. Grey', 1250],
      );
      const doctorsBills = await server.api(
        'GET',
        `/api/admin/billings?doctor_id=${doctor.doctorId}&from=2026-06-10&to=2026-06-10`,
        { token: admin.token },
      );
      const ids = doctorsBills.body.billings.map((b: { id: number }) => b.id);
      assert.ok(
        ids.includes(extra.id) && ids.includes(billId),
        "the admin finds the supplementary bill under the visit's doctor",
      );
    });

    it('lists credit notes on the receipt and to the patient, audits each, and takes no credit as takings', async () => {
      const { billId } = await billFor('100.00');
      const takings = async () =>
        (await server.api('GET', '/api/desk/takings?date=2026-06-10', { token: reception.token })).body.total_cents;
      const before = await takings();
      const issued = await adjust(billId, { kind: 'credit', amount: '20', reason: 'Long wait' });
      assert.equal(await takings(), before, 'a credit note is not money taken');
      const receipt = await server.api('GET', `/api/billings/${billId}/receipt`, { token: patient.token });
      assert.deepEqual(receipt.body.credit_notes, [
        { date: '2026-06-10', reason: 'Long wait', amount: '20.00', amount_cents: 2000 },
      ]);
      assert.deepEqual(
        [receipt.body.total_cents, receipt.body.balance_cents, receipt.body.items[0].amount_cents],
        [8000, 8000, 10000],
      );
      const mine = await server.api('GET', '/api/patient/billings', { token: patient.token });
      assert.equal(mine.body.billings.find((b: { id: number }) => b.id === billId).adjustments[0].reason, 'Long wait');
      const audit = await server.api('GET', `/api/admin/audit?patient_id=${patient.patientId}`, { token: admin.token });
      const entry = audit.body.entries.find(
        (e: { request_id: string }) => e.request_id === issued.headers.get('x-request-id'),
      );
      assert.deepEqual([entry.action, entry.entity, entry.entity_id], ['credit', 'billing', String(billId)]);
      const balance = await server.api('GET', '/api/patient/balance', { token: patient.token });
      assert.equal(balance.status, 200);
    });

    it("shows a credited bill's Invoice net of its credit notes, with the credit as a discount", async () => {
      const { billId } = await billFor('100.00');
      await credit(billId, '25');
      const res = await fhirClient(server).get<Invoice>(`/Invoice/${billId}`, admin.token);
      assert.equal(res.status, 200);
      assert.deepEqual(
        [res.body.totalNet?.value, res.body.lineItem?.[0]?.priceComponent?.map((p) => p.type)],
        [75, ['base', 'discount']],
      );
    });

    it('reports what was billed net of credit notes and what is unpaid by the adjusted amount', async () => {
      const date = '2026-05-04';
      const { billId } = await billFor('100.00', date);
      await take(billId, '50');
      await credit(billId, '70');
      const report = await server.app.adminReports.billingReport({ from: date, to: date });
      assert.deepEqual(
        [report.total.billed_cents, report.total.paid_cents, report.total.unpaid_cents].map(Number),
        [3000, 5000, 0],
      );
    });

    it('leaves the bill as it was when its record is amended', async () => {
      const { billId, recordId } = await billFor('100.00');
      await credit(billId, '10');
      const before = first(
        await server.db.query(
          'select amount_cents, credited_cents, paid_cents, payment_status from billings where id = $1',
          [billId],
        ),
      );
      const amended = await server.api('POST', `/api/medical-records/${recordId}/amendments`, {
        token: doctor.token,
        body: {
          disease_id: diseaseId,
          diagnosis: 'Migraine without aura',
          lab_tests: '',
          prescriptions: '',
          reason: 'Second look',
          version: 1,
        },
      });
      assert.equal(amended.status, 201, JSON.stringify(amended.body));
      assert.deepEqual(
        first(
          await server.db.query(
            'select amount_cents, credited_cents, paid_cents, payment_status from billings where id = $1',
            [billId],
          ),
        ),
        before,
      );
    });
  });
}
