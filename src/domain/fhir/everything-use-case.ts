import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { Actor } from '../shared/actor.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { scopeFor, type Scope } from './access.ts';
import { searchset } from './bundle.ts';
import type { FhirDeps, StoreQuery } from './ports.ts';
import { access, readableRow, type FhirCall, type Params } from './reading.ts';
import type { ResourceDef } from './resource-def.ts';
import { RESOURCES, type StoredType } from './resources.ts';
import { MAX_COUNT, parseSearch, type SearchableDef, type SearchRequest } from './search-request.ts';
import type { FhirContext } from './fhir.ts';

/** What a patient's compartment holds in Medora, in the order $everything pages through it. */
export const COMPARTMENT_TYPES = ['Patient', 'Appointment', 'Encounter', 'Condition', 'Invoice'] as const satisfies readonly StoredType[];

/** $everything takes only the paging parameters. */
const EVERYTHING: SearchableDef = { type: 'Patient', params: [], isId: () => false };

/**
 * Patient/{id}/$everything: the patient and every resource of their compartment the actor may read (reception gets
 * no Conditions, a doctor no bills), one searchset paged across the types by a cursor `<type index>.<store cursor>`.
 * Reading another's is answered as missing and audited, as a read is.
 */
export async function patientEverything(deps: FhirDeps, input: FhirCall & { id: string; params: Params; strict: boolean }, actor: Actor): Promise<Bundle> {
  const compartment = await readableCompartment(deps, input, actor);
  const request = parseSearch(EVERYTHING, input.params, { strict: input.strict, ctx: compartment.ctx, timeZone: deps.timeZone });
  const page = await everythingPage(deps, compartment, input.id, request);
  await deps.audit.record({ actor, action: 'read_everything', entity: 'fhir_Patient', entityId: input.id, patientId: Number(input.id), requestId: actor.requestId, details: { results: page.resources.length } });
  return searchset({ base: input.base, type: `Patient/${input.id}/$everything`, ...page, params: input.params, ignored: request.ignored });
}

/** The same resources as $everything, one after another, for an NDJSON file; the export is audited once. */
export async function* exportPatient(deps: FhirDeps, input: FhirCall & { id: string }, actor: Actor): AsyncGenerator<Resource> {
  const compartment = await readableCompartment(deps, input, actor);
  await deps.audit.record({ actor, action: 'export', entity: 'fhir_Patient', entityId: input.id, patientId: Number(input.id), requestId: actor.requestId });
  let cursor: string | undefined;
  do {
    const page = await everythingPage(deps, compartment, input.id, { ...EXPORT_PAGE, cursor });
    yield* page.resources;
    cursor = page.next;
  } while (cursor !== undefined);
}

interface Compartment {
  ctx: FhirContext;
  /** The compartment's types the actor may read, each with the actor's scope in it. */
  types: { type: StoredType; scope: Scope }[];
}

async function readableCompartment(deps: FhirDeps, input: FhirCall & { id: string }, actor: Actor): Promise<Compartment> {
  const patient = await access(deps, { ...input, type: 'Patient' }, actor);
  await readableRow(deps, patient, input.id, actor);
  const types = COMPARTMENT_TYPES.flatMap((type) => {
    const scope = readableScope(type, actor);
    return scope ? [{ type, scope }] : [];
  });
  return { ctx: patient.ctx, types };
}

const EXPORT_PAGE: SearchRequest = { criteria: [], matchesNothing: false, count: MAX_COUNT, sort: { key: '_id', descending: false }, total: false, ignored: [] };

async function everythingPage(deps: FhirDeps, { ctx, types }: Compartment, id: string, request: SearchRequest): Promise<{ resources: Resource[]; next?: string; total?: number }> {
  const query = (type: StoredType, scope: Scope, count: number, cursor?: string): StoreQuery => ({
    criteria: [{ param: type === 'Patient' ? '_id' : 'patient', kind: 'in', values: [id] }],
    sort: { key: '_id', descending: false },
    count,
    cursor,
    total: false,
    scope,
  });
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
    const page = await deps.store.search(type, query(type, scope, remaining, i === startAt ? startCursor : undefined));
    resources.push(...page.rows.map((row) => (RESOURCES[type] as ResourceDef<unknown>).toFhir(row, ctx)));
    if (page.next !== undefined) next = `${i}.${page.next}`;
  }
  const total = request.total
    ? (await Promise.all(types.map(({ type, scope }) => deps.store.search(type, { ...query(type, scope, 0), total: true })))).reduce((sum, page) => sum + (page.total ?? 0), 0)
    : undefined;
  return { resources, next, total };
}

function readableScope(type: StoredType, actor: Actor): Scope | undefined {
  try {
    return scopeFor(type, actor);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'forbidden') return undefined;
    throw error;
  }
}

function everythingCursor(cursor: string | undefined, types: number): [number, string | undefined] {
  if (cursor === undefined) return [0, undefined];
  const m = /^(\d{1,2})\.(.*)$/.exec(cursor);
  if (!m || Number(m[1]) > types) throw invalid({ _cursor: ['is not a cursor this server made'] });
  return [Number(m[1]), m[2] || undefined];
}
