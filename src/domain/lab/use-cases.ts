import { recordingRefusals } from '../audit/audit.ts';
import { requireCare } from '../care/guard.ts';
import { ownDoctorId, type Actor } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { conflict, ensure, invalid, notFound } from '../shared/errors.ts';
import type { CatalogueTest } from './catalogue.ts';
import { type Interpretation, interpretFor } from './interpretation.ts';
import {
  MAX_CLINICAL_NOTE,
  type OrderSource,
  type Priority,
  type RejectionReason,
  orderLines,
  requireCancellable,
  requireLab,
  requireResultable,
} from './orders.ts';
import { tellCriticalAlerts } from './critical.ts';
import type { LabDeps } from './ports.ts';
import { type ObservationValue, escalatesAt, mayAcknowledge, reportTransition } from './reports.ts';
import { quantityInTestUnit } from './units.ts';

/**
 * A doctor orders tests from a visit or a stay of a patient in their care team. In one transaction the order, its
 * items (panels expanded), its report and one bill per test as ordered (at the catalogue's price) are written.
 */
export async function placeOrder(
  deps: LabDeps,
  input: { source: OrderSource; testIds: number[]; priority: Priority; clinicalNote: string },
  actor: Actor,
): Promise<{ id: number; orderNumber: string; billIds: number[] }> {
  const doctorId = ownDoctorId(actor, 'Only doctors order tests');
  if (input.clinicalNote.length > MAX_CLINICAL_NOTE)
    throw invalid({ clinical_note: [`must be at most ${MAX_CLINICAL_NOTE} characters`] });
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const source = await tx.lab.sourceOf(input.source);
      const what = input.source.kind === 'visit' ? 'Appointment' : 'Admission';
      const entityId = input.source.kind === 'visit' ? input.source.appointmentId : input.source.admissionId;
      await requireCare(tx, actor, {
        patientId: source?.patientId,
        what,
        entity: input.source.kind === 'visit' ? 'appointment' : 'admission',
        entityId,
        attempt: 'order_tests',
      });
      const patientId = ensure(source, () => notFound(what)).patientId;
      const { billed, items } = orderLines(input.testIds, await tx.lab.tests(input.testIds));
      const now = tx.clock.now();
      const order = await tx.lab.createOrder({
        orderDate: clinicToday(tx.clock, tx.timeZone),
        patientId,
        doctorId,
        source: input.source,
        priority: input.priority,
        clinicalNote: input.clinicalNote,
        orderedAt: now,
        items: items.map((i) => ({ testId: i.test.id, panelId: i.panelId })),
      });
      const billIds: number[] = [];
      for (const test of billed.filter((t) => t.priceCents > 0)) {
        const bill = await tx.bills.create({
          patientId,
          medicalRecordId: null,
          serviceDetails: `${test.category === 'imaging' ? 'Imaging' : 'Lab'}: ${test.name} (order ${order.orderNumber})`,
          amountCents: test.priceCents,
          billingDate: clinicToday(tx.clock, tx.timeZone),
        });
        await tx.lab.addCharge(order.id, test.id, bill.id, test.priceCents);
        billIds.push(bill.id);
      }
      await tx.hl7.queue({ event: 'O21', orderId: order.id, control: 'NW' }, now);
      await tx.audit.record({
        actor,
        action: 'create',
        entity: 'lab_order',
        entityId: order.id,
        patientId,
        requestId: actor.requestId,
        details: { order_number: order.orderNumber, tests: billed.map((t) => t.code), bills: billIds },
      });
      return { id: order.id, orderNumber: order.orderNumber, billIds };
    }),
  );
}

