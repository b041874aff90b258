/**
 * Vital signs: nurses (their ward's inpatients) and doctors (their care team's patients) record sets at a visit or
 * during a stay; each complete set is scored by NEWS2 and a medium or high score alerts the ward and e-mails the
 * patient's doctor. A stay's flowsheet, fluid balance and nursing notes are read by the same people and admins.
 */
import { recordingRefusals } from '../audit/audit.ts';
import { requireCare } from '../care/guard.ts';
import { ownDoctorId, type Actor } from '../shared/actor.ts';
import { conflict, ensure, invalid, notFound } from '../shared/errors.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { news2AlertMessage } from './alert-message.ts';
import { fluidTotals, INTAKE_ROUTES, OUTPUT_ROUTES } from './fluid-balance.ts';
import { clinicalResponse, news2, nextDue, raisesAlert, type SpO2Scale } from './news2.ts';
import type { SourceOfVitals, StoredNews2, VitalsDeps, VitalsSource, VitalsStores } from './ports.ts';
import { news2SetOf, readVitals, type Measurement, type VitalsInput } from './vital-signs.ts';
import { vitalSetJson } from './vital-set-json.ts';
import {
  FluidRequestShape,
  MAX_IDEMPOTENCY_KEY,
  NursingNoteRequestShape,
  Spo2ScaleRequestShape,
  VitalCorrectionRequestShape,
  VitalSetRequestShape,
  type FluidBalanceJson,
  type FlowsheetJson,
  type News2AlertJson,
  type NursingNoteJson,
  type VitalSetJson,
} from './vitals-shapes.ts';

/** A time a set or an entry was taken: now when absent; not in the future (a minute's grace for clocks). */
function takenAt(v: Validator, field: string, raw: string | undefined, now: Date): Date {
  if (raw === undefined) return now;
  const at = new Date(raw);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(raw)) v.fail(field, 'must be a date and time');
  else if (at.getTime() > now.getTime() + 60_000) v.fail(field, 'must not be in the future');
  return at;
}

const sourceWhat = (source: VitalsSource) =>
  source.kind === 'stay'
    ? { what: 'Admission', entity: 'admission', entityId: source.admissionId }
    : { what: 'Appointment', entity: 'appointment', entityId: source.appointmentId };

/** The source, once the actor is known to reach its patient (404 alike when they do not or it does not exist). */
async function reachedSource(
  tx: VitalsStores & { clock: VitalsDeps['clock'] },
  actor: Actor,
  source: VitalsSource,
  attempt: string,
): Promise<SourceOfVitals> {
  // Nurses work the wards: a visit is not theirs even when its patient lies in one of their beds.
  const found = source.kind === 'visit' && actor.role === 'nurse' ? undefined : await tx.vitals.sourceOf(source);
  const what = sourceWhat(source);
  await requireCare(tx, actor, { patientId: found?.patientId, ...what, attempt });
  return ensure(found, () => notFound(what.what));
}

function scoreOf(measurements: readonly Measurement[], scale: SpO2Scale, at: Date): StoredNews2 | null {
  const set = news2SetOf(measurements);
  if (!set) return null;
  const scored = news2(set, scale);
  return {
    total: scored.total,
    scale,
    risk: scored.risk,
    frequency: scored.frequency,
    parameters: scored.parameters,
    nextDueAt: nextDue(at, scored.frequency),
  };
}

/** A medium or high score on a stay: its alert, once per version, and the e-mail to the patient's doctor. */
async function alertIfNeeded(
  deps: VitalsDeps,
  tx: VitalsStores,
  set: { id: number; version: number; admissionId: number | null },
  source: SourceOfVitals,
  score: StoredNews2 | null,
  now: Date,
): Promise<void> {
  if (!score || !raisesAlert(score.risk)) return;
  if (set.admissionId !== null) {
    const raised = await tx.vitals.raiseAlert({
      setId: set.id,
      version: set.version,
      admissionId: set.admissionId,
      total: score.total,
      risk: score.risk,
      raisedAt: now,
    });
    if (!raised) return;
  }
  if (source.doctor.email === null) return;
  const { response } = clinicalResponse(score.total, Object.values(score.parameters).includes(3));
  await tx.outbox.enqueue(
    news2AlertMessage(
      deps.clinic,
      {
        setId: set.id,
        version: set.version,
        patientName: source.patientName,
        where: set.admissionId !== null ? 'on the ward' : 'at a visit',
        total: score.total,
        risk: score.risk,
        response,
        doctor: { name: source.doctor.name, email: source.doctor.email, userId: source.doctor.userId },
      },
      now,
    ),
  );
}

