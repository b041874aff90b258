import { listEntry, recorded, recordingRefusals, refusal } from '../audit/audit.ts';
import { clinicalReadEntries, type Reach } from '../care/care.ts';
import { reachOfList, requireCare } from '../care/guard.ts';
import { isDesk, ownDoctorId, ownPatientId, requireDesk, type Actor } from '../shared/actor.ts';
import { addDays, clinicToday } from '../shared/clock.ts';
import { conflict, ensure, forbidden, notFound } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { readInput } from '../shared/read-fields.ts';
import { asRecord, pathId, type RawId } from '../shared/validate.ts';
import { lockInService } from './bed-lock.ts';
import { chargeLines, firstNight, interimWeeks } from './charges.ts';
import {
  IN_BED,
  UNDO_WINDOW_MINUTES,
  ADMISSION_GROUPS,
  bedState,
  seesClinical,
  type Admission,
  type AdmissionRequest,
  type AdmissionStatus,
  type ChargeLine,
  type StayCharge,
  type SummaryFields,
} from './inpatient.ts';
import {
  AdmissionRequestShape,
  AdmissionsQuery,
  AdmitRequest,
  BedChoiceRequest,
  DischargeOrderRequest,
  type AdmissionDetailJson,
  type AdmissionJson,
  type InterimBillsShape,
  type MyStaysShape,
  type PrintedSummaryJson,
} from './inpatient-shapes.ts';
import { admissionDetailJson, admissionJson, summaryJson } from './inpatient-answers.ts';
import type { InpatientDeps } from './ports.ts';
import type { Static } from '../shared/wire-schema.ts';

function readAdmissionRequest(body: unknown): AdmissionRequest {
  const request = readInput(AdmissionRequestShape, body);
  return {
    patientId: request.patient_id,
    departmentId: request.department_id,
    expectedNights: request.expected_nights,
    reason: request.reason,
    appointmentId: request.appointment_id ?? null,
  };
}

function readDischargeSummary(body: unknown): SummaryFields {
  const {
    diagnosis,
    treatment,
    medication = '',
    instructions = '',
    follow_up: followUp = '',
  } = readInput(DischargeOrderRequest, body);
  return { diagnosis, treatment, medication, instructions, followUp };
}

const doctorOf = (actor: Actor) => ownDoctorId(actor, 'Only doctors request admissions and order discharges');

/** A doctor asks for the patient to be admitted to a ward, for an expected number of nights and a clinical reason. */
export async function requestAdmission(deps: InpatientDeps, body: unknown, actor: Actor) {
  const doctorId = doctorOf(actor);
  const request = readAdmissionRequest(body);
  // Ordering a stay makes the doctor its admitting doctor, one of the care team: only a doctor already in the team,
  // or one who broke the glass (an emergency admission), may order it, or an order would open any patient's record.
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      await requireCare(tx, actor, {
        patientId: request.patientId,
        what: 'Patient',
        entity: 'patient',
        entityId: request.patientId,
        attempt: 'request_admission',
      });
      const id = await tx.admissions.create(request, doctorId, tx.clock.now());
      await tx.audit.record({
        actor,
        action: 'request',
        entity: 'admission',
        entityId: id,
        patientId: request.patientId,
        details: { department_id: request.departmentId },
      });
      return detail(tx, id, actor);
    }),
  );
}

