import { recordingRefusals } from '../audit/audit.ts';
import { clinicalReadEntries } from '../care/care.ts';
import { requireCare } from '../care/guard.ts';
import { type Actor, ownDoctorId, ownPatientId } from '../shared/actor.ts';
import { clinicDateTime, clinicToday } from '../shared/clock.ts';
import { conflict, ensure, invalid, notFound } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { readInput } from '../shared/read-fields.ts';
import { asRecord, pathId, type RawId } from '../shared/validate.ts';
import { checkAllergies } from './allergies.ts';
import { doseJson, orderJson } from './medicines-answers.ts';
import {
  DiscontinueRequestShape,
  MedicationRequestShape,
  type MedicationOrderJson,
  type OrderWithDosesJson,
  PatientMedicinesQuery,
  type PrintoutJson,
} from './medicines-shapes.ts';
import type { MedicationRequestView, MedicinesDeps, RequestSource } from './ports.ts';
import { doseAndRoute, frequencyOf, requireDurationOrQuantity } from './prescriptions.ts';
import { MAX_ORDER_DAYS, scheduledDoses } from './schedule.ts';
import { requireClinician } from './access.ts';
import { instantOf } from './mar.ts';

const DAY = 86_400_000;

/**
 * A doctor of the care team prescribes at a visit or orders for a stay: the medicine's dose, route and frequency
 * checked (422 naming the field), then the allergy check (409 `allergy_conflict` naming the allergy, unless
 * overridden with a reason, which is kept on the order and in its audit row). An inpatient order's scheduled
 * doses are written with it, in the clinic's zone, for its duration (at most 30 days).
 */
export async function prescribe(deps: MedicinesDeps, body: unknown, actor: Actor): Promise<MedicationOrderJson> {
  const doctorId = ownDoctorId(actor, 'Only doctors prescribe');
  const input = readInput(MedicationRequestShape, body);
  if ((input.appointment_id === undefined) === (input.admission_id === undefined))
    throw invalid({ appointment_id: ['give either appointment_id (a visit) or admission_id (a stay)'] });
  const source: RequestSource =
    input.appointment_id !== undefined
      ? { kind: 'visit', appointmentId: input.appointment_id }
      : { kind: 'stay', admissionId: input.admission_id ?? 0 };
  const frequency = frequencyOf({ kind: input.frequency, ...input });
  const inpatient = source.kind === 'stay';
  if (inpatient) {
    if (input.duration_days === undefined) throw invalid({ duration_days: ['is required for an inpatient order'] });
    if (input.duration_days > MAX_ORDER_DAYS)
      throw invalid({ duration_days: [`must be at most ${MAX_ORDER_DAYS} days for an inpatient order`] });
  } else requireDurationOrQuantity(input.duration_days, input.quantity);
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const origin = await tx.medications.originOf(source);
      const what = inpatient ? 'Admission' : 'Appointment';
      await requireCare(tx, actor, {
        patientId: origin?.patientId,
        what,
        entity: inpatient ? 'admission' : 'appointment',
        entityId: source.kind === 'visit' ? source.appointmentId : source.admissionId,
        attempt: 'prescribe',
      });
      const { patientId, status } = ensure(origin, () => notFound(what));
      if (inpatient && !['admitted', 'discharge_ordered'].includes(status))
        throw conflict('not_admitted', 'Medicines are ordered for a patient in a bed');
      if (!inpatient && status === 'cancelled') throw conflict('appointment_cancelled', 'The visit was cancelled');
      const medicine = await tx.formulary.find(input.medicine_id);
      if (!medicine?.active) throw invalid({ medicine_id: ['is not a medicine of the formulary'] });
      const { dose, route } = doseAndRoute(
        tx.units,
        medicine,
        { amount: input.dose, unit: input.dose_unit },
        input.route,
      );
      await tx.allergies.lockPatient(patientId);
      const allergies = (await tx.allergies.ofPatient(patientId)) ?? [];
      const override = checkAllergies(medicine, allergies, input.allergy_override_reason);
      const now = tx.clock.now();
      const startsAt = inpatient ? instantOf(input.starts_at, 'starts_at', now) : now;
      const endsAt =
        input.duration_days === undefined ? null : new Date(startsAt.getTime() + input.duration_days * DAY);
      const id = await tx.medications.create({
        patientId,
        doctorId,
        source,
        medicineId: medicine.id,
        dose,
        route,
        frequency,
        durationDays: input.duration_days ?? null,
        quantity: input.quantity ?? null,
        instructions: input.instructions ?? '',
        continueOnDischarge: inpatient && input.continue_on_discharge === true,
        allergyOverride: override,
        startDate: clinicDateTime(startsAt, tx.timeZone).date,
        startsAt,
        endsAt,
        requestedAt: now,
      });
      if (inpatient && endsAt)
        await tx.medications.schedule(id, scheduledDoses(frequency, startsAt, endsAt, tx.timeZone));
      await tx.audit.record({
        actor,
        action: 'create',
        entity: 'medication_request',
        entityId: id,
        patientId,
        requestId: actor.requestId,
        details: {
          medicine: medicine.genericName,
          setting: inpatient ? 'inpatient' : 'outpatient',
          ...(override ? { allergy_override: { reason: override.reason, allergies: override.allergies } } : {}),
        },
      });
      return orderJson(ensure(await tx.medications.find(id), () => notFound('Order')));
    }),
  );
}

