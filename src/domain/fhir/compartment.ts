import type { Actor } from '../shared/actor.ts';
import { invalid } from '../shared/errors.ts';
import type { Scope } from './access.ts';
import { scopeIfReadable } from './by-ids.ts';
import { dateRange, type InstantRange } from './date-param.ts';
import type { FhirContext } from './fhir.ts';
import type { FhirDeps, StoreQuery } from './ports.ts';
import { access, readableRow, type FhirCall, type Params } from './reading.ts';
import { REFERENCED_TYPES } from './referenced.ts';
import { RESOURCES, type StoredType } from './resources.ts';
import type { Criterion } from './search-request.ts';

/**
 * What a patient's compartment holds in Medora, in the order $everything pages through it, with the beds their stays
 * were in (Locations are no compartment's, but a stay's location history means little without them).
 */
export const COMPARTMENT_TYPES = [
  'Patient',
  'Appointment',
  'Encounter',
  'Location',
  'Condition',
  'Invoice',
  'ServiceRequest',
  'Specimen',
  'Observation',
  'DiagnosticReport',
  'MedicationRequest',
  'MedicationAdministration',
  'AllergyIntolerance',
] as const satisfies readonly StoredType[];

/** Patient-everything's (and Bulk Data's) parameters that select part of the compartment. */
const FILTER_PARAMS = ['_type', '_since', 'start', 'end'] as const;
export const isFilterParam = (name: string) => (FILTER_PARAMS as readonly string[]).includes(name);

/** What of the compartment is asked for; the empty filter is all of it. */
export interface CompartmentFilter {
  /** `_type`: the types named (of the compartment's and those it refers to), or every type when none were. */
  types?: ReadonlySet<string>;
  /** `_since`: changed (meta.lastUpdated) at or after. */
  since?: Date;
  /** `start` and `end`: the care dates a type's clinical date (its `sortDate`) must lie in; the rest have none. */
  care: Pick<InstantRange, 'gte' | 'lt'>;
}

export interface Compartment {
  ctx: FhirContext;
  /** The compartment's types the actor may read, each with the actor's scope in it. */
  types: { type: StoredType; scope: Scope }[];
}

/** Patient `id`'s compartment as the actor may read it; another's is answered as missing and audited, as a read is. */
export async function readableCompartment(
  deps: FhirDeps,
  input: FhirCall & { id: string },
  actor: Actor,
): Promise<Compartment> {
  const patient = await access(deps, { ...input, type: 'Patient' }, actor);
  await readableRow(deps, patient, input.id, actor);
  const types = COMPARTMENT_TYPES.flatMap((type) => {
    const scope = scopeIfReadable(type, actor, deps.clock.now());
    return scope ? [{ type, scope }] : [];
  });
  return { ctx: patient.ctx, types };
}

/** The compartment with only the types the filter names, in the compartment's order. */
export const filtered = (compartment: Compartment, filter: CompartmentFilter): Compartment => ({
  ...compartment,
  types: compartment.types.filter(({ type }) => filter.types?.has(type) ?? true),
});

/** One compartment type's rows of patient `id` the filter selects, in id order. */
export const compartmentQuery = (
  type: StoredType,
  id: string,
  scope: Scope,
  filter: CompartmentFilter,
  count: number,
  cursor?: string,
): StoreQuery => ({
  criteria: [
    { param: type === 'Patient' ? '_id' : 'patient', kind: 'in', values: [id] },
    ...filterCriteria(type, filter),
  ],
  sort: { key: '_id', descending: false },
  count,
  cursor,
  total: false,
  scope,
});

function filterCriteria(type: StoredType, { since, care }: CompartmentFilter): Criterion[] {
  const sortDate = RESOURCES[type].sortDate;
  const criteria: Criterion[] = [];
  if (since) criteria.push({ param: '_lastUpdated', kind: 'range', gte: since, negate: false });
  if (sortDate && (care.gte || care.lt)) criteria.push({ param: sortDate, kind: 'range', ...care, negate: false });
  return criteria;
}

/**
 * `_type` (comma-separated, repeatable), `_since` (an instant; a date is its first moment) and `start`/`end` (dates,
 * both days included) from a query; the other parameters are the caller's. A value not understood is refused.
 */
export function parseCompartmentFilter(params: Params, timeZone: string): CompartmentFilter {
  const valuesOf = (name: (typeof FILTER_PARAMS)[number]) =>
    params.filter(([n, v]) => n === name && v !== '').map(([, v]) => v);
  return {
    types: typesNamed(valuesOf('_type')),
    since: oneDate('_since', valuesOf('_since'), timeZone)?.gte,
    care: {
      gte: oneDate('start', valuesOf('start'), timeZone)?.gte,
      lt: oneDate('end', valuesOf('end'), timeZone)?.lt,
    },
  };
}

/** The types `_type` may name: the compartment's and those it refers to. */
export const EXPORTED_TYPES: readonly string[] = [...new Set<string>([...COMPARTMENT_TYPES, ...REFERENCED_TYPES])];

function typesNamed(values: string[]): ReadonlySet<string> | undefined {
  if (values.length === 0) return undefined;
  const names = values.flatMap((v) => v.split(','));
  const unknown = names.find((name) => !EXPORTED_TYPES.includes(name));
  if (unknown !== undefined)
    throw invalid({ _type: [`"${unknown}" is not one of a patient's types here: ${EXPORTED_TYPES.join(', ')}`] });
  return new Set(names);
}

/** The one date a parameter takes, as the instants it spans; a search prefix makes no sense here. */
function oneDate(name: string, values: string[], timeZone: string): InstantRange | undefined {
  if (values.length > 1) throw invalid({ [name]: ['takes one date'] });
  const [value] = values;
  if (value === undefined) return undefined;
  if (!/^\d/.test(value)) throw invalid({ [name]: [`"${value}" is not a date (it takes no prefix)`] });
  return dateRange(name, value, timeZone);
}
