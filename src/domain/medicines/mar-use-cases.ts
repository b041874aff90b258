import { recordingRefusals } from '../audit/audit.ts';
import { clinicalReadEntries } from '../care/care.ts';
import { reachOfList, requireCare } from '../care/guard.ts';
import type { Actor } from '../shared/actor.ts';
import { addDays, clinicDateTime, clinicInstant, clinicToday } from '../shared/clock.ts';
import { conflict, ensure, notFound } from '../shared/errors.ts';
import { readInput } from '../shared/read-fields.ts';
import { pathId, type RawId } from '../shared/validate.ts';
import { formatUsd } from '../shared/money.ts';
import { medicineLabel } from './formulary.ts';
import { doseRecordOf, instantOf, requireRecordable, requireRunning } from './mar.ts';
import { doseJson, orderJson } from './medicines-answers.ts';
import {
  AsNeededDoseRequestShape,
  type DoseJson,
  DoseRecordRequestShape,
  MarQuery,
  type WardMarJson,
} from './medicines-shapes.ts';
import type { LockedRequest, MedicinesDeps } from './ports.ts';
import { doseInMedicineUnit } from './prescriptions.ts';
import { checkAsNeeded } from './schedule.ts';
import { requireClinician } from './access.ts';

// The medication administration record: doses recorded exactly once, and the ward's view of them.

/** The dose's amount in the order's unit, as the nurse gives it (the order's unit when none is given). */
function givenAmount(deps: MedicinesDeps, order: LockedRequest, amount: number, unit: string | undefined): number {
  return doseInMedicineUnit(deps.units, order.medicine, { amount, unit: unit ?? order.dose.unit }).amount;
}

/** With the clinic's billing of medicines on, a dose given adds a bill line at the formulary's price. */
async function billDose(tx: MedicinesDeps, order: LockedRequest, doseId: number): Promise<number | null> {
  const price = order.medicine.priceCents;
  if (!tx.billMedicines || price === null || price <= 0) return null;
  const bill = await tx.bills.create({
    patientId: order.patientId,
    medicalRecordId: null,
    serviceDetails: `Medicine: ${medicineLabel(order.medicine)} (order ${order.id}, ${formatUsd(price)} a dose)`,
    amountCents: price,
    billingDate: clinicToday(tx.clock, tx.timeZone),
  });
  await tx.medications.setDoseBill(doseId, bill.id);
  return bill.id;
}

/**
 * A clinician records a scheduled dose as given (its amount and a time not in the future), held, refused or missed
 * (with a reason). The order's row is locked first, then the dose is changed only if still due: of 50 simultaneous
 * records of one dose exactly one lands, the others are 409 `dose_already_recorded`; a dose of a discontinued order
 * is 409 `order_discontinued`.
 */
export async function recordDose(deps: MedicinesDeps, rawId: RawId, body: unknown, actor: Actor): Promise<DoseJson> {
  requireClinician(actor);
  const doseId = pathId(rawId, 'Dose');
  const input = readInput(DoseRecordRequestShape, body);
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const requestId = await tx.medications.requestOfDose(doseId);
      const order = requestId === undefined ? undefined : await tx.medications.lock(requestId);
      await requireCare(tx, actor, {
        patientId: order?.patientId,
        what: 'Dose',
        entity: 'medication_dose',
        entityId: doseId,
        attempt: 'record_dose',
      });
      const locked = ensure(order, () => notFound('Dose'));
      const dose = ensure(await tx.medications.dose(doseId), () => notFound('Dose'));
      const now = tx.clock.now();
      const record = doseRecordOf(
        {
          outcome: input.outcome,
          amount: input.dose,
          reason: input.reason,
          ...(input.given_at !== undefined ? { givenAt: instantOf(input.given_at, 'given_at', now) } : {}),
        },
        now,
      );
      requireRecordable(locked, dose);
      const amount = record.amount === null ? null : givenAmount(tx, locked, record.amount, input.dose_unit);
      const landed = await tx.medications.recordDose(
        doseId,
        { ...record, amount, unit: amount === null ? null : locked.dose.unit },
        actor.userId,
        now,
      );
      if (!landed) throw conflict('dose_already_recorded', 'This dose was already recorded');
      const billId = record.outcome === 'given' ? await billDose(tx, locked, doseId) : null;
      await tx.audit.record({
        actor,
        action: `dose_${record.outcome}`,
        entity: 'medication_dose',
        entityId: doseId,
        patientId: locked.patientId,
        requestId: actor.requestId,
        details: {
          order_id: locked.id,
          medicine: locked.medicine.genericName,
          ...(amount !== null ? { dose: amount, unit: locked.dose.unit } : {}),
          ...(record.reason ? { reason: record.reason } : {}),
          ...(billId !== null ? { bill_id: billId } : {}),
        },
      });
      return doseJson(
        ensure(await tx.medications.dose(doseId), () => notFound('Dose')),
        now,
      );
    }),
  );
}

