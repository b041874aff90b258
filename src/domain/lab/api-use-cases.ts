import { requireCare } from '../care/guard.ts';
import { ownDoctorId, ownPatientId, requireAdmin, requireDesk, type Actor } from '../shared/actor.ts';
import { type FieldErrors, conflict, ensure, invalid, notFound } from '../shared/errors.ts';
import { centsToDecimal, parseCents } from '../shared/money.ts';
import { type Page, type PageRequest, pageRequest } from '../shared/pagination.ts';
import { readFields, readInput } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { type CatalogueTest, type ReferenceRange, bandErrors } from './catalogue.ts';
import { interpretFor, interpretationInWords, rangeInWords, reviewRank } from './interpretation.ts';
import {
  AttachRequestShape,
  CollectRequestShape,
  CorrectionRequestShape,
  type StandingAlertJson,
  LabTestRequestShape,
  type LabTestJson,
  LabTestUpdateFields,
  BandRequest,
  MAX_BANDS,
  type LabOrderJson,
  type MyResultJson,
  type ObservationJson,
  type OrderCostJson,
  OrderRequestShape,
  PatientOrdersQuery,
  RejectSpecimenRequestShape,
  RejectUnmatchedRequestShape,
  ResultRequestShape,
  type ReviewEntryJson,
  ReviewRequestShape,
  type UnmatchedResultJson,
  type WorkOrderJson,
  WorklistQuery,
} from './lab-shapes.ts';
import { standingAlerts, tellCriticalAlerts } from './critical.ts';
import { requireLab } from './orders.ts';
import type { LabDeps, ObservationView, OrderFilter, OrderView, UnmatchedResult } from './ports.ts';
import {
  type ObservationValue,
  autoReleaseAt,
  correction,
  escalatesAt,
  historySinceRelease,
  isReleased,
  isSignedOff,
  reportTransition,
} from './reports.ts';
import { quantityInTestUnit } from './units.ts';
import * as lab from './use-cases.ts';

// The lab's HTTP-facing use cases: each reads its request from its shape (lab-shapes.ts) and answers its shape,
// cutting from one view of an order only what the caller's role may see.

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d === null ? null : d.toISOString());

const valueJson = (v: ObservationValue) => ({
  value_type: v.type,
  value: v.type === 'quantity' ? v.value : null,
  unit: v.type === 'quantity' ? v.unit : null,
  answer: v.type === 'coded' ? v.code : null,
  text: v.type === 'text' ? v.text : null,
});

const observationJson = (o: ObservationView): ObservationJson => ({
  id: o.id,
  code: o.code,
  name: o.name,
  ...valueJson(o.value),
  interpretation: o.interpretation,
  interpretation_words: interpretationInWords(o.interpretation),
  range: o.range,
  range_words: rangeInWords(o.range, o.value.type === 'quantity' ? o.value.unit : null),
  status: o.status,
  version: o.version,
  effective_at: iso(o.effectiveAt),
  versions: o.versions.map((v) => ({
    version: v.version,
    ...valueJson(v.value),
    interpretation: v.interpretation,
    status: v.status,
    recorded_at: iso(v.recordedAt),
    recorded_by: v.recordedByName,
    reason: v.reason,
  })),
});

/** The doctor's view: everything of the order but its bill. */
function orderJson(o: OrderView, deps: LabDeps): LabOrderJson {
  return {
    id: o.id,
    order_number: o.orderNumber,
    patient: { id: o.patient.id, name: o.patient.name },
    doctor: o.doctor,
    appointment_id: o.appointmentId,
    admission_id: o.admissionId,
    priority: o.priority,
    status: o.status,
    note: o.clinicalNote,
    ordered_at: iso(o.orderedAt),
    report: {
      id: o.report.id,
      status: o.report.status,
      signed_off_at: isoOrNull(o.report.signedOffAt),
      released_at: isoOrNull(o.report.releasedAt),
      visible_to_patient: isReleased(o.report, deps.clock.now(), deps.autoReleaseDays),
      reviews: o.reviews.map((r) => ({ doctor: r.doctor, reviewed_at: iso(r.reviewedAt), comment: r.comment })),
      critical_alerts: o.alerts.map((a) => ({
        id: a.id,
        observation_id: a.observationId,
        version: a.version,
        raised_at: iso(a.raisedAt),
        escalates_at: iso(a.escalatesAt),
        acknowledged_at: isoOrNull(a.acknowledgedAt),
        acknowledged_by: a.acknowledgedBy,
      })),
    },
    items: o.items.map((i) => {
      const result = o.observations.find((ob) => ob.itemId === i.id);
      return {
        id: i.id,
        test_id: i.testId,
        code: i.code,
        name: i.name,
        specimen_type: i.specimenType,
        status: i.status,
        specimen_code: i.specimenCode,
        collected_at: isoOrNull(i.collectedAt),
        result: result ? observationJson(result) : null,
      };
    }),
  };
}

