import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { scopeFor, type Scope } from './access.ts';
import type { FhirContext } from './fhir.ts';
import type { FhirDeps, StoreQuery } from './ports.ts';
import { access, readableRow, type FhirCall } from './reading.ts';
import type { StoredType } from './resources.ts';

/**
 * What a patient's compartment holds in Medora, in the order $everything pages through it, with the beds their stays
 * were in (Locations are no compartment's, but a stay's location history means little without them).
 */
export const COMPARTMENT_TYPES = ['Patient', 'Appointment', 'Encounter', 'Location', 'Condition', 'Invoice'] as const satisfies readonly StoredType[];

export interface Compartment {
  ctx: FhirContext;
  /** The compartment's types the actor may read, each with the actor's scope in it. */
  types: { type: StoredType; scope: Scope }[];
}

/** Patient `id`'s compartment as the actor may read it; another's is answered as missing and audited, as a read is. */
export async function readableCompartment(deps: FhirDeps, input: FhirCall & { id: string }, actor: Actor): Promise<Compartment> {
  const patient = await access(deps, { ...input, type: 'Patient' }, actor);
  await readableRow(deps, patient, input.id, actor);
  const types = COMPARTMENT_TYPES.flatMap((type) => {
    const scope = readableScope(type, actor);
    return scope ? [{ type, scope }] : [];
  });
  return { ctx: patient.ctx, types };
}

/** One compartment type's rows of patient `id`, in id order. */
export const compartmentQuery = (type: StoredType, id: string, scope: Scope, count: number, cursor?: string): StoreQuery => ({
  criteria: [{ param: type === 'Patient' ? '_id' : 'patient', kind: 'in', values: [id] }],
  sort: { key: '_id', descending: false },
  count,
  cursor,
  total: false,
  scope,
});

function readableScope(type: StoredType, actor: Actor): Scope | undefined {
  try {
    return scopeFor(type, actor);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'forbidden') return undefined;
    throw error;
  }
}