/** Admissions waiting for a bed (default), in a bed now, past, or all; of one ward or all; by patient name. */
export async function listAdmissions(deps: InpatientDeps, query: unknown, actor: Actor): Promise<Page<AdmissionJson>> {
  const input = asRecord(query);
  const { status: group = 'waiting', department_id: departmentId } = readInput(AdmissionsQuery, input);
  const page = pageRequest(input);
  const found = await deps.admissions.list({ statuses: ADMISSION_GROUPS[group], departmentId }, page);
  // A stay's reason is shown only to its patient's care team (and admins); each one shown is a clinical read.
  const seen = await reachOfList(
    deps,
    actor,
    found.items.map((a) => a.patient.id),
  );
  const shown = seesClinical(actor) ? found.items.filter((a) => seen.shows(a.patient.id)) : [];
  const reads = shown.map((a) => ({
    patientId: a.patient.id,
    action: 'list_read',
    entity: 'admission',
    entityId: a.id,
  }));
  await deps.audit.record(
    listEntry(actor, 'admission', page, { status: group, ...(departmentId ? { department_id: departmentId } : {}) }),
    ...clinicalReadEntries(actor, reads, seen.reach),
  );
  return { ...found, items: found.items.map((a) => admissionJson(a, actor, seen.shows(a.patient.id))) };
}

/** One admission with its locations and bills (and, for clinical readers, its reason and summary); audited. */
export async function showAdmission(
  deps: InpatientDeps,
  admissionId: RawId,
  actor: Actor,
): Promise<AdmissionDetailJson> {
  const id = pathId(admissionId, 'Admission');
  return recordingRefusals(deps.audit, async () => {
    const admission = await deps.admissions.find(id);
    const reach = await requireCare(deps, actor, {
      patientId: admission?.patient.id,
      what: 'Admission',
      entity: 'admission',
      entityId: id,
      attempt: 'read',
    });
    const found = admissionDetailJson(
      ensure(admission, () => notFound('Admission')),
      actor,
    );
    await deps.audit.record(
      ...clinicalReadEntries(
        actor,
        [{ patientId: found.patient.id, action: 'read', entity: 'admission', entityId: id }],
        reachMap(found.patient.id, reach),
      ),
    );
    return found;
  });
}

/** A request or reservation is withdrawn before the patient is admitted, by a doctor or the desk. */
export async function cancelAdmission(deps: InpatientDeps, admissionId: RawId, actor: Actor) {
  if (!isDesk(actor)) doctorOf(actor);
  return step(deps, admissionId, actor, ['requested', 'reserved'], 'cancel', async (tx, admission) => {
    await tx.admissions.cancel(admission.id, tx.clock.now());
    return { from: admission.status };
  });
}

/** The desk holds a vacant bed for a waiting admission about to arrive. */
export async function reserveBed(deps: InpatientDeps, input: { admissionId: RawId; body: unknown }, actor: Actor) {
  requireDesk(actor);
  const bedId = readInput(BedChoiceRequest, input.body).bed_id;
  return step(deps, input.admissionId, actor, ['requested'], 'reserve', async (tx, admission) => {
    await takeVacant(tx, bedId, admission.id);
    await tx.admissions.reserve(admission.id, bedId, tx.clock.now());
    return { bed_id: bedId };
  });
}

/** The desk admits a waiting patient into a vacant bed (or the one reserved for them): their first night's bed. */
export async function admitPatient(deps: InpatientDeps, input: { admissionId: RawId; body: unknown }, actor: Actor) {
  requireDesk(actor);
  const chosen = readInput(AdmitRequest, input.body).bed_id;
  return step(deps, input.admissionId, actor, ['requested', 'reserved'], 'admit', async (tx, admission) => {
    const bedId = ensure(chosen ?? admission.bed?.id, () =>
      conflict('bed_required', 'Choose a bed for this admission', { bed_id: ['is required'] }),
    );
    await takeVacant(tx, bedId, admission.id);
    await tx.admissions.admit(admission.id, bedId, await tx.beds.rateOf(bedId), tx.clock.now());
    await tx.hl7.queue({ event: 'A01', admissionId: admission.id }, tx.clock.now());
    return { bed_id: bedId };
  });
}

/**
 * A mistaken admission is undone: the request waits again and the bed is vacant, as if it had never been taken. A
 * reservation can always be undone; an admission only within UNDO_WINDOW_MINUTES and before any transfer.
 */
