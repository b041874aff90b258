import type { Resource } from '@medplum/fhirtypes';
import type { Actor } from '../shared/actor.ts';
import { readableByIds, type Found } from './by-ids.ts';
import type { FhirContext } from './fhir.ts';
import type { FhirDeps } from './ports.ts';
import { keyOf, referencesIn, type RefKey } from './references.ts';
import type { FhirType } from './resource-def.ts';

/**
 * The types a patient's record refers to outside its compartment, which $everything and every export include so
 * that what they hand out is self-contained (FHIR R4 Patient-everything: "and any resource referenced from those").
 * In the order an export writes their files; a new type referred to is one entry here.
 */
export const REFERENCED_TYPES = [
  'Practitioner',
  'PractitionerRole',
  'Organization',
  'HealthcareService',
  'Location',
  'Schedule',
  'Slot',
  'Medication',
] as const satisfies readonly FhirType[];

export const isReferencedType = (type: string) => (REFERENCED_TYPES as readonly string[]).includes(type);

/**
 * The resources of REFERENCED_TYPES that `start` refers to, and those they refer to in turn, that are not in
 * `start` already and that the actor may read: each only of a type `allowed` lets through.
 */
export const referencedClosure = (
  deps: FhirDeps,
  actor: Actor,
  ctx: FhirContext,
  start: readonly Resource[],
  allowed: (type: string) => boolean = () => true,
): Promise<Found[]> =>
  closureOf(
    deps,
    actor,
    ctx,
    new Set(start.map((r) => keyOf(r.resourceType, r.id ?? ''))),
    start.flatMap(referencesIn),
    allowed,
  );

/** As referencedClosure, from the references `refs` of resources whose keys are `seen` (which it adds to). */
export async function closureOf(
  deps: FhirDeps,
  actor: Actor,
  ctx: FhirContext,
  seen: Set<string>,
  refs: readonly RefKey[],
  allowed: (type: string) => boolean,
): Promise<Found[]> {
  const found: Found[] = [];
  let frontier = refs;
  while (frontier.length > 0) {
    const wanted = new Map<string, string[]>();
    for (const { type, id } of frontier) {
      const key = keyOf(type, id);
      if (seen.has(key) || !isReferencedType(type) || !allowed(type)) continue;
      seen.add(key);
      wanted.set(type, [...(wanted.get(type) ?? []), id]);
    }
    const next: Found[] = [];
    for (const [type, ids] of wanted) next.push(...(await readableByIds(deps, actor, ctx, type, ids)));
    found.push(...next);
    frontier = next.flatMap((f) => referencesIn(f.resource));
  }
  return found;
}
