import type { Resource } from '@medplum/fhirtypes';
import type { Actor } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import { scopeFor, type Scope } from './access.ts';
import type { FhirContext } from './fhir.ts';
import type { FhirDeps } from './ports.ts';
import { rowsOf } from './reading.ts';
import { isFhirType, numericId, type FhirType, type ResourceDef } from './resource-def.ts';
import { RESOURCES } from './resources.ts';
import { MAX_COUNT, type Criterion, type SearchRequest } from './search-request.ts';
import { MAX_SLOT_DAYS } from './slot-window.ts';

/** The actor's scope in a type, or none when they may not read it at all. */
export function scopeIfReadable(type: FhirType, actor: Actor, at: Date): Scope | undefined {
  try {
    return scopeFor(type, actor, at);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'forbidden') return undefined;
    throw error;
  }
}

/** A row with the resource it maps to and the patient whose compartment it is in, if any. */
export interface Found {
  resource: Resource;
  patientId?: number;
}

const request = (criteria: Criterion[], count: number): SearchRequest => ({
  criteria,
  matchesNothing: false,
  count,
  sort: { key: '_id', descending: false },
  total: false,
  ignored: [],
});

const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Slot ids in runs whose dates span less than a Slot search allows at once. */
function slotWindows(ids: string[]): string[][] {
  const sorted = [...ids].sort((a, b) => a.slice(a.indexOf('-') + 1).localeCompare(b.slice(b.indexOf('-') + 1)));
  const runs: string[][] = [];
  for (const id of sorted) {
    const run = runs.at(-1);
    const first = run?.[0];
    const day = (slot: string) => Date.parse(slot.slice(slot.indexOf('-') + 1));
    if (run && first !== undefined && (day(id) - day(first)) / 86_400_000 < MAX_SLOT_DAYS && run.length < MAX_COUNT)
      run.push(id);
    else runs.push([id]);
  }
  return runs;
}

/**
 * The resources of `type` with these ids that the actor may read, each as the actor reads it: one the actor could
 * not read directly (another's, or a type refused them) is simply absent, never revealed.
 */
export async function readableByIds(
  deps: FhirDeps,
  actor: Actor,
  ctx: FhirContext,
  type: string,
  ids: readonly string[],
): Promise<Found[]> {
  if (!isFhirType(type)) return [];
  const def = RESOURCES[type] as ResourceDef<unknown>;
  const wanted = [...new Set(ids)].filter(def.isId);
  const scope = scopeIfReadable(type, actor, deps.clock.now());
  if (!scope || wanted.length === 0) return [];
  const runs = type === 'Slot' ? slotWindows(wanted) : chunks(wanted, MAX_COUNT);
  const found: Found[] = [];
  for (const run of runs) {
    const page = await rowsOf(deps, type, request([{ param: '_id', kind: 'in', values: run }], run.length), scope);
    for (const row of page.rows) found.push({ resource: def.toFhir(row, ctx), patientId: def.patientOf?.(row) });
  }
  return found;
}

/** The resources of `type` whose reference parameter `param` names one of `ids`, as far as the actor may read them. */
export async function readableReferring(
  deps: FhirDeps,
  actor: Actor,
  ctx: FhirContext,
  type: FhirType,
  param: string,
  ids: readonly string[],
): Promise<Found[]> {
  const def = RESOURCES[type] as ResourceDef<unknown>;
  const scope = scopeIfReadable(type, actor, deps.clock.now());
  if (!scope || ids.length === 0) return [];
  const found: Found[] = [];
  // A reference parameter names rows by their numeric ids (search-request.ts reads no other kind).
  for (const run of chunks([...new Set(ids)].filter(numericId), MAX_COUNT)) {
    const page = await rowsOf(deps, type, request([{ param, kind: 'in', values: run }], MAX_COUNT), scope);
    for (const row of page.rows) found.push({ resource: def.toFhir(row, ctx), patientId: def.patientOf?.(row) });
  }
  return found;
}
