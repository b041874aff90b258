import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import type { Scope } from './access.ts';
import { searchset } from './bundle.ts';
import {
  compartmentQuery,
  filtered,
  isFilterParam,
  parseCompartmentFilter,
  readableCompartment,
  type Compartment,
  type CompartmentFilter,
} from './compartment.ts';
import type { FhirContext } from './fhir.ts';
import { REFERENCED_TYPES, closureOf, isReferencedType, referencedClosure } from './referenced.ts';
import { keyOf, referencesIn, type RefKey } from './references.ts';
import type { FhirDeps } from './ports.ts';
import { clinicalReads, type FhirCall, type Params } from './reading.ts';
import type { ResourceDef } from './resource-def.ts';
import { RESOURCES, type StoredType } from './resources.ts';
import { MAX_COUNT, parseSearch, type SearchableDef, type SearchRequest } from './search-request.ts';

/** $everything's parameters besides the compartment filter's: the paging ones. */
const EVERYTHING: SearchableDef = { type: 'Patient', params: [], isId: () => false };

/**
 * Patient/{id}/$everything: the patient and every resource of their compartment the actor may read (reception gets
 * no Conditions, a doctor no bills), narrowed by `_type`, `_since`, `start` and `end`, one searchset paged across the
 * types by a cursor `<type index>.<store cursor>` (the index into the types `_type` leaves, which the `next` link
 * repeats). Reading another's is answered as missing and audited, as a read is.
 */
export async function patientEverything(
  deps: FhirDeps,
  input: FhirCall & { id: string; params: Params; strict: boolean },
  actor: Actor,
): Promise<Bundle> {
  const compartment = await readableCompartment(deps, input, actor);
  const filter = parseCompartmentFilter(input.params, deps.timeZone);
  const paging = input.params.filter(([name]) => !isFilterParam(name));
  const request = parseSearch(EVERYTHING, paging, {
    strict: input.strict,
    ctx: compartment.ctx,
    timeZone: deps.timeZone,
  });
  const page = await everythingPage(deps, filtered(compartment, filter), input.id, filter, request);
  // Each page is whole by itself: what its resources refer to outside the compartment comes with them.
  const included = await referencedClosure(deps, actor, compartment.ctx, page.resources, allowedBy(filter));
  const read = {
    actor,
    action: 'read_everything',
    entity: 'fhir_Patient',
    entityId: input.id,
    patientId: Number(input.id),
    requestId: actor.requestId,
    details: { results: page.resources.length },
  };
  const clinical = await clinicalReads(deps, actor, [read]);
  await deps.audit.record(...(clinical.length > 0 ? clinical : [read]));
  return searchset({
    base: input.base,
    type: `Patient/${input.id}/$everything`,
    ...page,
    included: included.map((f) => f.resource),
    params: input.params,
    ignored: request.ignored,
  });
}

async function everythingPage(
  deps: FhirDeps,
  { ctx, types }: Compartment,
  id: string,
  filter: CompartmentFilter,
  request: SearchRequest,
): Promise<{ resources: Resource[]; next?: string; total?: number }> {
  const [startAt, startCursor] = everythingCursor(request.cursor, types.length);
  const resources: Resource[] = [];
  let next: string | undefined;
  for (const [i, { type, scope }] of types.entries()) {
    if (i < startAt || next !== undefined) continue;
    const remaining = request.count - resources.length;
    if (remaining === 0) {
      next = `${i}.`;
      continue;
    }
    const page = await deps.store.search(
      type,
      compartmentQuery(type, id, scope, filter, remaining, i === startAt ? startCursor : undefined),
    );
    resources.push(...page.rows.map((row) => (RESOURCES[type] as ResourceDef<unknown>).toFhir(row, ctx)));
    if (page.next !== undefined) next = `${i}.${page.next}`;
  }
  const total = request.total
    ? (
        await Promise.all(
          types.map(({ type, scope }) =>
            deps.store.search(type, { ...compartmentQuery(type, id, scope, filter, 0), total: true }),
          ),
        )
      ).reduce((sum, page) => sum + (page.total ?? 0), 0)
    : undefined;
  return { resources, next, total };
}