/** The lab's view: the tests, specimens and values, with no clinical note, diagnosis or bill. */
const workJson = (o: OrderView): WorkOrderJson => ({
  id: o.id,
  order_number: o.orderNumber,
  patient: { id: o.patient.id, name: o.patient.name, sex: o.patient.gender, birth_date: o.patient.birthDate },
  doctor: o.doctor.name,
  priority: o.priority,
  status: o.status,
  ordered_at: iso(o.orderedAt),
  report_status: o.report.status,
  items: o.items.map((i) => {
    const result = o.observations.find((ob) => ob.itemId === i.id);
    return {
      id: i.id,
      code: i.code,
      name: i.name,
      specimen_type: i.specimenType,
      result_type: i.resultType,
      unit: i.unit,
      status: i.status,
      specimen_code: i.specimenCode,
      result: result
        ? {
            observation_id: result.id,
            version: result.version,
            ...valueJson(result.value),
            interpretation: result.interpretation,
          }
        : null,
    };
  }),
});

/** Reception's view: that the order exists and what it costs, never a result. */
const costJson = (o: OrderView): OrderCostJson => ({
  id: o.id,
  order_number: o.orderNumber,
  patient_id: o.patient.id,
  doctor: o.doctor.name,
  ordered_at: iso(o.orderedAt),
  cancelled: o.status === 'cancelled',
  tests: o.charges.map((c) => ({ name: c.name, price: centsToDecimal(c.priceCents), voided: c.voided })),
  total: centsToDecimal(o.charges.filter((c) => !c.voided).reduce((sum, c) => sum + c.priceCents, 0)),
});

async function viewsOf(deps: LabDeps, filter: OrderFilter, page: PageRequest): Promise<Page<OrderView>> {
  const ids = await deps.lab.orderIds(filter, page);
  return { ...ids, items: await deps.lab.orderViews(ids.items) };
}

async function oneView(deps: LabDeps, orderId: number): Promise<OrderView> {
  return ensure((await deps.lab.orderViews([orderId]))[0], () => notFound('Order'));
}

/** The doctor's own order, or one of a patient in their care team; 404 otherwise. */
async function doctorsView(deps: LabDeps, orderId: number, actor: Actor, attempt: string): Promise<OrderView> {
  ownDoctorId(actor, 'Only doctors read orders');
  const view = (await deps.lab.orderViews([orderId]))[0];
  if (view?.doctor.id !== actor.doctorId) {
    await requireCare(deps, actor, {
      patientId: view?.patient.id,
      what: 'Order',
      entity: 'lab_order',
      entityId: orderId,
      attempt,
    });
  }
  return ensure(view, () => notFound('Order'));
}

// ── Doctors ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** A doctor orders tests from a visit or a stay: the order as placed, with its number and bills. */
export async function orderTests(deps: LabDeps, body: unknown, actor: Actor) {
  const v = new Validator(asRecord(body));
  const input = readFields(v, OrderRequestShape);
  if ((input.appointment_id === undefined) === (input.admission_id === undefined))
    v.fail('appointment_id', 'name either a visit (appointment_id) or a stay (admission_id)');
  v.done();
  const placed = await lab.placeOrder(
    deps,
    {
      source:
        input.admission_id !== undefined
          ? { kind: 'stay', admissionId: input.admission_id }
          : { kind: 'visit', appointmentId: input.appointment_id ?? 0 },
      testIds: input.test_ids,
      priority: input.priority ?? 'routine',
      clinicalNote: input.note ?? '',
    },
    actor,
  );
  return { id: placed.id, order_number: placed.orderNumber, bill_ids: placed.billIds };
}