export async function undoAdmission(deps: InpatientDeps, admissionId: RawId, actor: Actor) {
  requireDesk(actor);
  return step(deps, admissionId, actor, ['reserved', 'admitted'], 'undo', async (tx, admission) => {
    if (admission.status === 'admitted') {
      const window = UNDO_WINDOW_MINUTES * 60_000;
      const late = admission.admittedAt === null || tx.clock.now().getTime() - admission.admittedAt.getTime() > window;
      if (late)
        throw conflict('undo_window_passed', `An admission can be undone only within ${UNDO_WINDOW_MINUTES} minutes`);
      if ((await tx.admissions.segments(admission.id)).length > 1)
        throw conflict('undo_window_passed', 'This patient has been transferred since; transfer them back instead');
    }
    await tx.admissions.undo(admission.id);
    if (admission.status === 'admitted')
      await tx.hl7.queue({ event: 'A11', admissionId: admission.id }, tx.clock.now());
    return {
      from: admission.status,
      bed_id: admission.bed?.id ?? null,
      admitted_at: admission.admittedAt?.toISOString() ?? null,
    };
  });
}

/** The patient moves to another vacant bed, of this ward or another; the bed left is to be cleaned. */
export async function transferPatient(deps: InpatientDeps, input: { admissionId: RawId; body: unknown }, actor: Actor) {
  requireDesk(actor);
  const bedId = readInput(BedChoiceRequest, input.body).bed_id;
  return step(deps, input.admissionId, actor, IN_BED, 'transfer', async (tx, admission) => {
    const from = admission.bed?.id ?? null;
    if (from === bedId)
      throw conflict('same_bed', 'The patient is already in this bed', { bed_id: ['is the current bed'] });
    await takeVacant(tx, bedId, admission.id);
    const at = tx.clock.now();
    await tx.admissions.transfer(admission.id, bedId, await tx.beds.rateOf(bedId), at);
    if (from !== null) await tx.beds.setHousekeeping(from, 'cleaning', null, at);
    await tx.hl7.queue({ event: 'A02', admissionId: admission.id }, at);
    return { from_bed_id: from, bed_id: bedId };
  });
}

/** The doctor orders the discharge and writes its summary; the desk then confirms the patient has left. */
export async function orderDischarge(deps: InpatientDeps, input: { admissionId: RawId; body: unknown }, actor: Actor) {
  const doctorId = doctorOf(actor);
  const summary = readDischargeSummary(input.body);
  return step(deps, input.admissionId, actor, ['admitted'], 'order_discharge', async (tx, admission) => {
    await tx.admissions.orderDischarge(admission.id, summary, doctorId, tx.clock.now());
    return {};
  });
}

/**
 * The desk confirms the patient has left: the stay ends, the bed is to be cleaned and the stay's nights not yet
 * billed become one bill with a line per bed, all in one transaction, so a discharge never completes without its
 * charges posted.
 */
export async function confirmDischarge(deps: InpatientDeps, admissionId: RawId, actor: Actor) {
  requireDesk(actor);
  return step(deps, admissionId, actor, ['discharge_ordered'], 'discharge', async (tx, admission) => {
    const at = tx.clock.now();
    await tx.admissions.discharge(admission.id, at);
    const bedId = ensure(admission.bed?.id, () => notFound('Bed'));
    await tx.beds.setHousekeeping(bedId, 'cleaning', null, at);
    await tx.hl7.queue({ event: 'A03', admissionId: admission.id }, at);
    const segments = await tx.admissions.segments(admission.id);
    const billedThrough = await tx.charges.billedThrough(admission.id);
    const billing = await postCharge(
      tx,
      admission,
      'final',
      chargeLines(segments, tx.timeZone, at, billedThrough, clinicToday(tx.clock, tx.timeZone)),
      actor,
    );
    return { billing_id: billing ?? null };
  });
}

/**
 * Every stay still in a bed gets an interim bill for each whole week of nights not yet billed. Idempotent: a week
 * billed is recorded with the bill, under the admission's lock, so running this twice bills each week once.
 */