/** What the patient and the printed script show of an order: the prescription, not the clinician's allergy override. */
const withoutOverride = (order: MedicationOrderJson): MedicationOrderJson => ({ ...order, allergy_override: null });

/** The order as the actor may read it: the care team (each read audited), an admin, or its own patient. */
async function readableOrder(deps: MedicinesDeps, rawId: RawId, actor: Actor): Promise<MedicationRequestView> {
  const id = pathId(rawId, 'Order');
  const order = await deps.medications.find(id);
  if (actor.role === 'patient') {
    if (!order || order.patient.id !== ownPatientId(actor, 'Only patients read their own prescriptions'))
      throw notFound('Order');
    return order;
  }
  if (actor.role !== 'admin') requireClinician(actor);
  const reach = await recordingRefusals(deps.audit, () =>
    requireCare(deps, actor, {
      patientId: order?.patient.id,
      what: 'Order',
      entity: 'medication_request',
      entityId: id,
      attempt: 'read_order',
    }),
  );
  const found = ensure(order, () => notFound('Order'));
  await deps.audit.record(
    ...clinicalReadEntries(
      actor,
      [{ patientId: found.patient.id, action: 'read', entity: 'medication_request', entityId: id }],
      reach ? new Map([[found.patient.id, reach]]) : new Map(),
    ),
  );
  return found;
}

export async function showOrder(deps: MedicinesDeps, rawId: RawId, actor: Actor): Promise<OrderWithDosesJson> {
  const order = await readableOrder(deps, rawId, actor);
  const now = deps.clock.now();
  const doses = await deps.medications.doses(order.id);
  const json = orderJson(order);
  return {
    order: actor.role === 'patient' ? withoutOverride(json) : json,
    doses: doses.map((d) => doseJson(d, now, order.status === 'active')),
  };
}

/** What the printable prescription shows: the clinic's letterhead, the order, its prescriber and date. */
export async function printout(deps: MedicinesDeps, rawId: RawId, actor: Actor): Promise<PrintoutJson> {
  const order = await readableOrder(deps, rawId, actor);
  return {
    clinic: deps.clinic,
    order: withoutOverride(orderJson(order)),
    patient_birth_date: order.patient.birthDate,
    date: clinicDateTime(order.requestedAt, deps.timeZone).date,
  };
}

/**
 * The prescriber (or a doctor of the care team) discontinues an order: its doses still due after now are
 * cancelled in the same transaction, and recording any dose of it afterwards is a 409 `order_discontinued`.
 */
export async function discontinue(
  deps: MedicinesDeps,
  rawId: RawId,
  body: unknown,
  actor: Actor,
): Promise<{ order: MedicationOrderJson; cancelled_doses: number }> {
  ownDoctorId(actor, 'Only doctors discontinue medicines');
  const id = pathId(rawId, 'Order');
  const { reason } = readInput(DiscontinueRequestShape, body);
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const locked = await tx.medications.lock(id);
      await requireCare(tx, actor, {
        patientId: locked?.patientId,
        what: 'Order',
        entity: 'medication_request',
        entityId: id,
        attempt: 'discontinue',
      });
      const order = ensure(locked, () => notFound('Order'));
      if (order.status === 'discontinued') throw conflict('order_discontinued', 'The order is already discontinued');
      const cancelled = await tx.medications.discontinue(id, actor.userId, reason, tx.clock.now());
      await tx.audit.record({
        actor,
        action: 'discontinue',
        entity: 'medication_request',
        entityId: id,
        patientId: order.patientId,
        requestId: actor.requestId,
        details: { reason, cancelled_doses: cancelled },
      });
      return {
        order: orderJson(ensure(await tx.medications.find(id), () => notFound('Order'))),
        cancelled_doses: cancelled,
      };
    }),
  );
}

/** A patient's medicines, active ones by default (the active medicines list), as the care team reads them. */
export async function patientMedicines(
  deps: MedicinesDeps,
  rawId: RawId,
  query: unknown,
  actor: Actor,
): Promise<Page<MedicationOrderJson>> {
  if (actor.role !== 'admin') requireClinician(actor);
  const patientId = pathId(rawId, 'Patient');
  const { status } = readInput(PatientMedicinesQuery, query);
  const reach = await recordingRefusals(deps.audit, () =>
    requireCare(deps, actor, {
      patientId,
      what: 'Patient',
      entity: 'patient',
      entityId: patientId,
      attempt: 'read_medicines',
    }),
  );
  const page = await deps.medications.ofPatient(
    patientId,
    { activeOnly: status !== 'all', today: clinicToday(deps.clock, deps.timeZone) },
    pageRequest(asRecord(query)),
  );
  await deps.audit.record(
    ...clinicalReadEntries(
      actor,
      [{ patientId, action: 'read', entity: 'medication_request' }],
      reach ? new Map([[patientId, reach]]) : new Map(),
    ),
  );
  return { ...page, items: page.items.map(orderJson) };
}

/** The patient's own prescriptions and medicines, newest first. */
export async function myPrescriptions(
  deps: MedicinesDeps,
  query: unknown,
  actor: Actor,
): Promise<Page<MedicationOrderJson>> {
  const patientId = ownPatientId(actor, 'Only patients read their own prescriptions');
  const { status } = readInput(PatientMedicinesQuery, query);
  const page = await deps.medications.ofPatient(
    patientId,
    { activeOnly: status === 'active', today: clinicToday(deps.clock, deps.timeZone) },
    pageRequest(asRecord(query)),
  );
  return { ...page, items: page.items.map((o) => withoutOverride(orderJson(o))) };
}
