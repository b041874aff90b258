import { recordingRefusals } from '../audit/audit.ts';
import { clinicalReadEntries } from '../care/care.ts';
import { requireCare } from '../care/guard.ts';
import { type Actor, requireAdmin } from '../shared/actor.ts';
import { ensure, forbidden, invalid, notFound } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { readInput } from '../shared/read-fields.ts';
import { asRecord, pathId, type RawId } from '../shared/validate.ts';
import { requireConsistentStatement, type AllergySubstance } from './allergies.ts';
import { formularyEntryFrom } from './formulary-request.ts';
import { allergiesJson, allergyJson, formularyJson } from './medicines-answers.ts';
import {
  AllergyRequestShape,
  AllergyStatusRequestShape,
  type AllergiesJson,
  type AllergyJson,
  type FormularyEntryJson,
  FormularyQuery,
} from './medicines-shapes.ts';
import type { MedicinesDeps } from './ports.ts';
import { isClinician, requireClinician } from './access.ts';

// The formulary (admins keep it; clinicians read it) and patients' allergies (kept by the care team).

/** The formulary, by generic name; clinicians see what may be prescribed, admins every medicine if they ask. */
export async function listFormulary(deps: MedicinesDeps, query: unknown): Promise<Page<FormularyEntryJson>> {
  const { include_inactive } = readInput(FormularyQuery, query);
  const page = await deps.formulary.list(
    { includeInactive: include_inactive === 'true' },
    pageRequest(asRecord(query)),
  );
  return { ...page, items: page.items.map(formularyJson) };
}

export async function createMedicine(deps: MedicinesDeps, body: unknown, actor: Actor): Promise<FormularyEntryJson> {
  requireAdmin(actor);
  const { entry } = formularyEntryFrom(deps.units, body);
  return deps.transaction(async (tx) => {
    const created = await tx.formulary.create(entry);
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'formulary',
      entityId: created.id,
      requestId: actor.requestId,
      details: { generic_name: created.genericName, form: created.form, strength: created.strength },
    });
    return formularyJson(created);
  });
}

export async function updateMedicine(
  deps: MedicinesDeps,
  rawId: RawId,
  body: unknown,
  actor: Actor,
): Promise<FormularyEntryJson> {
  requireAdmin(actor);
  const id = pathId(rawId, 'Medicine');
  const { entry, active } = formularyEntryFrom(deps.units, body);
  return deps.transaction(async (tx) => {
    const updated = ensure(await tx.formulary.update(id, { ...entry, active: active ?? true }, tx.clock.now()), () =>
      notFound('Medicine'),
    );
    await tx.audit.record({
      actor,
      action: 'update',
      entity: 'formulary',
      entityId: id,
      requestId: actor.requestId,
      details: { generic_name: updated.genericName, active: updated.active, price_cents: updated.priceCents },
    });
    return formularyJson(updated);
  });
}

/** A patient's allergies as the care team reads them (every read audited); admins read them too. */
export async function patientAllergies(deps: MedicinesDeps, rawId: RawId, actor: Actor): Promise<AllergiesJson> {
  const patientId = pathId(rawId, 'Patient');
  if (!isClinician(actor) && actor.role !== 'admin') throw forbidden('Only clinicians read allergies');
  const allergies = await deps.allergies.ofPatient(patientId);
  const reach = await recordingRefusals(deps.audit, () =>
    requireCare(deps, actor, {
      patientId: allergies ? patientId : undefined,
      what: 'Patient',
      entity: 'patient',
      entityId: patientId,
      attempt: 'read_allergies',
    }),
  );
  const found = ensure(allergies, () => notFound('Patient'));
  await deps.audit.record(
    ...clinicalReadEntries(
      actor,
      [{ patientId, action: 'read', entity: 'allergy', entityId: patientId }],
      reach ? new Map([[patientId, reach]]) : new Map(),
    ),
  );
  return allergiesJson(patientId, found);
}

