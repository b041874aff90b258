import type { Bundle, CapabilityStatement, Resource } from '@medplum/fhirtypes';
import type { Actor } from '../shared/actor.ts';
import { searchset } from './bundle.ts';
import { capabilityStatement } from './capability-statement.ts';
import type { FhirDeps } from './ports.ts';
import { access, clinicalReads, readableRow, rowsOf, type FhirCall, type Params } from './reading.ts';
import { included, parseIncludes } from './includes.ts';
import { parseSearch } from './search-request.ts';

/** The CapabilityStatement of what is implemented; anyone may ask (FHIR R4 §3.1.0.9). */
export function capabilities(deps: FhirDeps, call: Pick<FhirCall, 'base'>): CapabilityStatement {
  return capabilityStatement({ base: call.base, clinicName: deps.clinic.name }, deps.clock.now());
}

/** One resource by type and id, if the actor may read it; another's is answered as missing, and both are audited. */
export async function readResource(
  deps: FhirDeps,
  input: FhirCall & { type: string; id: string },
  actor: Actor,
): Promise<Resource> {
  const reading = await access(deps, input, actor);
  const row = await readableRow(deps, reading, input.id, actor);
  const { type, def, ctx } = reading;
  const patientId = def.patientOf?.(row);
  const read = {
    actor,
    action: 'read',
    entity: `fhir_${type}`,
    entityId: input.id,
    patientId: patientId ?? null,
    requestId: actor.requestId,
  };
  const clinical = patientId === undefined ? [] : await clinicalReads(deps, actor, [{ ...read, patientId }]);
  await deps.audit.record(...(clinical.length > 0 ? clinical : [read]));
  return def.toFhir(row, ctx);
}

/** A searchset of what the actor may read, paged by the store's keyset cursor; each search is audited with its query. */
export async function searchResources(
  deps: FhirDeps,
  input: FhirCall & { type: string; params: Params; strict: boolean },
  actor: Actor,
): Promise<Bundle> {
  const { type, def, scope, ctx } = await access(deps, input, actor);
  const includes = parseIncludes(type, input.params, input.strict);
  const request = parseSearch(def, includes.rest, { strict: input.strict, ctx, timeZone: deps.timeZone });
  const page = await rowsOf(deps, type, request, scope);
  const resources = page.rows.map((row) => def.toFhir(row, ctx));
  const extra = await included(deps, actor, ctx, resources, includes);
  // Each patient whose record the page shows is a clinical read of theirs, one row each, in the search's statement.
  const patients = [
    ...new Set([
      ...(def.patientOf ? page.rows.map((row) => def.patientOf?.(row) as number) : []),
      ...extra.flatMap((f) => (f.patientId === undefined ? [] : [f.patientId])),
    ]),
  ];
  const reads = await clinicalReads(
    deps,
    actor,
    patients.map((patientId) => ({ patientId, action: 'list_read', entity: `fhir_${type}` })),
  );
  await deps.audit.record(...reads, {
    actor,
    action: 'list',
    entity: `fhir_${type}`,
    patientId: scope.kind === 'patient' ? scope.patientId : null,
    requestId: actor.requestId,
    details: { query: new URLSearchParams(input.params.map(([k, v]) => [k, v])).toString(), results: page.rows.length },
  });
  return searchset({
    base: input.base,
    type,
    resources,
    included: extra.map((f) => f.resource),
    params: input.params,
    next: page.next,
    total: request.total ? page.total : undefined,
    ignored: [...includes.ignored, ...request.ignored],
  });
}