/** The vitals of a request; `on_oxygen` only when sent (a boolean field reads as false when absent). */
const vitalsInput = (fields: VitalsInput, raw: Record<string, unknown>): VitalsInput => ({
  systolic: fields.systolic,
  diastolic: fields.diastolic,
  heart_rate: fields.heart_rate,
  respiratory_rate: fields.respiratory_rate,
  temperature: fields.temperature,
  temperature_unit: fields.temperature_unit,
  spo2: fields.spo2,
  on_oxygen: raw.on_oxygen === undefined || raw.on_oxygen === null ? undefined : fields.on_oxygen,
  consciousness: fields.consciousness,
  weight: fields.weight,
  weight_unit: fields.weight_unit,
  height: fields.height,
  height_unit: fields.height_unit,
  pain_score: fields.pain_score,
});

/**
 * A nurse or doctor records a set for a stay or a visit of a patient they reach. A key they already sent answers
 * the set stored then (`created` false); a medium or high score alerts the ward and e-mails the patient's doctor.
 */
export async function recordVitalSet(
  deps: VitalsDeps,
  input: { body: unknown; idempotencyKey?: string },
  actor: Actor,
): Promise<{ set: VitalSetJson; created: boolean }> {
  const raw = asRecord(input.body);
  const v = new Validator(raw);
  const fields = readFields(v, VitalSetRequestShape);
  const now = deps.clock.now();
  const effectiveAt = takenAt(v, 'effective_at', fields.effective_at, now);
  if ((fields.admission_id === undefined) === (fields.appointment_id === undefined))
    v.fail('admission_id', 'give the stay (admission_id) or the visit (appointment_id), one of them');
  const key = input.idempotencyKey?.trim();
  if (key !== undefined && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY))
    v.fail('idempotency_key', `must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`);
  v.done();
  const measurements = readVitals(deps.units, vitalsInput(fields, raw));
  const source: VitalsSource =
    fields.admission_id !== undefined
      ? { kind: 'stay', admissionId: fields.admission_id }
      : { kind: 'visit', appointmentId: fields.appointment_id ?? 0 };
  const id = await recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const found = await reachedSource(tx, actor, source, 'record_vitals');
      if (found.stay && !found.stay.open)
        throw conflict('stay_closed', 'The patient is no longer in a bed on this stay');
      const score = scoreOf(measurements, found.stay?.scale ?? 1, effectiveAt);
      const stored = await tx.vitals.recordSet({
        patientId: found.patientId,
        source,
        effectiveAt,
        recordedAt: now,
        recordedBy: actor.userId,
        idempotencyKey: key ?? null,
        measurements,
        news2: score,
      });
      if (!stored.created) return stored;
      await tx.audit.record({
        actor,
        action: 'record',
        entity: 'vital_set',
        entityId: stored.id,
        patientId: found.patientId,
        requestId: actor.requestId,
        details: score ? { news2: score.total, risk: score.risk } : {},
      });
      const admissionId = source.kind === 'stay' ? source.admissionId : null;
      await alertIfNeeded(deps, tx, { id: stored.id, version: 1, admissionId }, found, score, now);
      return stored;
    }),
  );
  const set = ensure(await deps.vitals.findSet(id.id), () => notFound('Vital sign set'));
  return { set: vitalSetJson(deps, set), created: id.created };
}

