import { recorded, refusal, type AuditEntry } from '../audit/audit.ts';
import { OPENING_ROLES, clinicalReadEntries, type ClinicalRead } from '../care/care.ts';
import { reachOfList } from '../care/guard.ts';
import type { Actor } from '../shared/actor.ts';
import { clinicToday } from '../shared/clock.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { readsClinical, scopeFor, type Scope } from './access.ts';
import type { FhirContext } from './fhir.ts';
import type { FhirDeps, StorePage } from './ports.ts';
import { isFhirType, type FhirType, type ResourceDef } from './resource-def.ts';
import { RESOURCES, isStored } from './resources.ts';
import type { SearchRequest } from './search-request.ts';
import { slotDates } from './slot-window.ts';

/** What every FHIR use case is called with: `<origin>/fhir/R4` for links, and the systems' base (`fhirSystemsBase`). */
export interface FhirCall {
  base: string;
  systems: string;
}

export type Params = readonly (readonly [string, string])[];

export const byId = (id: string): SearchRequest => ({
  criteria: [{ param: '_id', kind: 'in', values: [id] }],
  matchesNothing: false,
  count: 1,
  sort: { key: '_id', descending: false },
  total: false,
  ignored: [],
});

export interface Access {
  type: FhirType;
  def: ResourceDef<unknown>;
  scope: Scope;
  ctx: FhirContext;
}

/** The type's definition and the actor's scope in it; a type the actor may not read is refused and audited. */
export async function access(deps: FhirDeps, input: FhirCall & { type: string }, actor: Actor): Promise<Access> {
  const type = input.type;
  if (!isFhirType(type))
    throw new DomainError('not_found', 'unknown_resource_type', `Medora does not serve ${type} resources`);
  let scope: Scope;
  try {
    scope = scopeFor(type, actor, deps.clock.now());
  } catch (refused) {
    await deps.audit.record({
      actor,
      action: 'refused',
      entity: `fhir_${type}`,
      requestId: actor.requestId,
      details: { attempt: `read ${type}` },
    });
    throw refused;
  }
  const def = RESOURCES[type] as ResourceDef<unknown>;
  return {
    type,
    def,
    scope,
    ctx: {
      base: input.base,
      systems: input.systems,
      clinic: deps.clinic,
      clinical: readsClinical(actor),
      staff: actor.role !== 'patient',
    },
  };
}

/** The rows a request selects: from configuration, or from the store (nothing asked when no row can match). */
export async function rowsOf(
  deps: FhirDeps,
  type: FhirType,
  request: SearchRequest,
  scope: Scope,
): Promise<StorePage<unknown>> {
  const def = RESOURCES[type] as ResourceDef<unknown>;
  if (request.matchesNothing) return { rows: [], total: 0 };
  if (!isStored(type)) return configuredRows(def, request);
  const dates = type === 'Slot' ? slotDates(request, clinicToday(deps.clock, deps.timeZone), deps.timeZone) : undefined;
  return deps.store.search(type, {
    criteria: request.criteria,
    sort: request.sort,
    count: request.count,
    cursor: request.cursor,
    total: request.total,
    scope,
    dates,
  });
}

function configuredRows(def: ResourceDef<unknown>, request: SearchRequest): StorePage<unknown> {
  const ids = request.criteria.find((c) => c.param === '_id');
  const chosen = (def.configured?.() ?? []).filter(([id]) => ids?.kind !== 'in' || ids.values.includes(id));
  return { rows: chosen.slice(0, request.count).map(([, row]) => row), total: chosen.length };
}

/** The one row of `type` with `id` that the actor may read; another's is answered as missing, and the attempt audited. */
export async function readableRow(
  deps: FhirDeps,
  { type, def, scope }: Access,
  id: string,
  actor: Actor,
): Promise<unknown> {
  if (!def.isId(id)) throw notFound(`${type}/${id}`);
  const row = (await rowsOf(deps, type, byId(id), scope)).rows[0];
  if (row !== undefined) return row;
  if (scope.kind === 'all') throw notFound(`${type}/${id}`);
  throw await recorded(
    deps.audit,
    refusal(`${type}/${id}`, actor, { entity: `fhir_${type}`, entityId: Number(id), attempt: `read ${type}/${id}` }),
  );
}

/**
 * The audit rows of a doctor's or an admin's reads of patients' records, one per patient, each with the reason of the
 * break-the-glass access it went through (one query for all of them); none for other readers.
 */
export async function clinicalReads(
  deps: FhirDeps,
  actor: Actor,
  reads: readonly ClinicalRead[],
): Promise<AuditEntry[]> {
  if (!(OPENING_ROLES as readonly string[]).includes(actor.role) || reads.length === 0) return [];
  const { reach } = await reachOfList(
    deps,
    actor,
    reads.map((read) => read.patientId),
  );
  return clinicalReadEntries(actor, reads, reach);
}
