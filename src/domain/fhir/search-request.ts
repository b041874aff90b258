import { invalid } from '../shared/errors.ts';
import { dateRange, type InstantRange } from './date-param.ts';
import type { FhirContext } from './fhir.ts';
import { numericId, type ResourceDef, type SearchParamDef, type TokenValue } from './resource-def.ts';

/** One condition on the stored rows, named by its search parameter; the adapter knows each one's column. */
export type Criterion =
  | { param: string; kind: 'in'; values: string[] }
  | { param: string; kind: 'prefix'; values: string[] }
  | ({ param: string; kind: 'range' } & InstantRange);

export interface SortOrder {
  /** `_id`, `_lastUpdated` or the type's date parameter. */
  key: string;
  descending: boolean;
}

export interface SearchRequest {
  criteria: Criterion[];
  /** Some criterion can match no stored row (an unknown code, a malformed id): the answer is empty without asking. */
  matchesNothing: boolean;
  count: number;
  sort: SortOrder;
  total: boolean;
  /** The adapter's keyset cursor from a `next` link. */
  cursor?: string;
  /** What was ignored and why, for the searchset's OperationOutcome. */
  ignored: string[];
}

/** What reading a query needs of a resource type. */
export type SearchableDef = Pick<ResourceDef<unknown>, 'type' | 'params' | 'sortDate' | 'isId'>;

export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 500;
/** The parameters that shape the result rather than select rows (`_cursor` is Medora's own, in `next` links). */
export const RESULT_PARAMS = ['_count', '_sort', '_total', '_cursor', '_format'] as const;

/**
 * A search's query string read against the type's parameters. A parameter Medora does not support is ignored and
 * named in `ignored` — or, when the client asked for `Prefer: handling=strict`, refused (FHIR R4 §3.1.1.4).
 * A supported parameter with a malformed value is always refused.
 */
export function parseSearch(
  def: SearchableDef,
  params: readonly (readonly [string, string])[],
  opts: { strict: boolean; ctx: Pick<FhirContext, 'base'>; timeZone: string },
): SearchRequest {
  const request: SearchRequest = {
    criteria: [],
    matchesNothing: false,
    count: DEFAULT_COUNT,
    sort: { key: '_id', descending: false },
    total: true,
    ignored: [],
  };
  const ignore = (name: string, why: string) => {
    if (opts.strict) throw invalid({ [name]: [why] }, `${name}: ${why}`);
    request.ignored.push(`${name}: ${why}`);
  };
  for (const [name, value] of params) {
    if (value === '') continue;
    const param = def.params.find((p) => p.name === name);
    if (param) {
      const criterion = criterionOf(def, param, value, opts);
      if (criterion.kind !== 'range' && criterion.values.length === 0) request.matchesNothing = true;
      request.criteria.push(criterion);
    } else if (name === '_count') {
      if (!/^\d{1,4}$/.test(value) || Number(value) > MAX_COUNT)
        throw invalid({ _count: [`must be a whole number from 0 to ${MAX_COUNT}`] });
      request.count = Number(value);
    } else if (name === '_sort') {
      const descending = value.startsWith('-');
      const key = descending ? value.slice(1) : value;
      if (key === '_id' || key === def.sortDate || (key === '_lastUpdated' && def.params.some((p) => p.name === key)))
        request.sort = { key, descending };
      else ignore(name, `sorting by "${value}" is not supported; sorted by _id`);
    } else if (name === '_total') {
      if (!['none', 'estimate', 'accurate'].includes(value))
        throw invalid({ _total: ['must be none, estimate or accurate'] });
      request.total = value !== 'none';
    } else if (name === '_cursor') {
      request.cursor = value;
    } else if (name === '_format') {
      if (!/^(json|application\/(fhir\+)?json)$/.test(value)) ignore(name, 'only JSON is served');
    } else {
      ignore(name, `the parameter is not supported for ${def.type}`);
    }
  }
  return request;
}

function criterionOf(
  def: SearchableDef,
  param: SearchParamDef,
  value: string,
  opts: { ctx: Pick<FhirContext, 'base'>; timeZone: string },
): Criterion {
  const name = param.name;
  const values = value.split(',');
  switch (param.type) {
    case 'date':
      if (values.length > 1) throw invalid({ [name]: ['takes one date; repeat the parameter for a range'] });
      return { param: name, kind: 'range', ...dateRange(name, value, opts.timeZone) };
    case 'string':
      return { param: name, kind: 'prefix', values: values.map((v) => v.toLowerCase()) };
    case 'reference':
      return { param: name, kind: 'in', values: values.flatMap((v) => referencedId(param, v)) };
    case 'token': {
      const tokens = values.map(token);
      if (name === '_id')
        return {
          param: name,
          kind: 'in',
          values: tokens.filter((t) => t.system === undefined && def.isId(t.code)).map((t) => t.code),
        };
      return {
        param: name,
        kind: 'in',
        values: [...new Set(tokens.flatMap((t) => param.stored?.(t, opts.ctx) ?? []))],
      };
    }
  }
}

/** `system|code`, `|code` (no system) or `code` (any system). */
function token(value: string): TokenValue {
  const bar = value.indexOf('|');
  if (bar < 0) return { code: value };
  return { system: bar === 0 ? '' : value.slice(0, bar), code: value.slice(bar + 1) };
}

/** `123`, `Patient/123` or `https://…/Patient/123`: the id, when it can name a row of the parameter's target. */
function referencedId(param: SearchParamDef, value: string): string[] {
  const parts = value.split('/');
  const id = parts.at(-1) ?? '';
  const type = parts.length > 1 ? parts.at(-2) : param.target;
  if (type !== param.target) throw invalid({ [param.name]: [`refers to ${param.target} only`] });
  return numericId(id) ? [id] : [];
}