export async function showOrder(deps: LabDeps, orderId: RawId, actor: Actor): Promise<LabOrderJson> {
  return orderJson(await doctorsView(deps, pathId(orderId, 'Order'), actor, 'read_lab_order'), deps);
}

export async function cancelLabOrder(deps: LabDeps, orderId: RawId, actor: Actor): Promise<LabOrderJson> {
  const id = pathId(orderId, 'Order');
  await lab.cancelOrder(deps, { orderId: id }, actor);
  return orderJson(await oneView(deps, id), deps);
}

/** The ordering doctor marks a signed-off report reviewed, with an optional comment (again: the comment changes). */
export async function reviewReport(deps: LabDeps, orderId: RawId, body: unknown, actor: Actor) {
  const doctorId = ownDoctorId(actor, 'Only doctors review results');
  const id = pathId(orderId, 'Order');
  const { comment = '' } = readInput(ReviewRequestShape, body);
  await deps.transaction(async (tx) => {
    const order = await tx.lab.lockOrder(id);
    if (!order || order.doctorId !== doctorId) throw notFound('Order');
    if (!isSignedOff(order.reportStatus)) throw conflict('report_status', 'Only a signed-off report can be reviewed');
    await tx.lab.review(order.reportId, doctorId, tx.clock.now(), comment);
    await tx.audit.record({
      actor,
      action: 'review',
      entity: 'lab_report',
      entityId: order.reportId,
      patientId: order.patientId,
      requestId: actor.requestId,
    });
  });
  return orderJson(await oneView(deps, id), deps);
}

/**
 * The ordering doctor releases a signed-off report to the patient. It takes the order's lock, as a correction
 * does, so the patient is shown the value current when they read it: never one corrected before the release.
 */
export async function releaseReport(deps: LabDeps, orderId: RawId, actor: Actor) {
  const doctorId = ownDoctorId(actor, 'Only doctors release results');
  const id = pathId(orderId, 'Order');
  await deps.transaction(async (tx) => {
    const order = await tx.lab.lockOrder(id);
    if (!order || order.doctorId !== doctorId) throw notFound('Order');
    if (!isSignedOff(order.reportStatus))
      throw conflict('report_status', 'Only a signed-off report can be released to the patient');
    if (await tx.lab.release(order.reportId, actor.userId, tx.clock.now())) {
      await tx.audit.record({
        actor,
        action: 'release',
        entity: 'lab_report',
        entityId: order.reportId,
        patientId: order.patientId,
        requestId: actor.requestId,
      });
    }
  });
  return orderJson(await oneView(deps, id), deps);
}

/** The critical results standing as alerts on the signed-in doctor's day, oldest first, until acknowledged. */
export async function criticalAlerts(deps: LabDeps, actor: Actor): Promise<StandingAlertJson[]> {
  const now = deps.clock.now();
  return (await standingAlerts(deps, actor)).map((a) => ({
    id: a.id,
    order_id: a.orderId,
    order_number: a.orderNumber,
    patient: a.patient,
    test: a.testName,
    ...valueJson(a.value),
    interpretation: a.interpretation,
    raised_at: iso(a.raisedAt),
    escalates_at: iso(a.escalatesAt),
    escalated: a.escalatesAt.getTime() <= now.getTime(),
    ordering_doctor: a.orderingDoctor,
    yours: a.orderingDoctor.id === actor.doctorId,
    bed: a.bed,
  }));
}

export async function acknowledgeAlert(deps: LabDeps, alertId: RawId, actor: Actor) {
  return lab.acknowledgeCritical(deps, { alertId: pathId(alertId, 'Critical result') }, actor);
}

/** The doctor's Results to review: signed-off reports of their orders not yet reviewed, critical first, then abnormal. */
export async function resultsToReview(deps: LabDeps, query: unknown, actor: Actor): Promise<Page<ReviewEntryJson>> {
  const doctorId = ownDoctorId(actor, 'Only doctors review results');
  const page = pageRequest(asRecord(query));
  // Ranked in full, then paged: a doctor's unreviewed reports are few, and the rank is the domain's.
  const all = await viewsOf(deps, { kind: 'to_review', doctorId }, { q: '', page: 1, perPage: 1000 });
  const RANKS = ['critical', 'abnormal', 'normal'] as const;
  const ranked = all.items
    .map((o) => ({ rank: reviewRank(o.observations.map((ob) => ob.interpretation)), o }))
    .sort((a, b) => a.rank - b.rank);
  const start = (page.page - 1) * page.perPage;
  return {
    items: ranked
      .slice(start, start + page.perPage)
      .map(({ rank, o }) => ({ rank: RANKS[rank], order: orderJson(o, deps) })),
    total: ranked.length,
    totalIsLowerBound: all.totalIsLowerBound || all.total > ranked.length,
    page: page.page,
    perPage: page.perPage,
  };
}

