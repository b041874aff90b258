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
import type { FhirDeps } from './ports.ts';
import type { FhirCall, Params } from './reading.ts';
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
  await deps.audit.record({
    actor,
    action: 'read_everything',
    entity: 'fhir_Patient',
    entityId: input.id,
    patientId: Number(input.id),
    requestId: actor.requestId,
    details: { results: page.resources.length },
  });
  return searchset({
    base: input.base,
    type: `Patient/${input.id}/$everything`,
    ...page,
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
  type: StoredType;
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

/**
 * Patient `id`'s record as the actor may read it, narrowed by `params` as $everything is (Bulk Data's `_type` and
 * `_since` among them; the rest are not read), audited once before a line is read: reading another's, or a filter
 * not understood, is refused here, before any answer or file is begun.
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
  await deps.audit.record({
    actor,
    action: 'export',
    entity: 'fhir_Patient',
    entityId: input.id,
    patientId: Number(input.id),
    requestId: actor.requestId,
    details: { format: input.format },
  });
  return {
    transactionTime,
    request: input.request,
    files: types.map(({ type, scope }) => ({
      type,
      resources: () => resourcesOf(deps, ctx, type, input.id, scope, filter),
    })),
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