/** A set, to whoever reaches its patient. */
export async function showVitalSet(deps: VitalsDeps, rawId: RawId, actor: Actor): Promise<VitalSetJson> {
  const id = pathId(rawId, 'Vital sign set');
  return recordingRefusals(deps.audit, async () => {
    const set = await deps.vitals.findSet(id);
    await requireCare(deps, actor, {
      patientId: set?.patient.id,
      what: 'Vital sign set',
      entity: 'vital_set',
      entityId: id,
      attempt: 'read',
    });
    return vitalSetJson(
      deps,
      ensure(set, () => notFound('Vital sign set')),
    );
  });
}

/**
 * Corrects a set, never overwriting it: each value given becomes a new version of its observation, the reason kept,
 * and the set is scored again. The version corrected must be the current one (409 `stale_version`).
 */
export async function correctVitalSet(
  deps: VitalsDeps,
  input: { id: RawId; body: unknown },
  actor: Actor,
): Promise<VitalSetJson> {
  const id = pathId(input.id, 'Vital sign set');
  const raw = asRecord(input.body);
  const v = new Validator(raw);
  const fields = readFields(v, VitalCorrectionRequestShape);
  v.done();
  const corrected = readVitals(deps.units, vitalsInput(fields, raw));
  const now = deps.clock.now();
  await recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const locked = await tx.vitals.lockSet(id);
      await requireCare(tx, actor, {
        patientId: locked?.patientId,
        what: 'Vital sign set',
        entity: 'vital_set',
        entityId: id,
        attempt: 'correct_vitals',
      });
      const current = ensure(locked, () => notFound('Vital sign set'));
      if (current.version !== fields.version)
        throw conflict('stale_version', `The set is at version ${current.version}; reload it and correct that`, {
          version: [`is ${current.version} now`],
        });
      const set = ensure(await tx.vitals.findSet(id), () => notFound('Vital sign set'));
      const merged = [...set.measurements.filter((m) => !corrected.some((c) => c.vital === m.vital)), ...corrected];
      const source: VitalsSource =
        set.admissionId !== null
          ? { kind: 'stay', admissionId: set.admissionId }
          : { kind: 'visit', appointmentId: set.appointmentId ?? 0 };
      const found = ensure(await tx.vitals.sourceOf(source), () => notFound('Vital sign set'));
      const score = scoreOf(merged, set.news2?.scale ?? found.stay?.scale ?? 1, set.effectiveAt);
      const version = current.version + 1;
      await tx.vitals.correctSet({
        id,
        version,
        measurements: corrected,
        news2: score,
        recordedAt: now,
        recordedBy: actor.userId,
        reason: fields.reason,
      });
      await tx.audit.record({
        actor,
        action: 'correct',
        entity: 'vital_set',
        entityId: id,
        patientId: current.patientId,
        requestId: actor.requestId,
        details: { version, reason: fields.reason },
      });
      await alertIfNeeded(deps, tx, { id, version, admissionId: set.admissionId }, found, score, now);
    }),
  );
  return vitalSetJson(
    deps,
    ensure(await deps.vitals.findSet(id), () => notFound('Vital sign set')),
  );
}

/** The stay, once the actor reaches its patient; every read of it audited as an opening of the record. */
async function readableStay(deps: VitalsDeps, rawId: RawId, actor: Actor, attempt: string) {
  const admissionId = pathId(rawId, 'Admission');
  const source: VitalsSource = { kind: 'stay', admissionId };
  return recordingRefusals(deps.audit, async () => {
    const found = await reachedSource(deps, actor, source, attempt);
    await deps.audit.record({
      actor,
      action: 'read',
      entity: attempt,
      entityId: admissionId,
      patientId: found.patientId,
      requestId: actor.requestId,
    });
    return { admissionId, found };
  });
}

const SERIES = [
  'systolic',
  'diastolic',
  'heart_rate',
  'respiratory_rate',
  'temperature',
  'spo2',
  'weight',
  'pain_score',
] as const;