/** A patient's orders and results, for a doctor of their care team (outside it: 404), newest first. */
export async function patientResults(
  deps: LabDeps,
  patientId: RawId,
  query: unknown,
  actor: Actor,
): Promise<Page<LabOrderJson>> {
  ownDoctorId(actor, "Only doctors read a patient's results");
  const id = pathId(patientId, 'Patient');
  const page = pageRequest(asRecord(query));
  await requireCare(deps, actor, {
    patientId: (await deps.lab.subject(id)) ? id : undefined,
    what: 'Patient',
    entity: 'patient',
    entityId: id,
    attempt: 'read_lab_results',
  });
  const found = await viewsOf(deps, { kind: 'patient', patientId: id }, page);
  return { ...found, items: found.items.map((o) => orderJson(o, deps)) };
}

// ── Patients ─────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * My results: the values of released reports only, each as it stands now (a value corrected before release is
 * only ever seen corrected), with the range and the reading in plain words.
 */
export async function myResults(deps: LabDeps, query: unknown, actor: Actor): Promise<Page<MyResultJson>> {
  const patientId = ownPatientId(actor, 'Only patients have results of their own');
  const page = pageRequest(asRecord(query));
  const now = deps.clock.now();
  const found = await viewsOf(deps, { kind: 'released', patientId, now, autoReleaseDays: deps.autoReleaseDays }, page);
  const items = found.items
    .filter((o) => isReleased(o.report, now, deps.autoReleaseDays))
    .flatMap((o) =>
      o.observations.map(
        (ob): MyResultJson => ({
          id: ob.id,
          order_number: o.orderNumber,
          name: ob.name,
          ...valueJson(ob.value),
          code: ob.code,
          interpretation: interpretationInWords(ob.interpretation),
          flag: ob.interpretation,
          range: rangeInWords(ob.range, ob.value.type === 'quantity' ? ob.value.unit : null),
          reference: ob.range,
          effective_at: iso(ob.effectiveAt),
          corrected: ob.status === 'corrected' || ob.status === 'amended',
          history: historySinceRelease(ob.versions, releasedAt(o.report, deps.autoReleaseDays)).map((v) => ({
            ...valueJson(v.value),
            recorded_at: iso(v.recordedAt),
            reason: v.reason,
          })),
        }),
      ),
    );
  return { ...found, items };
}

/** When the patient was first shown a report: a doctor's release, or its automatic one. */
function releasedAt(report: OrderView['report'], autoReleaseDays: number | null): Date | null {
  const auto = autoReleaseAt(report.signedOffAt, autoReleaseDays) ?? null;
  if (report.releasedAt === null || (auto !== null && auto < report.releasedAt)) return auto;
  return report.releasedAt;
}

// ── Reception ────────────────────────────────────────────────────────────────────────────────────────────────────

/** A patient's lab orders as reception sees them: that they exist and what they cost, never a result. */
export async function orderCosts(deps: LabDeps, query: unknown, actor: Actor): Promise<Page<OrderCostJson>> {
  requireDesk(actor);
  const { patient_id: patientId, page = 1, per_page: perPage = 50 } = readInput(PatientOrdersQuery, query);
  if (patientId === undefined) throw invalid({ patient_id: ['is required'] });
  const found = await viewsOf(deps, { kind: 'patient', patientId }, { q: '', page, perPage });
  return { ...found, items: found.items.map(costJson) };
}

// ── The lab ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** Orders waiting for collection or results, stat first; or one order by its number, whatever its status. */
export async function worklist(deps: LabDeps, query: unknown, actor: Actor): Promise<Page<WorkOrderJson>> {
  requireLab(actor);
  const { order_number: orderNumber, page = 1, per_page: perPage = 50 } = readInput(WorklistQuery, query);
  const filter: OrderFilter = orderNumber ? { kind: 'number', orderNumber } : { kind: 'worklist' };
  const found = await viewsOf(deps, filter, { q: '', page, perPage });
  return { ...found, items: found.items.map(workJson) };
}

