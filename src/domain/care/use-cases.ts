import { listEntry } from '../audit/audit.ts';
import { ownDoctorId, ownPatientId, requireAdmin, type Actor } from '../shared/actor.ts';
import { ensure, notFound } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { asRecord, pathId, type RawId } from '../shared/validate.ts';
import { readInput } from '../shared/read-fields.ts';
import { breakGlassEnds, whatWasOpened } from './care.ts';
import { type BreakGlassJson, BreakGlassRequestShape, type RecordOpeningJson } from './care-shapes.ts';
import type { BreakGlassAccess, CareDeps, RecordOpening } from './ports.ts';

const breakGlassJson = (a: BreakGlassAccess): BreakGlassJson => ({
  id: a.id,
  doctor: a.doctor,
  patient: a.patient,
  reason: a.reason,
  opened_at: a.openedAt.toISOString(),
  expires_at: a.expiresAt.toISOString(),
});

const openingJson = (o: RecordOpening): RecordOpeningJson => ({
  id: o.id,
  at: o.at.toISOString(),
  by: o.by,
  what: whatWasOpened(o.action, o.entity),
  action: o.action,
  reason: o.reason,
});

/**
 * Break the glass: a doctor outside a patient's care team opens their record, stating why. The access lasts the
 * rest of the clinic's day; it and its audit row (with the reason, which the patient and the admins are shown) are
 * written in one transaction.
 */
export async function breakGlass(
  deps: CareDeps,
  input: { patientId: RawId; body: unknown },
  actor: Actor,
): Promise<{ access: BreakGlassJson }> {
  const doctorId = ownDoctorId(actor, 'Only doctors break the glass');
  const patientId = pathId(input.patientId, 'Patient');
  const { reason } = readInput(BreakGlassRequestShape, input.body);
  const openedAt = deps.clock.now();
  const expiresAt = breakGlassEnds(openedAt, deps.timeZone);
  return deps.transaction(async (tx) => {
    const access = ensure(await tx.breakGlass.open({ doctorId, patientId, reason, openedAt, expiresAt }), () =>
      notFound('Patient'),
    );
    await tx.audit.record({
      actor,
      action: 'break_glass',
      entity: 'patient',
      entityId: patientId,
      patientId,
      requestId: actor.requestId,
      details: { break_glass_reason: reason, access_id: access.id, expires_at: expiresAt.toISOString() },
    });
    return { access: breakGlassJson(access) };
  });
}

/** Access outside the care team: every break-the-glass access, newest first, for admins; the read is audited. */
export async function listBreakGlass(deps: CareDeps, query: unknown, actor: Actor): Promise<Page<BreakGlassJson>> {
  requireAdmin(actor);
  const page = pageRequest(asRecord(query));
  const found = await deps.breakGlass.list(page);
  await deps.audit.record(listEntry(actor, 'break_glass', page));
  return { ...found, items: found.items.map(breakGlassJson) };
}

/** Who opened my record: every clinical read of the signed-in patient's record by staff, newest first. */
export async function myRecordOpenings(deps: CareDeps, query: unknown, actor: Actor): Promise<Page<RecordOpeningJson>> {
  const patientId = ownPatientId(actor, 'Only patients have a record of their own');
  const found = await deps.openings.list(patientId, pageRequest(asRecord(query)));
  return { ...found, items: found.items.map(openingJson) };
}