/** A stay's flowsheet: each vital as a series over time (a set without it is a gap, not a point), NEWS2 beside them, and every set. */
export async function flowsheet(deps: VitalsDeps, rawId: RawId, actor: Actor): Promise<FlowsheetJson> {
  const { admissionId, found } = await readableStay(deps, rawId, actor, 'flowsheet');
  const sets = (await deps.vitals.setsOfStay(admissionId)).map((set) => vitalSetJson(deps, set));
  const series: Record<string, { at: string; value: number | null; set_id: number }[]> = {};
  for (const key of SERIES) series[key] = sets.map((s) => ({ at: s.effective_at, value: s.values[key], set_id: s.id }));
  series.news2 = sets.map((s) => ({ at: s.effective_at, value: s.news2?.total ?? null, set_id: s.id }));
  return {
    admission_id: admissionId,
    patient: { id: found.patientId, name: found.patientName },
    patient_birth_date: found.patientBirthDate,
    temperature_unit: deps.temperatureUnit,
    scale: found.stay?.scale ?? 1,
    series,
    sets,
  };
}

/** A doctor of the patient's care team sets the stay's SpO2 scale (2: hypercapnic respiratory failure). */
export async function setSpo2Scale(
  deps: VitalsDeps,
  input: { admissionId: RawId; body: unknown },
  actor: Actor,
): Promise<{ admission_id: number; scale: number }> {
  const doctorId = ownDoctorId(actor, 'Only a doctor sets the SpO2 scale');
  const admissionId = pathId(input.admissionId, 'Admission');
  const v = new Validator(asRecord(input.body));
  const { scale } = readFields(v, Spo2ScaleRequestShape);
  v.done();
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const found = await reachedSource(tx, actor, { kind: 'stay', admissionId }, 'set_spo2_scale');
      await tx.vitals.setScale(admissionId, scale === 2 ? 2 : 1, doctorId, tx.clock.now());
      await tx.audit.record({
        actor,
        action: 'set_spo2_scale',
        entity: 'admission',
        entityId: admissionId,
        patientId: found.patientId,
        requestId: actor.requestId,
        details: { scale },
      });
      return { admission_id: admissionId, scale };
    }),
  );
}

/** The NEWS2 alerts standing on the wards of a doctor's patients: on their day. */
export async function news2Alerts(deps: VitalsDeps, actor: Actor): Promise<{ alerts: News2AlertJson[] }> {
  const doctorId = ownDoctorId(actor, 'Only doctors have a day of alerts');
  const alerts = await deps.vitals.alertsFor(doctorId);
  return {
    alerts: alerts.map((a) => ({
      id: a.id,
      set_id: a.setId,
      admission_id: a.admissionId,
      patient: a.patient,
      bed: a.bed,
      total: a.total,
      risk: a.risk,
      raised_at: a.raisedAt.toISOString(),
    })),
  };
}

/** A nurse or doctor records fluid in or out of a stay; a resubmitted key is stored once. */
export async function addFluid(
  deps: VitalsDeps,
  input: { admissionId: RawId; body: unknown; idempotencyKey?: string },
  actor: Actor,
): Promise<{ id: number }> {
  const admissionId = pathId(input.admissionId, 'Admission');
  const v = new Validator(asRecord(input.body));
  const fields = readFields(v, FluidRequestShape);
  const now = deps.clock.now();
  const effectiveAt = takenAt(v, 'effective_at', fields.effective_at, now);
  const routes: readonly string[] = fields.kind === 'intake' ? INTAKE_ROUTES : OUTPUT_ROUTES;
  if (fields.route !== undefined && !routes.includes(fields.route))
    v.fail('route', `must be one of ${routes.join(', ')} for ${fields.kind}`);
  v.done();
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const found = await reachedSource(tx, actor, { kind: 'stay', admissionId }, 'record_fluid');
      const id = await tx.vitals.addFluid({
        admissionId,
        patientId: found.patientId,
        kind: fields.kind,
        route: fields.route,
        volumeMl: fields.volume_ml,
        effectiveAt,
        recordedAt: now,
        recordedBy: actor.userId,
        idempotencyKey: input.idempotencyKey?.trim() || null,
      });
      await tx.audit.record({
        actor,
        action: 'record',
        entity: 'fluid_event',
        entityId: id,
        patientId: found.patientId,
        requestId: actor.requestId,
      });
      return { id };
    }),
  );
}