async function workOrderOfItem(deps: LabDeps, itemId: number): Promise<WorkOrderJson> {
  const locked = ensure(await deps.transaction((tx) => tx.lab.lockOrderOfItem(itemId)), () => notFound('Test'));
  return workJson(await oneView(deps, locked.id));
}

export async function collect(deps: LabDeps, itemId: RawId, body: unknown, actor: Actor) {
  const id = pathId(itemId, 'Test ordered');
  const { specimen_code: specimenCode } = readInput(CollectRequestShape, body);
  await lab.collectSpecimen(deps, { itemId: id, specimenCode }, actor);
  return workOrderOfItem(deps, id);
}

export async function rejectCollected(deps: LabDeps, itemId: RawId, body: unknown, actor: Actor) {
  const id = pathId(itemId, 'Test ordered');
  const { reason, note = '' } = readInput(RejectSpecimenRequestShape, body);
  await lab.rejectSpecimen(deps, { itemId: id, reason, note }, actor);
  return workOrderOfItem(deps, id);
}

/** A result as typed: the fields its type needs, each named when missing. */
function resultOf(v: Validator, input: { type: string; value?: number; unit?: string; code?: string; text?: string }) {
  const need = (field: 'value' | 'unit' | 'code' | 'text') => {
    if (input[field] === undefined && !v.failed(field)) v.fail(field, `is required for a ${input.type} result`);
  };
  if (input.type === 'quantity') {
    need('value');
    need('unit');
    return { type: 'quantity' as const, value: input.value ?? 0, unit: input.unit ?? '' };
  }
  if (input.type === 'coded') {
    need('code');
    return { type: 'coded' as const, code: input.code ?? '' };
  }
  need('text');
  return { type: 'text' as const, text: input.text ?? '' };
}

export async function enterItemResult(deps: LabDeps, itemId: RawId, body: unknown, actor: Actor) {
  requireLab(actor);
  const id = pathId(itemId, 'Test ordered');
  const v = new Validator(asRecord(body));
  const result = resultOf(v, readFields(v, ResultRequestShape));
  v.done();
  const saved = await lab.enterResult(deps, { itemId: id, result }, actor);
  return { observation_id: saved.observationId, version: 1, interpretation: saved.interpretation };
}

export async function finalize(deps: LabDeps, orderId: RawId, actor: Actor): Promise<WorkOrderJson> {
  const id = pathId(orderId, 'Order');
  await lab.finalizeReport(deps, { orderId: id }, actor);
  return workJson(await oneView(deps, id));
}

/**
 * The lab corrects a result: a new version naming the one it corrects (409 `result_changed` when stale), with its
 * reason; the earlier versions stay. After sign-off the report becomes *corrected* and a critical value raises
 * its own alert.
 */
export async function correctResult(deps: LabDeps, observationId: RawId, body: unknown, actor: Actor) {
  requireLab(actor);
  const id = pathId(observationId, 'Result');
  const v = new Validator(asRecord(body));
  const input = readFields(v, CorrectionRequestShape);
  const value = resultOf(v, input);
  v.done();
  return deps.transaction(async (tx) => {
    const order = ensure(
      await tx.lab.lockOrder(ensure(await tx.lab.orderOfObservation(id), () => notFound('Result'))),
      () => notFound('Result'),
    );
    if (order.status === 'cancelled') throw conflict('order_cancelled', 'This order was cancelled');
    const found = ensure(await tx.lab.observationHistory(id), () => notFound('Result'));
    const test = ensure((await tx.lab.tests([found.testId])).get(found.testId), () => notFound('Test'));
    const now = tx.clock.now();
    const signedOff = isSignedOff(order.reportStatus);
    const reportStatus = signedOff ? reportTransition(order.reportStatus, 'correct') : order.reportStatus;
    const next = correction(
      found.history,
      { correcting: input.version, value, by: actor.userId, at: now, reason: input.reason },
      order.reportStatus,
    );
    const read = await readValue(tx, value, test, order.patientId, found.effectiveAt);
    next.value = read.value;
    if (!(await tx.lab.writeVersion(id, next, read, order.reportId, reportStatus)))
      throw conflict('result_changed', 'This result was changed meanwhile: read it again, then correct it');
    const alerts = signedOff ? await tx.lab.raiseCriticalAlerts(order.reportId, now, escalatesAt(now)) : [];
    await tellCriticalAlerts(tx, alerts);
    await tx.audit.record({
      actor,
      action: 'correct',
      entity: 'observation',
      entityId: id,
      patientId: order.patientId,
      requestId: actor.requestId,
      details: {
        version: next.version,
        corrects: input.version,
        reason: input.reason,
        critical_alerts: alerts.length,
      },
    });
    return { observation_id: id, version: next.version, interpretation: read.interpretation };
  });
}