/** The ordering doctor cancels an order before anything of it was collected; its bill lines are credited in full. */
export async function cancelOrder(deps: LabDeps, input: { orderId: number }, actor: Actor): Promise<void> {
  const doctorId = ownDoctorId(actor, 'Only doctors cancel orders');
  await deps.transaction(async (tx) => {
    const order = await tx.lab.lockOrder(input.orderId);
    if (!order || order.doctorId !== doctorId) throw notFound('Order');
    requireCancellable({ status: order.status, itemStatuses: order.items.map((i) => i.status) });
    reportTransition(order.reportStatus, 'cancel');
    const now = tx.clock.now();
    const charges = await tx.lab.cancelOrder(order.id, actor.userId, now);
    for (const charge of charges) {
      await tx.adjustments.create({
        billingId: charge.billingId,
        kind: 'credit',
        amountCents: charge.priceCents,
        reason: `Order ${order.orderNumber} cancelled before collection`,
        supplementaryBillId: null,
        createdBy: actor.userId,
        createdAt: now,
      });
      await tx.adjustments.credit(charge.billingId, charge.priceCents);
    }
    await tx.hl7.queue({ event: 'O21', orderId: order.id, control: 'CA' }, now);
    await tx.audit.record({
      actor,
      action: 'cancel',
      entity: 'lab_order',
      entityId: order.id,
      patientId: order.patientId,
      requestId: actor.requestId,
      details: { voided_bills: charges.map((c) => c.billingId) },
    });
  });
}

/** The lab records the specimen of one test ordered; collecting it twice is a 409 (one specimen in use, by the database). */
export async function collectSpecimen(
  deps: LabDeps,
  input: { itemId: number; specimenCode: string },
  actor: Actor,
): Promise<{ id: number }> {
  requireLab(actor);
  return deps.transaction(async (tx) => {
    const order = ensure(await tx.lab.lockOrderOfItem(input.itemId), () => notFound('Test ordered'));
    if (order.status === 'cancelled') throw conflict('order_cancelled', 'This order was cancelled');
    const specimen = ensure(await tx.lab.collect(input.itemId, input.specimenCode, actor.userId, tx.clock.now()), () =>
      conflict('already_collected', 'A specimen of this test is already collected'),
    );
    await tx.audit.record({
      actor,
      action: 'collect',
      entity: 'lab_specimen',
      entityId: specimen.id,
      patientId: order.patientId,
      requestId: actor.requestId,
    });
    return specimen;
  });
}

/** The lab rejects a specimen (haemolysed, mislabelled …), so the test can be collected again. */
export async function rejectSpecimen(
  deps: LabDeps,
  input: { itemId: number; reason: RejectionReason; note: string },
  actor: Actor,
): Promise<void> {
  requireLab(actor);
  await deps.transaction(async (tx) => {
    const order = ensure(await tx.lab.lockOrderOfItem(input.itemId), () => notFound('Test ordered'));
    const item = ensure(
      order.items.find((i) => i.id === input.itemId),
      () => notFound('Test ordered'),
    );
    if (item.status !== 'collected')
      throw conflict('not_collected', 'Only a collected specimen not yet resulted can be rejected');
    await tx.lab.reject(input.itemId, input.reason, input.note, actor.userId, tx.clock.now());
    await tx.audit.record({
      actor,
      action: 'reject',
      entity: 'lab_order_item',
      entityId: input.itemId,
      patientId: order.patientId,
      requestId: actor.requestId,
      details: { reason: input.reason },
    });
  });
}

/** What the lab enters for one test: a quantity with its unit, a coded answer, or text. */
export type ResultInput =
  | { type: 'quantity'; value: number; unit: string }
  | { type: 'coded'; code: string }
  | { type: 'text'; text: string };

/**
 * The lab enters the result of one test: a quantity converted to the test's unit and interpreted for the patient's
 * sex and age; a result for a cancelled order is a 409 decided under the order's lock.
 */