export async function billInterimWeeks(deps: InpatientDeps, actor: Actor): Promise<Static<typeof InterimBillsShape>> {
  requireDesk(actor);
  let bills = 0;
  // One transaction per stay: one stay's failure leaves the others billed, and the next run retries it. A stay
  // another run (another instance's) is billing right now is left to that run.
  for (const id of await deps.admissions.inBed()) {
    bills += await deps.transaction(async (tx) => {
      const admission = await tx.admissions.lockIfFree(id);
      if (!admission || !IN_BED.includes(admission.status)) return 0;
      const now = tx.clock.now();
      const segments = await tx.admissions.segments(id);
      const first = firstNight(segments, tx.timeZone, now);
      if (first === undefined) return 0;
      const weeks = interimWeeks(first, await tx.charges.billedThrough(id), tx.timeZone, now);
      for (const week of weeks)
        await postCharge(
          tx,
          admission,
          'interim',
          chargeLines(segments, tx.timeZone, now, addDays(week.from, -1), week.to),
          actor,
        );
      return weeks.length;
    });
  }
  return { bills };
}

/** The signed-in patient's current and past stays, with their discharge summaries and bills. */
export async function myStays(deps: InpatientDeps, actor: Actor): Promise<Static<typeof MyStaysShape>> {
  const patientId = ownPatientId(actor, 'Only patients have hospital stays of their own');
  const stays = await deps.admissions.listForPatient(patientId);
  return { admissions: stays.filter((a) => a.status !== 'cancelled').map((a) => admissionDetailJson(a, actor)) };
}

/**
 * The discharge summary to print, with the medicines ordered on the ward to continue at home: for doctors, admins and
 * the patient it belongs to (reading it is audited).
 */
export async function dischargeSummary(
  deps: InpatientDeps,
  admissionId: RawId,
  actor: Actor,
): Promise<PrintedSummaryJson> {
  if (actor.role === 'reception') throw forbidden('Reception does not read discharge summaries');
  const id = pathId(admissionId, 'Admission');
  const admission = await deps.admissions.find(id);
  const own = actor.role === 'patient' && admission?.patient.id === actor.patientId;
  if (!admission || (actor.role === 'patient' && !own)) {
    throw await recorded(
      deps.audit,
      refusal('Admission', actor, {
        entity: 'admission',
        entityId: id,
        patientId: admission?.patient.id,
        attempt: 'read_summary',
      }),
    );
  }
  const reach = await recordingRefusals(deps.audit, () =>
    requireCare(deps, actor, {
      patientId: admission.patient.id,
      what: 'Admission',
      entity: 'admission',
      entityId: id,
      attempt: 'read_summary',
    }),
  );
  const summary = ensure(admission.summary, () => notFound('Discharge summary'));
  await deps.audit.record(
    ...clinicalReadEntries(
      actor,
      [{ patientId: admission.patient.id, action: 'read_summary', entity: 'admission', entityId: id }],
      reachMap(admission.patient.id, reach),
    ),
  );
  return {
    admission_id: admission.id,
    patient: admission.patient,
    patient_birth_date: admission.patientBirthDate,
    ward: admission.ward,
    admitted_at: admission.admittedAt?.toISOString() ?? null,
    discharged_at: admission.dischargedAt?.toISOString() ?? null,
    ...summaryJson(summary),
    medicines_to_continue: (await deps.admissions.medicinesToContinue(id, deps.clock.now())).map((o) => ({
      order_id: o.orderId,
      medicine: o.medicine,
      words: o.words,
    })),
  };
}

// --- the steps' common frame

/**
 * One step of the lifecycle: the admission locked (so racing desks take turns), its status checked, `change` made
 * and its audit row written, all in one transaction; answers the admission as it is after the step.
 */