async function readValue(
  tx: LabDeps,
  value: ObservationValue,
  test: CatalogueTest,
  patientId: number,
  effectiveAt: Date,
): Promise<{ value: ObservationValue } & ReturnType<typeof interpretFor>> {
  if (value.type !== test.resultType) throw invalid({ type: [`must be ${test.resultType} for ${test.name}`] });
  if (value.type === 'coded' && !test.answers.includes(value.code))
    throw invalid({ code: [`must be one of ${test.answers.join(', ')}`] });
  if (value.type !== 'quantity') return { value, interpretation: null, range: null };
  const quantity = quantityInTestUnit(tx.units, test, value.value, value.unit);
  const subject = ensure(await tx.lab.subject(patientId), () => notFound('Patient'));
  const read = interpretFor(test, subject, quantity.value, effectiveAt.toISOString().slice(0, 10));
  return { value: { type: 'quantity', ...quantity }, ...read };
}

const unmatchedJson = (u: UnmatchedResult): UnmatchedResultJson => ({
  id: u.id,
  source: u.source,
  message_id: u.messageId,
  order_number: u.orderNumber,
  code_system: u.codeSystem,
  code: u.code,
  ...valueJson(u.value),
  effective_at: iso(u.effectiveAt),
  received_at: iso(u.receivedAt),
  status: u.status,
});

/** Results from outside that matched no order, oldest first, for the lab to attach or reject. */
export async function unmatchedResults(deps: LabDeps, query: unknown, actor: Actor) {
  requireLab(actor);
  const found = await deps.lab.unmatched(pageRequest(asRecord(query)));
  return { ...found, items: found.items.map(unmatchedJson) };
}

/**
 * Attaches an unmatched result to the order whose number the lab types: it becomes that order's result for the test
 * of the same code, converted and interpreted like one entered by hand (422 naming `order_number` when the order has
 * no such test waiting for a result).
 */
export async function attachUnmatched(deps: LabDeps, unmatchedId: RawId, body: unknown, actor: Actor) {
  requireLab(actor);
  const id = pathId(unmatchedId, 'Unmatched result');
  const { order_number: orderNumber } = readInput(AttachRequestShape, body);
  return deps.transaction(async (tx) => {
    const result = ensure(await tx.lab.lockUnmatched(id), () => notFound('Unmatched result'));
    const orderId = await tx.lab.orderIdByNumber(orderNumber);
    const view = orderId === undefined ? undefined : (await tx.lab.orderViews([orderId]))[0];
    const item = view?.items.find((i) => i.code === result.code);
    if (!view || !item)
      throw invalid({ order_number: [`${orderNumber} is no order with a test of code ${result.code}`] });
    const saved = await lab.enterResult(
      tx,
      { itemId: item.id, result: result.value, effectiveAt: result.effectiveAt },
      actor,
    );
    await tx.lab.resolveUnmatched(id, {
      status: 'attached',
      by: actor.userId,
      at: tx.clock.now(),
      note: `Attached to ${orderNumber}`,
      observationId: saved.observationId,
    });
    await tx.audit.record({
      actor,
      action: 'attach',
      entity: 'lab_unmatched_result',
      entityId: id,
      patientId: view.patient.id,
      requestId: actor.requestId,
      details: { order_number: orderNumber, observation_id: saved.observationId },
    });
    return { observation_id: saved.observationId, version: 1, interpretation: saved.interpretation };
  });
}

