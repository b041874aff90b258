/**
 * The bare twins of the writes the bench drives: a booking, a visit's record (record, completion and bill), the
 * desk's payment of a bill, and the clinical writes, a lab result entered and a vital-sign set recorded. Each runs in one transaction through the very deps Medora composes (app.ts) — the
 * same adapters in the same order, so the same statements — and answers the same JSON; the booking goes through
 * the same checkPlacement and takeSlot. Left out, as in the read twins: routing, role checks, input validation,
 * headers, request ids and the access log. round-trips.ts compares the statements of both on every bench run.
 * The clinical writes' twins call the use case Medora's route calls (its input check included), so there the
 * difference is the HTTP framework alone.
 */
import { billingDeps, labDeps, recordsDeps, schedulingDeps, vitalsDeps, type AppConfig } from '../../src/app.ts';
import { enterItemResult } from '../../src/domain/lab/api-use-cases.ts';
import { recordVitalSet } from '../../src/domain/vitals/use-cases.ts';
import { actorOf } from '../../src/domain/auth/auth.ts';
import type { SessionUser } from '../../src/domain/auth/ports.ts';
import { balanceOf, billForVisit, billedVisit, type PaymentMethod } from '../../src/domain/billing/billing.ts';
import { billingJson } from '../../src/domain/billing/billing-answers.ts';
import { billIssued, paymentReceipt } from '../../src/domain/notifications/templates.ts';
import { medicalRecordJson } from '../../src/domain/records/records.ts';
import { checkPlacement, takeSlot } from '../../src/domain/scheduling/booking.ts';
import { nowInClinic } from '../../src/domain/scheduling/use-case-input.ts';
import type { Clock } from '../../src/domain/shared/clock.ts';
import { clinicToday } from '../../src/domain/shared/clock.ts';
import { parseCents } from '../../src/domain/shared/money.ts';
import type { Db } from '../../src/db/db.ts';
import { appointmentJson } from '../../src/domain/scheduling/appointment-answers.ts';
import { present } from '../../src/testing/assert.ts';

/** A write as the twin gets it: the signed-in user, the id in the path (NaN when none) and the parsed body. */
export interface WriteAsk {
  user: SessionUser;
  id: number;
  body: unknown;
  requestId: string;
}
export type WriteReply = { status: number; body: unknown };

// The bench sends only well-formed requests: the twin trusts their shape, as it leaves validation out.
type BookingBody = { doctor_id: number; schedule_id: number; date: string };
type PaymentBody = { method: PaymentMethod };
type VisitBody = {
  disease_id: number;
  diagnosis: string;
  lab_tests?: string;
  prescriptions?: string;
  service_type: string;
  cost?: string;
};

const missing = (what: string): WriteReply => ({
  status: 404,
  body: { message: `${what} not found`, code: 'not_found' },
});