export async function enterResult(
  deps: LabDeps,
  input: { itemId: number; result: ResultInput; effectiveAt?: Date },
  actor: Actor,
): Promise<{ observationId: number; interpretation: Interpretation | null }> {
  requireLab(actor);
  return deps.transaction(async (tx) => {
    const order = ensure(await tx.lab.lockOrderOfItem(input.itemId), () => notFound('Test ordered'));
    const item = ensure(
      order.items.find((i) => i.id === input.itemId),
      () => notFound('Test ordered'),
    );
    const test = ensure((await tx.lab.tests([item.testId])).get(item.testId), () => notFound('Test'));
    requireResultable(order, { status: item.status, specimenType: test.specimenType });
    if (item.status === 'resulted') throw conflict('already_resulted', 'This test has a result: correct it instead');
    reportTransition(order.reportStatus, 'result');
    const now = tx.clock.now();
    const effectiveAt = input.effectiveAt ?? now;
    const { value, interpretation, range } = await resultValue(tx, input.result, test, order.patientId, effectiveAt);
    const saved = ensure(
      await tx.lab.recordResult({
        patientId: order.patientId,
        orderItemId: item.id,
        reportId: order.reportId,
        test,
        value,
        interpretation,
        range,
        effectiveAt,
        recordedAt: now,
        recordedBy: actor.userId,
      }),
      () => conflict('already_resulted', 'This test has a result: correct it instead'),
    );
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'observation',
      entityId: saved.observationId,
      patientId: order.patientId,
      requestId: actor.requestId,
    });
    return { observationId: saved.observationId, interpretation };
  });
}

async function resultValue(
  tx: LabDeps,
  result: ResultInput,
  test: CatalogueTest,
  patientId: number,
  effectiveAt: Date,
): Promise<{ value: ObservationValue } & ReturnType<typeof interpretFor>> {
  if (result.type !== test.resultType) throw invalid({ type: [`must be ${test.resultType} for ${test.name}`] });
  if (result.type === 'coded') {
    if (!test.answers.includes(result.code)) throw invalid({ code: [`must be one of ${test.answers.join(', ')}`] });
    return { value: result, interpretation: null, range: null };
  }
  if (result.type === 'text') return { value: result, interpretation: null, range: null };
  const quantity = quantityInTestUnit(tx.units, test, result.value, result.unit);
  const subject = ensure(await tx.lab.subject(patientId), () => notFound('Patient'));
  const date = effectiveAt.toISOString().slice(0, 10);
  const read = interpretFor(test, subject, quantity.value, date);
  return { value: { type: 'quantity', ...quantity }, ...read };
}

/**
 * A lab user signs the report off: preliminary → final, exactly once by the database (the second of two at once
 * is a 409); each critical value raises an alert for the ordering doctor, who is e-mailed at once.
 */
export async function finalizeReport(deps: LabDeps, input: { orderId: number }, actor: Actor): Promise<void> {
  requireLab(actor);
  await deps.transaction(async (tx) => {
    const order = ensure(await tx.lab.lockOrder(input.orderId), () => notFound('Order'));
    reportTransition(order.reportStatus, 'finalize');
    const now = tx.clock.now();
    if (!(await tx.lab.finalize(order.reportId, actor.userId, now)))
      throw conflict('report_status', 'This report was signed off meanwhile');
    const alerts = await tx.lab.raiseCriticalAlerts(order.reportId, now, escalatesAt(now));
    await tellCriticalAlerts(tx, alerts);
    await tx.audit.record({
      actor,
      action: 'finalize',
      entity: 'lab_report',
      entityId: order.reportId,
      patientId: order.patientId,
      requestId: actor.requestId,
      details: { critical_alerts: alerts.length },
    });
  });
}

/**
 * A doctor acknowledges a critical value: the ordering doctor at once, a doctor of the department after 30
 * minutes. Acknowledging twice, or 20 times at once, is one acknowledgement (the alert is the key).
 */
export async function acknowledgeCritical(
  deps: LabDeps,
  input: { alertId: number },
  actor: Actor,
): Promise<{ acknowledged: boolean }> {
  const doctorId = ownDoctorId(actor, 'Only doctors acknowledge critical results');
  return deps.transaction(async (tx) => {
    const alert = ensure(await tx.lab.alert(input.alertId), () => notFound('Critical result'));
    const departmentId = await tx.lab.doctorDepartment(doctorId);
    if (!mayAcknowledge(alert, { id: doctorId, departmentId }, tx.clock.now())) throw notFound('Critical result');
    const first = await tx.lab.acknowledge(alert.id, doctorId, tx.clock.now());
    if (first) {
      await tx.audit.record({
        actor,
        action: 'acknowledge',
        entity: 'lab_critical_alert',
        entityId: alert.id,
        patientId: alert.patientId,
        requestId: actor.requestId,
      });
    }
    return { acknowledged: first };
  });
}