/**
 * A clinician of the care team records an allergy (a formulary medicine or words) or the statement "no known
 * allergies"; an allergy retires a standing "no known allergies", and that statement beside an active allergy
 * is a 409. Taken in turn per patient under its row lock.
 */
export async function recordAllergy(
  deps: MedicinesDeps,
  rawId: RawId,
  body: unknown,
  actor: Actor,
): Promise<AllergyJson> {
  requireClinician(actor);
  const patientId = pathId(rawId, 'Patient');
  const input = readInput(AllergyRequestShape, body);
  const given = [input.medicine_id !== undefined, input.substance !== undefined, input.no_known_allergies === true];
  if (given.filter(Boolean).length !== 1)
    throw invalid({ substance: ['give one of medicine_id, substance or no_known_allergies'] });
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const exists = await tx.allergies.lockPatient(patientId);
      await requireCare(tx, actor, {
        patientId: exists ? patientId : undefined,
        what: 'Patient',
        entity: 'patient',
        entityId: patientId,
        attempt: 'record_allergy',
      });
      if (!exists) throw notFound('Patient');
      let substance: AllergySubstance;
      if (input.medicine_id !== undefined) {
        const medicine = await tx.formulary.find(input.medicine_id);
        if (!medicine) throw invalid({ medicine_id: ['is not a formulary medicine'] });
        substance = { kind: 'medicine', medicineId: medicine.id, name: medicine.genericName };
      } else if (input.substance !== undefined) substance = { kind: 'text', text: input.substance };
      else substance = { kind: 'none_known' };
      const now = tx.clock.now();
      const active = (await tx.allergies.ofPatient(patientId))?.filter((a) => a.status === 'active') ?? [];
      requireConsistentStatement(active, substance);
      if (substance.kind !== 'none_known') await tx.allergies.retireNoneKnown(patientId, now);
      const allergy = await tx.allergies.add({
        patientId,
        substance,
        type: input.type ?? 'allergy',
        reaction: substance.kind === 'none_known' ? null : input.reaction || null,
        severity: substance.kind === 'none_known' ? null : (input.severity ?? null),
        recordedBy: actor.userId,
        recordedAt: now,
      });
      await tx.audit.record({
        actor,
        action: 'create',
        entity: 'allergy',
        entityId: allergy.id,
        patientId,
        requestId: actor.requestId,
        details: { substance: allergyJson(allergy).substance, severity: allergy.severity },
      });
      return allergyJson(allergy);
    }),
  );
}

/** An allergy marked inactive, resolved or entered in error (or active again, retiring a "no known allergies"); audited. */
export async function setAllergyStatus(
  deps: MedicinesDeps,
  rawId: RawId,
  body: unknown,
  actor: Actor,
): Promise<AllergyJson> {
  requireClinician(actor);
  const id = pathId(rawId, 'Allergy');
  const { status } = readInput(AllergyStatusRequestShape, body);
  return recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const found = await tx.allergies.find(id);
      await requireCare(tx, actor, {
        patientId: found?.patientId,
        what: 'Allergy',
        entity: 'allergy',
        entityId: id,
        attempt: 'update_allergy',
      });
      const allergy = ensure(found, () => notFound('Allergy'));
      await tx.allergies.lockPatient(allergy.patientId);
      if (status === 'active') {
        const active = (await tx.allergies.ofPatient(allergy.patientId))?.filter((a) => a.status === 'active') ?? [];
        requireConsistentStatement(active, allergy.substance);
        if (allergy.substance.kind !== 'none_known')
          await tx.allergies.retireNoneKnown(allergy.patientId, tx.clock.now());
      }
      const updated = ensure(await tx.allergies.setStatus(id, status, tx.clock.now()), () => notFound('Allergy'));
      await tx.audit.record({
        actor,
        action: 'update',
        entity: 'allergy',
        entityId: id,
        patientId: allergy.patientId,
        requestId: actor.requestId,
        details: { from: allergy.status, to: status },
      });
      return allergyJson(updated);
    }),
  );
}