export function writeTwins(
  db: Db,
  config: AppConfig,
  clock: Clock,
): { path: RegExp; answer: (ask: WriteAsk) => Promise<WriteReply> }[] {
  const scheduling = schedulingDeps(db, clock, config);
  const records = recordsDeps(db, clock, config);
  const billing = billingDeps(db, clock, config);

  const book = async ({ user, body, requestId }: WriteAsk): Promise<WriteReply> => {
    const { doctor_id, schedule_id, date } = body as BookingBody;
    const actor = actorOf(user, requestId);
    const patientId = present(user.patientId, 'patient id');
    const to = { doctorId: doctor_id, scheduleId: schedule_id, date };
    const appointment = await scheduling.transaction(async (tx) => {
      const { ownHold } = await checkPlacement(
        tx,
        to,
        { actor, patientId, limits: scheduling.bookingLimits },
        nowInClinic(scheduling),
      );
      return takeSlot(scheduling, tx, { patientId, ...to, actor, hold: ownHold });
    });
    return { status: 201, body: appointmentJson(appointment) };
  };

  const recordVisit = async ({ user, id: appointmentId, body, requestId }: WriteAsk): Promise<WriteReply> => {
    const b = body as VisitBody;
    const visit = {
      diseaseId: b.disease_id,
      diagnosis: b.diagnosis,
      labTests: b.lab_tests ?? '',
      prescriptions: b.prescriptions ?? '',
      serviceType: b.service_type,
      costCents: parseCents(b.cost) ?? 0,
      recordDate: clinicToday(clock, config.clinicTz),
    };
    // Medora's form reader asks whether the disease exists before the transaction: the same statement.
    await records.diseases.exists(visit.diseaseId);
    const actor = actorOf(user, requestId);
    const doctorId = present(user.doctorId, 'doctor id');
    return records.transaction(async (tx) => {
      const appointment = await tx.appointments.lock(appointmentId);
      if (!appointment) return missing('Appointment');
      const patientId = appointment.patient.id;
      const record = await tx.records.create({ ...visit, appointmentId, patientId, doctorId });
      await tx.appointments.markCompleted(appointmentId, tx.clock.now());
      const newBill = billForVisit({ ...visit, patientId, medicalRecordId: record.id });
      const bill = newBill ? await tx.bills.create(newBill) : undefined;
      const audited = { actor, patientId };
      await tx.audit.record(
        { ...audited, action: 'create', entity: 'medical_record', entityId: record.id },
        {
          ...audited,
          action: 'update',
          entity: 'appointment',
          entityId: appointmentId,
          details: { from: appointment.status, status: 'completed' },
        },
        ...(bill
          ? [
              {
                ...audited,
                action: 'create',
                entity: 'billing',
                entityId: bill.id,
                details: { amount_cents: bill.amountCents },
              },
            ]
          : []),
      );
      if (bill && bill.patient.email !== null) {
        await tx.outbox.enqueue(
          billIssued(records.clinic, billedVisit(bill), { email: bill.patient.email, userId: null }, tx.clock.now()),
        );
      }
      return {
        status: 201,
        body: {
          medical_record: medicalRecordJson(record),
          appointment: appointmentJson({ ...appointment, status: 'completed' }),
          billing: bill ? billingJson(bill) : null,
        },
      };
    });
  };

  const pay = async ({ user, id: billingId, body, requestId }: WriteAsk): Promise<WriteReply> => {
    const actor = actorOf(user, requestId);
    const { method } = body as PaymentBody;
    return billing.transaction(async (tx) => {
      const bill = await tx.bills.lock(billingId);
      if (!bill) return missing('Bill');
      const amountCents = balanceOf(bill);
      const paid = await tx.bills.addPaid(bill.id, amountCents);
      const payment = await tx.payments.create({
        billingId,
        patientId: bill.patient.id,
        amountCents,
        method,
        paidAt: tx.clock.now(),
        recordedBy: actor.userId,
      });
      await tx.audit.record({
        actor,
        action: 'pay',
        entity: 'billing',
        entityId: bill.id,
        patientId: bill.patient.id,
        details: { payment_id: payment.id, amount_cents: amountCents, method, balance_cents: balanceOf(paid) },
      });
      if (paid.patient.email !== null) {
        const receipt = { ...billedVisit(paid), amountCents, method, paymentId: payment.id };
        await tx.outbox.enqueue(
          paymentReceipt(tx.clinic, receipt, { email: paid.patient.email, userId: null }, tx.clock.now()),
        );
      }
      return { status: 200, body: { message: 'Payment successful', billing: billingJson(paid) } };
    });
  };

  const lab = labDeps(db, clock, config);
  const vitals = vitalsDeps(db, clock, config);
  const enterResult = async ({ user, id, body, requestId }: WriteAsk): Promise<WriteReply> => ({
    status: 201,
    body: await enterItemResult(lab, id, body, actorOf(user, requestId)),
  });
  const recordVitals = async ({ user, body, requestId }: WriteAsk): Promise<WriteReply> => {
    const { set, created } = await recordVitalSet(vitals, { body }, actorOf(user, requestId));
    return { status: created ? 201 : 200, body: set };
  };

  return [
    { path: /^\/api\/appointments\/book$/, answer: book },
    { path: /^\/api\/lab\/items\/([^/]+)\/result$/, answer: enterResult },
    { path: /^\/api\/vitals\/sets$/, answer: recordVitals },
    { path: /^\/api\/doctor\/appointments\/([^/]+)\/medical-record$/, answer: recordVisit },
    { path: /^\/api\/billings\/([^/]+)\/payments$/, answer: pay },
  ];
}