function everythingCursor(cursor: string | undefined, types: number): [number, string | undefined] {
  if (cursor === undefined) return [0, undefined];
  const m = /^(\d{1,2})\.(.*)$/.exec(cursor);
  if (!m || Number(m[1]) > types) throw invalid({ _cursor: ['is not a cursor this server made'] });
  return [Number(m[1]), m[2] || undefined];
}

/** One type's resources, read page by page when iterated: never the whole record in memory. */
export interface ExportFile {
  type: string;
  resources: () => AsyncGenerator<Resource>;
}

/** A patient's record as Bulk Data's files, one per type: what $everything holds, for the same reader. */
export interface PatientExport {
  /** When the export began (Bulk Data's transactionTime). */
  transactionTime: string;
  /** What was asked for, as the manifest repeats it. */
  request: string;
  files: ExportFile[];
}

const allowedBy = (filter: CompartmentFilter) => (type: string) => filter.types?.has(type) ?? true;

/**
 * Patient `id`'s record as the actor may read it, narrowed by `params` as $everything is (Bulk Data's `_type` and
 * `_since` among them; the rest are not read), audited once before a line is read: reading another's, or a filter
 * not understood, is refused here, before any answer or file is begun. The compartment's files come first, read
 * page by page; then one file for each type they refer to outside it (REFERENCED_TYPES), which a patient's record
 * refers to few enough of to hold.
 */
export async function exportPatient(
  deps: FhirDeps,
  input: FhirCall & { id: string; params: Params; request: string; format: string },
  actor: Actor,
): Promise<PatientExport> {
  const compartment = await readableCompartment(deps, input, actor);
  const filter = parseCompartmentFilter(input.params, deps.timeZone);
  const { ctx, types } = filtered(compartment, filter);
  const transactionTime = deps.clock.now().toISOString();
  const read = {
    actor,
    action: 'export',
    entity: 'fhir_Patient',
    entityId: input.id,
    patientId: Number(input.id),
    requestId: actor.requestId,
    details: { format: input.format },
  };
  const clinical = await clinicalReads(deps, actor, [read]);
  await deps.audit.record(...(clinical.length > 0 ? clinical : [read]));
  const seen = new Set<string>();
  const refs = new Map<string, RefKey>();
  const heldResources: Resource[] = [];
  const referring = types.filter(({ type }) => !isReferencedType(type));
  const held = types.filter(({ type }) => isReferencedType(type));
  // Only the keys and references of what is written are kept, and the few resources of the referenced types.
  const keep = (resource: Resource) => {
    seen.add(keyOf(resource.resourceType, resource.id ?? ''));
    for (const ref of referencesIn(resource)) refs.set(keyOf(ref.type, ref.id), ref);
    if (isReferencedType(resource.resourceType)) heldResources.push(resource);
  };
  let closure: Promise<Resource[]> | undefined;
  const referenced = async () => {
    for (const { type, scope } of held)
      for await (const resource of resourcesOf(deps, ctx, type, input.id, scope, filter)) keep(resource);
    const found = await closureOf(deps, actor, ctx, seen, [...refs.values()], allowedBy(filter));
    return [...heldResources, ...found.map((f) => f.resource)];
  };
  return {
    transactionTime,
    request: input.request,
    files: [
      ...referring.map(({ type, scope }) => ({
        type,
        resources: async function* () {
          for await (const resource of resourcesOf(deps, ctx, type, input.id, scope, filter)) {
            keep(resource);
            yield resource;
          }
        },
      })),
      ...REFERENCED_TYPES.filter(allowedBy(filter)).map((type) => ({
        type,
        resources: async function* () {
          closure ??= referenced();
          for (const resource of await closure) if (resource.resourceType === type) yield resource;
        },
      })),
    ],
  };
}

async function* resourcesOf(
  deps: FhirDeps,
  ctx: FhirContext,
  type: StoredType,
  id: string,
  scope: Scope,
  filter: CompartmentFilter,
): AsyncGenerator<Resource> {
  const def = RESOURCES[type] as ResourceDef<unknown>;
  let cursor: string | undefined;
  do {
    const page = await deps.store.search(type, compartmentQuery(type, id, scope, filter, MAX_COUNT, cursor));
    for (const row of page.rows) yield def.toFhir(row, ctx);
    cursor = page.next;
  } while (cursor !== undefined);
}