export async function rejectUnmatched(deps: LabDeps, unmatchedId: RawId, body: unknown, actor: Actor) {
  requireLab(actor);
  const id = pathId(unmatchedId, 'Unmatched result');
  const { note } = readInput(RejectUnmatchedRequestShape, body);
  await deps.transaction(async (tx) => {
    ensure(await tx.lab.lockUnmatched(id), () => notFound('Unmatched result'));
    await tx.lab.resolveUnmatched(id, {
      status: 'rejected',
      by: actor.userId,
      at: tx.clock.now(),
      note,
      observationId: null,
    });
    await tx.audit.record({
      actor,
      action: 'reject',
      entity: 'lab_unmatched_result',
      entityId: id,
      requestId: actor.requestId,
      details: { note },
    });
  });
}

// ── The catalogue ────────────────────────────────────────────────────────────────────────────────────────────────

const testJson = (t: CatalogueTest): LabTestJson => {
  const band = (b: CatalogueTest['ranges'][number]) => ({
    sex: b.sex,
    age_from_days: b.ageFromDays,
    age_to_days: b.ageToDays,
    low: b.low,
    high: b.high,
  });
  return {
    id: t.id,
    kind: t.kind,
    category: t.category,
    code_system: t.codeSystem,
    code: t.code,
    name: t.name,
    specimen_type: t.specimenType,
    result_type: t.kind === 'panel' ? null : t.resultType,
    unit: t.unit,
    physical_low: t.physicalLow,
    physical_high: t.physicalHigh,
    answers: t.answers,
    ranges: t.ranges.map(band),
    critical_limits: t.criticalLimits.map(band),
    price: centsToDecimal(t.priceCents),
    price_cents: t.priceCents,
    turnaround_minutes: t.turnaroundMinutes,
    member_ids: t.memberIds,
    active: t.active,
    row_version: t.rowVersion,
  };
};

/** The catalogue, for doctors to order from and admins to keep; searched by name or code. */
export async function listCatalogue(deps: LabDeps, query: unknown, actor: Actor): Promise<Page<LabTestJson>> {
  if (actor.role !== 'doctor') requireAdmin(actor);
  const found = await deps.lab.catalogue(pageRequest(asRecord(query)));
  return { ...found, items: found.items.map(testJson) };
}

const readPrice = (v: Validator, raw: string) => {
  const cents = parseCents(raw);
  if (cents === undefined && !v.failed('price')) v.fail('price', 'must be an amount such as 12.50');
  return cents ?? 0;
};

const pair = (low: number | undefined, high: number | undefined) =>
  low === undefined && high === undefined ? null : { low: low ?? null, high: high ?? null };

/** An admin adds a test (a quantity with its UCUM unit and adult limits, or a text report); 409 on a taken code. */
export async function createCatalogueTest(deps: LabDeps, body: unknown, actor: Actor): Promise<LabTestJson> {
  requireAdmin(actor);
  const v = new Validator(asRecord(body));
  const t = readFields(v, LabTestRequestShape);
  const priceCents = readPrice(v, t.price);
  if (t.result_type === 'quantity') {
    if (t.unit === undefined) {
      if (!v.failed('unit')) v.fail('unit', 'is required for a quantity');
    } else if (!deps.units.isValid(t.unit)) v.fail('unit', `${t.unit} is not a UCUM unit`);
  } else if (t.unit !== undefined) v.fail('unit', 'is only for a quantity');
  for (const [low, high, field] of [
    [t.physical_low, t.physical_high, 'physical_high'],
    [t.range_low, t.range_high, 'range_high'],
    [t.critical_low, t.critical_high, 'critical_high'],
  ] as const)
    if (low !== undefined && high !== undefined && low >= high) v.fail(field, 'must be above its low end');
  v.done();
  const id = await deps.transaction(async (tx) => {
    const created = ensure(
      await tx.lab.createTest({
        kind: 'test',
        codeSystem: t.code_system,
        code: t.code,
        name: t.name,
        category: t.category,
        specimenType: t.specimen_type,
        resultType: t.result_type,
        unit: t.result_type === 'quantity' ? (t.unit ?? null) : null,
        answers: [],
        memberIds: [],
        physicalLow: t.physical_low ?? null,
        physicalHigh: t.physical_high ?? null,
        range: pair(t.range_low, t.range_high),
        critical: pair(t.critical_low, t.critical_high),
        priceCents,
        turnaroundMinutes: t.turnaround_minutes,
        at: tx.clock.now(),
      }),
      () => conflict('code_taken', `The catalogue already has ${t.code_system} code ${t.code}`),
    );
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'lab_test',
      entityId: created,
      requestId: actor.requestId,
    });
    return created;
  });
  return testJson(ensure((await deps.lab.tests([id])).get(id), () => notFound('Test')));
}