/** A stay's fluid events, totals per shift (the clinic's 8 or 12 h) and per 24 h, and the balance so far. */
export async function fluidBalance(deps: VitalsDeps, rawId: RawId, actor: Actor): Promise<FluidBalanceJson> {
  const { admissionId } = await readableStay(deps, rawId, actor, 'fluid_balance');
  const events = await deps.vitals.fluidsOfStay(admissionId);
  const input = events.map((e) => ({ at: e.effectiveAt, kind: e.kind, volumeMl: e.volumeMl }));
  const totalsJson = (hours: 8 | 12 | 24) =>
    fluidTotals(input, deps.timeZone, hours).map((t) => ({
      start: t.start.toISOString(),
      end: t.end.toISOString(),
      intake_ml: t.intakeMl,
      output_ml: t.outputMl,
      balance_ml: t.balanceMl,
      running_balance_ml: t.runningBalanceMl,
    }));
  return {
    admission_id: admissionId,
    shift_hours: deps.shiftHours,
    events: events.map((e) => ({
      id: e.id,
      kind: e.kind,
      route: e.route,
      volume_ml: e.volumeMl,
      effective_at: e.effectiveAt.toISOString(),
      recorded_by: e.recordedBy,
    })),
    shifts: totalsJson(deps.shiftHours),
    days: totalsJson(24),
    balance_ml: input.reduce((ml, e) => ml + (e.kind === 'intake' ? e.volumeMl : -e.volumeMl), 0),
  };
}

/** A nursing note, signed by its writer at the time written; a mistake is corrected by a new note naming it. */
export async function addNursingNote(
  deps: VitalsDeps,
  input: { admissionId: RawId; body: unknown },
  actor: Actor,
): Promise<NursingNoteJson> {
  const admissionId = pathId(input.admissionId, 'Admission');
  const v = new Validator(asRecord(input.body));
  const { body, corrects = null } = readFields(v, NursingNoteRequestShape);
  if (body.trim().length === 0) v.fail('body', 'is required');
  v.done();
  const now = deps.clock.now();
  const id = await recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const found = await reachedSource(tx, actor, { kind: 'stay', admissionId }, 'write_nursing_note');
      if (corrects !== null && !(await tx.vitals.notesOfStay(admissionId)).some((n) => n.id === corrects))
        throw invalid({ corrects: ['is not a note of this stay'] });
      const noteId = await tx.vitals.addNote({
        admissionId,
        patientId: found.patientId,
        body,
        writtenAt: now,
        writtenBy: actor.userId,
        corrects,
      });
      await tx.audit.record({
        actor,
        action: 'write',
        entity: 'nursing_note',
        entityId: noteId,
        patientId: found.patientId,
        requestId: actor.requestId,
        ...(corrects !== null ? { details: { corrects } } : {}),
      });
      return noteId;
    }),
  );
  const note = ensure(
    (await deps.vitals.notesOfStay(admissionId)).find((n) => n.id === id),
    () => notFound('Nursing note'),
  );
  return { ...noteJson(note), corrected_by: null };
}

const noteJson = (n: Awaited<ReturnType<VitalsDeps['vitals']['notesOfStay']>>[number]) => ({
  id: n.id,
  body: n.body,
  written_at: n.writtenAt.toISOString(),
  written_by: n.writtenBy,
  corrects: n.corrects,
});

/** A stay's nursing notes, oldest first, each with the note that corrects it, if any. */
export async function nursingNotes(
  deps: VitalsDeps,
  rawId: RawId,
  actor: Actor,
): Promise<{ notes: NursingNoteJson[] }> {
  const { admissionId } = await readableStay(deps, rawId, actor, 'nursing_notes');
  const notes = await deps.vitals.notesOfStay(admissionId);
  return {
    notes: notes.map((n) => ({
      ...noteJson(n),
      corrected_by: notes.find((later) => later.corrects === n.id)?.id ?? null,
    })),
  };
}