async function step(
  deps: InpatientDeps,
  admissionId: RawId,
  actor: Actor,
  allowed: readonly AdmissionStatus[],
  action: string,
  change: (tx: InpatientDeps, admission: Admission) => Promise<Record<string, unknown>>,
): Promise<AdmissionDetailJson> {
  const id = pathId(admissionId, 'Admission');
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const locked = await tx.admissions.lock(id);
      // A doctor's step (cancel, order the discharge) is a clinical write: their patient's care team only.
      await requireCare(tx, actor, {
        patientId: locked?.patient.id,
        what: 'Admission',
        entity: 'admission',
        entityId: id,
        attempt: action,
      });
      const admission = ensure(locked, () => notFound('Admission'));
      if (!allowed.includes(admission.status)) throw wrongStatus(admission.status, action);
      const details = await change(tx, admission);
      await tx.audit.record({
        actor,
        action,
        entity: 'admission',
        entityId: id,
        patientId: admission.patient.id,
        details,
      });
      return detail(tx, id, actor);
    }),
  );
}

const STATUS_CONFLICTS: Record<AdmissionStatus, [string, string]> = {
  requested: ['not_admitted', 'This patient has not been admitted yet'],
  reserved: ['not_admitted', 'This patient has a bed reserved but has not been admitted yet'],
  admitted: ['already_admitted', 'This patient is already admitted'],
  discharge_ordered: ['discharge_already_ordered', 'The discharge of this patient is already ordered'],
  discharged: ['already_discharged', 'This stay has ended: the patient was discharged'],
  cancelled: ['admission_cancelled', 'This admission was cancelled'],
};

function wrongStatus(status: AdmissionStatus, action: string) {
  if (action === 'discharge' && status === 'admitted')
    return conflict('discharge_not_ordered', 'A doctor must order the discharge first');
  const [code, message] = STATUS_CONFLICTS[status];
  return conflict(code, message);
}

/** Locks the bed and checks it can take the admission: in service, ready, and held by nobody else. */
async function takeVacant(tx: InpatientDeps, bedId: number, admissionId: number): Promise<void> {
  const bed = await lockInService(tx, bedId);
  if (bed.holder && bed.holder.admissionId !== admissionId)
    throw conflict('bed_taken', 'This bed is taken', { bed_id: ['is taken'] });
  if (!bed.holder && bedState(bed) !== 'vacant')
    throw conflict('bed_not_vacant', `This bed is ${bedState(bed).replace('_', ' ')}`, {
      bed_id: [`is ${bedState(bed)}`],
    });
}

/** Bills `lines` to the patient as one bill for the stay, recorded as its `kind` charge; none when they come to nothing. */
async function postCharge(
  tx: InpatientDeps,
  admission: Admission,
  kind: StayCharge['kind'],
  lines: ChargeLine[],
  actor: Actor,
): Promise<number | undefined> {
  const [first, last] = [lines[0], lines.at(-1)];
  const amountCents = lines.reduce((n, line) => n + line.amountCents, 0);
  if (!first || !last || amountCents === 0) return undefined;
  const nights = lines.reduce((n, line) => n + line.nights, 0);
  const bill = await tx.bills.create({
    patientId: admission.patient.id,
    medicalRecordId: null,
    serviceDetails: `${kind === 'interim' ? 'Hospital stay, interim' : 'Hospital stay'}: ${nights} night${nights === 1 ? '' : 's'}, ${first.firstNight} to ${last.lastNight}`,
    amountCents,
    billingDate: clinicToday(tx.clock, tx.timeZone),
  });
  await tx.charges.record({
    admissionId: admission.id,
    billingId: bill.id,
    kind,
    firstNight: first.firstNight,
    lastNight: last.lastNight,
    lines,
  });
  await tx.audit.record({
    actor,
    action: 'create',
    entity: 'billing',
    entityId: bill.id,
    patientId: admission.patient.id,
    details: { admission_id: admission.id, kind, nights, amount_cents: amountCents },
  });
  return bill.id;
}

const reachMap = (patientId: number, reach: Reach | undefined) => new Map(reach ? [[patientId, reach]] : []);

const detail = async (deps: InpatientDeps, id: number, actor: Actor): Promise<AdmissionDetailJson> =>
  admissionDetailJson(
    ensure(await deps.admissions.find(id), () => notFound('Admission')),
    actor,
  );