/** A band as the admin gave it, read by BandRequest (an age left out is from birth, with no end). */
function readBands(raw: unknown, field: 'ranges' | 'critical_limits', errors: FieldErrors): ReferenceRange[] {
  if (!Array.isArray(raw)) {
    errors[field] = ['must be a list'];
    return [];
  }
  if (raw.length > MAX_BANDS) {
    errors[field] = [`must have at most ${MAX_BANDS} bands`];
    return [];
  }
  const bands = raw.map((item, i) => {
    const v = new Validator(asRecord(item));
    const b = readFields(v, BandRequest);
    for (const [name, messages] of Object.entries(v.errors)) errors[`${field}[${i}].${name}`] = messages;
    return {
      sex: b.sex,
      ageFromDays: b.age_from_days ?? 0,
      ageToDays: b.age_to_days ?? null,
      low: b.low ?? null,
      high: b.high ?? null,
    };
  });
  if (Object.keys(errors).some((name) => name.startsWith(`${field}[`))) return bands;
  Object.assign(errors, bandErrors(field, bands, field === 'critical_limits'));
  return bands;
}

/** The limits a change gives: each list given replaces the test's, physical limits when either end is named. */
function readLimits(
  input: Record<string, unknown>,
  read: { physical_low?: number | null; physical_high?: number | null },
  errors: FieldErrors,
) {
  const physical =
    'physical_low' in input || 'physical_high' in input
      ? { low: read.physical_low ?? null, high: read.physical_high ?? null }
      : undefined;
  if (physical?.low != null && physical.high != null && physical.low >= physical.high)
    errors.physical_high = ['must be above its low end'];
  return {
    physical,
    ranges: input.ranges === undefined ? undefined : readBands(input.ranges, 'ranges', errors),
    criticalLimits:
      input.critical_limits === undefined ? undefined : readBands(input.critical_limits, 'critical_limits', errors),
  };
}

/**
 * An admin renames, reprices, retimes or retires a test, and may replace its physical limits, reference ranges and
 * critical limits (by sex and age band). Each change is a new version of the test (a stale `row_version` is a 409),
 * audited with the limits before and after; orders placed keep the price they were billed, and results already
 * read keep the interpretation and range they were given.
 */
export async function updateCatalogueTest(deps: LabDeps, testId: RawId, body: unknown, actor: Actor) {
  requireAdmin(actor);
  const id = pathId(testId, 'Test');
  const input = asRecord(body);
  const v = new Validator(input);
  const t = readFields(v, LabTestUpdateFields);
  const priceCents = readPrice(v, t.price);
  const limitErrors: FieldErrors = {};
  const limits = readLimits(input, t, limitErrors);
  for (const [name, messages] of Object.entries(limitErrors)) for (const m of messages) v.fail(name, m);
  v.done();
  await deps.transaction(async (tx) => {
    const before = ensure(await tx.lab.lockTest(id), () => notFound('Test'));
    if (t.row_version !== undefined && t.row_version !== before.rowVersion)
      throw conflict('test_changed', 'This test was changed meanwhile: read it again, then change it');
    const givesLimits = limits.physical || limits.ranges || limits.criticalLimits;
    if (givesLimits && before.resultType !== 'quantity')
      throw invalid({ ranges: ['only a test answered by a quantity has limits'] });
    const change = { name: t.name, priceCents, turnaroundMinutes: t.turnaround_minutes, active: t.active, ...limits };
    await tx.lab.updateTest(id, change, tx.clock.now());
    const limitsOf = (test: CatalogueTest) => {
      const json = testJson(test);
      return {
        physical: { low: json.physical_low, high: json.physical_high },
        ranges: json.ranges,
        critical_limits: json.critical_limits,
      };
    };
    const after = ensure((await tx.lab.tests([id])).get(id), () => notFound('Test'));
    await tx.audit.record({
      actor,
      action: 'update',
      entity: 'lab_test',
      entityId: id,
      requestId: actor.requestId,
      details: {
        row_version: after.rowVersion,
        ...(givesLimits ? { limits_before: limitsOf(before), limits_after: limitsOf(after) } : {}),
      },
    });
  });
  return testJson(ensure((await deps.lab.tests([id])).get(id), () => notFound('Test')));
}
