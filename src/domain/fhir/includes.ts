import type { Resource } from '@medplum/fhirtypes';
import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import { readableByIds, readableReferring, type Found } from './by-ids.ts';
import type { FhirContext } from './fhir.ts';
import type { FhirDeps } from './ports.ts';
import type { Params } from './reading.ts';
import { referencesIn } from './references.ts';
import type { FhirType } from './resource-def.ts';
import { RESOURCES } from './resources.ts';

/**
 * One `_include` value `<source>:<param>` and, where `param` is a reference search parameter of `source`, the
 * `_revinclude` of the same name: the `target` resources a `source` refers to. A new pair is one entry.
 */
export interface IncludeDef {
  source: FhirType;
  param: string;
  target: FhirType;
}

export const INCLUDES: readonly IncludeDef[] = [
  { source: 'Appointment', param: 'patient', target: 'Patient' },
  { source: 'Appointment', param: 'practitioner', target: 'Practitioner' },
  { source: 'Appointment', param: 'location', target: 'Location' },
  { source: 'Encounter', param: 'patient', target: 'Patient' },
  { source: 'Encounter', param: 'subject', target: 'Patient' },
  { source: 'Encounter', param: 'practitioner', target: 'Practitioner' },
  { source: 'Encounter', param: 'location', target: 'Location' },
  { source: 'Observation', param: 'patient', target: 'Patient' },
  { source: 'DiagnosticReport', param: 'patient', target: 'Patient' },
  { source: 'DiagnosticReport', param: 'result', target: 'Observation' },
  { source: 'MedicationRequest', param: 'medication', target: 'Medication' },
];

const nameOf = (def: IncludeDef) => `${def.source}:${def.param}`;

/** Whether `_revinclude` can find the sources by the parameter: it must be one of the source's reference parameters. */
const searchable = (def: IncludeDef) =>
  RESOURCES[def.source].params.some((p) => p.name === def.param && p.type === 'reference' && p.target === def.target);

/** The `_include` values a search of `type` takes, and the `_revinclude` values, for the CapabilityStatement too. */
export const includesOf = (type: FhirType) => INCLUDES.filter((def) => def.source === type).map(nameOf);
export const revIncludesOf = (type: FhirType) =>
  INCLUDES.filter((def) => def.target === type && searchable(def)).map(nameOf);

export interface IncludeRequest {
  includes: IncludeDef[];
  revIncludes: IncludeDef[];
  /** The query without `_include` and `_revinclude`, for the search itself. */
  rest: Params;
  ignored: string[];
}

/** `_include` and `_revinclude` of a search of `type`; one not supported is ignored, or refused when strict. */
export function parseIncludes(type: FhirType, params: Params, strict: boolean): IncludeRequest {
  const rest: [string, string][] = [];
  const request: IncludeRequest = { includes: [], revIncludes: [], rest, ignored: [] };
  for (const [name, value] of params) {
    if (name !== '_include' && name !== '_revinclude') {
      rest.push([name, value]);
      continue;
    }
    const found = INCLUDES.find(
      (def) =>
        (nameOf(def) === value || `${nameOf(def)}:${def.target}` === value) &&
        (name === '_include' ? def.source === type : def.target === type && searchable(def)),
    );
    if (found) (name === '_include' ? request.includes : request.revIncludes).push(found);
    else {
      const supported = name === '_include' ? includesOf(type) : revIncludesOf(type);
      const why = `"${value}" is not supported for ${type}${supported.length ? ` (${supported.join(', ')} are)` : ''}`;
      if (strict) throw invalid({ [name]: [why] }, `${name}: ${why}`);
      request.ignored.push(`${name}: ${why}`);
    }
  }
  return request;
}

/**
 * The resources the matches refer to (`_include`) or are referred to by (`_revinclude`), each read as the actor may
 * read it directly: an include never shows what a search or read of its own would not. None of the matches twice.
 */
export async function included(
  deps: FhirDeps,
  actor: Actor,
  ctx: FhirContext,
  matches: readonly Resource[],
  request: IncludeRequest,
): Promise<Found[]> {
  const seen = new Set(matches.map((r) => `${r.resourceType}/${r.id}`));
  const found: Found[] = [];
  const add = (items: Found[]) => {
    for (const item of items) {
      const key = `${item.resource.resourceType}/${item.resource.id}`;
      if (!seen.has(key)) found.push(item);
      seen.add(key);
    }
  };
  for (const def of request.includes) {
    const ids = matches.flatMap((r) => referencesIn(r).flatMap((ref) => (ref.type === def.target ? [ref.id] : [])));
    add(await readableByIds(deps, actor, ctx, def.target, ids));
  }
  for (const def of request.revIncludes) {
    const ids = matches.flatMap((r) => (r.id === undefined ? [] : [r.id]));
    add(await readableReferring(deps, actor, ctx, def.source, def.param, ids));
  }
  return found;
}