/**
 * A dose of an as-needed order given: under the order's row lock, the minimum interval and the maximum in 24 hours
 * are checked against the doses given (409 `min_interval` or `daily_maximum`, naming the rule).
 */
export async function giveAsNeeded(deps: MedicinesDeps, rawId: RawId, body: unknown, actor: Actor): Promise<DoseJson> {
  requireClinician(actor);
  const requestId = pathId(rawId, 'Order');
  const input = readInput(AsNeededDoseRequestShape, body);
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const order = await tx.medications.lock(requestId);
      await requireCare(tx, actor, {
        patientId: order?.patientId,
        what: 'Order',
        entity: 'medication_request',
        entityId: requestId,
        attempt: 'record_dose',
      });
      const locked = ensure(order, () => notFound('Order'));
      if (locked.frequency.kind !== 'as_needed' || locked.admissionId === null)
        throw conflict('not_as_needed', 'Only an inpatient order given as needed takes doses outside its schedule');
      requireRunning(locked);
      const now = tx.clock.now();
      const record = doseRecordOf(
        {
          outcome: 'given',
          amount: input.dose,
          ...(input.given_at !== undefined ? { givenAt: instantOf(input.given_at, 'given_at', now) } : {}),
        },
        now,
      );
      const givenAt = record.givenAt ?? now;
      checkAsNeeded(locked.frequency, await tx.medications.givenTimes(requestId), givenAt);
      const amount = givenAmount(tx, locked, input.dose, input.dose_unit);
      const doseId = await tx.medications.addGiven(requestId, givenAt, amount, locked.dose.unit, actor.userId, now);
      const billId = await billDose(tx, locked, doseId);
      await tx.audit.record({
        actor,
        action: 'dose_given',
        entity: 'medication_dose',
        entityId: doseId,
        patientId: locked.patientId,
        requestId: actor.requestId,
        details: {
          order_id: requestId,
          medicine: locked.medicine.genericName,
          dose: amount,
          unit: locked.dose.unit,
          as_needed: true,
          ...(billId !== null ? { bill_id: billId } : {}),
        },
      });
      return doseJson(
        ensure(await tx.medications.dose(doseId), () => notFound('Dose')),
        now,
      );
    }),
  );
}

/**
 * The ward's MAR for one clinic day (today by default): each patient in a bed of the ward with their inpatient
 * orders and the doses of that day, and every dose still due from before it; late doses counted per patient and
 * for the ward. A doctor sees the patients of their care team (a ward's doctors are in it while the patient is); a
 * nurse reads their own ward's MAR only.
 */
export async function wardMar(deps: MedicinesDeps, rawId: RawId, query: unknown, actor: Actor): Promise<WardMarJson> {
  requireClinician(actor);
  const departmentId = pathId(rawId, 'Ward');
  if (actor.role === 'nurse' && actor.wardId !== departmentId) throw notFound('Ward');
  const { date } = readInput(MarQuery, query);
  const now = deps.clock.now();
  const day = date ?? clinicDateTime(now, deps.timeZone).date;
  const from = clinicInstant(day, '00:00', deps.timeZone);
  const to = clinicInstant(addDays(day, 1), '00:00', deps.timeZone);
  const mar = await deps.medications.wardMar(departmentId, from, to);
  const ward = ensure(mar.ward, () => notFound('Ward'));
  const list = await reachOfList(
    deps,
    actor,
    mar.patients.map((p) => p.patient.id),
  );
  const shown = mar.patients.filter((p) => list.shows(p.patient.id));
  await deps.audit.record(
    ...clinicalReadEntries(
      actor,
      shown.map((p) => ({ patientId: p.patient.id, action: 'list_read', entity: 'medication_request' })),
      list.reach,
    ),
  );
  const patients = shown.map((p) => {
    const orders = p.orders.map((o) => ({
      order: orderJson(o),
      doses: o.doses.map((d) => doseJson(d, now, o.status === 'active')),
    }));
    return {
      admission_id: p.admissionId,
      patient: p.patient,
      bed: p.bed,
      late_doses: orders.flatMap((o) => o.doses).filter((d) => d.late).length,
      orders,
    };
  });
  return {
    ward,
    from: from.toISOString(),
    to: to.toISOString(),
    late_doses: patients.reduce((sum, p) => sum + p.late_doses, 0),
    patients,
  };
}
