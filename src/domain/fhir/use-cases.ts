import type { Bundle, CapabilityStatement, Resource } from '@medplum/fhirtypes';
import type { Actor } from '../shared/actor.ts';
import { searchset } from './bundle.ts';
import { capabilityStatement } from './capability-statement.ts';
import type { FhirDeps } from './ports.ts';
import { access, readableRow, rowsOf, type FhirCall, type Params } from './reading.ts';
import { parseSearch } from './search-request.ts';

/** The CapabilityStatement of what is implemented; anyone may ask (FHIR R4 §3.1.0.9). */
export function capabilities(deps: FhirDeps, call: FhirCall): CapabilityStatement {
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
  await deps.audit.record({
    actor,
    action: 'read',
    entity: `fhir_${type}`,
    entityId: input.id,
    patientId: def.patientOf?.(row) ?? null,
    requestId: actor.requestId,
  });
  return def.toFhir(row, ctx);
}

/** A searchset of what the actor may read, paged by the store's keyset cursor; each search is audited with its query. */
export async function searchResources(
  deps: FhirDeps,
  input: FhirCall & { type: string; params: Params; strict: boolean },
  actor: Actor,
): Promise<Bundle> {
  const { type, def, scope, ctx } = await access(deps, input, actor);
  const request = parseSearch(def, input.params, { strict: input.strict, ctx, timeZone: deps.timeZone });
  const page = await rowsOf(deps, type, request, scope);
  await deps.audit.record({
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
    resources: page.rows.map((row) => def.toFhir(row, ctx)),
    params: input.params,
    next: page.next,
    total: request.total ? page.total : undefined,
    ignored: request.ignored,
  });
}
