import assert from 'node:assert/strict';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { referencesIn } from '../domain/fhir/references.ts';
import { assertValidFhir } from './fhir-validate.ts';
import type { ApiAnswer, TestServer } from './http.ts';

/**
 * GETs under /fhir/R4 as a token's holder: every answer must be application/fhir+json and valid R4 (an
 * OperationOutcome for errors), so each FHIR test validates everything the API produces.
 */
export function fhirClient(server: TestServer) {
  const get = async <T extends Resource = Resource>(
    path: string,
    token?: string,
    headers: Record<string, string> = {},
  ): Promise<ApiAnswer<T>> => {
    const answer = await server.api<T>(
      'GET',
      path.startsWith('http') ? new URL(path).pathname + new URL(path).search : `/fhir/R4${path}`,
      { token, headers },
    );
    assert.match(
      answer.headers.get('content-type') ?? '',
      /^application\/fhir\+json/,
      `${path}: ${answer.status} ${JSON.stringify(answer.body)}`,
    );
    assertValidFhir(answer.body);
    if (answer.status >= 400) assert.equal(answer.body.resourceType, 'OperationOutcome');
    return answer;
  };

  /** Every page of a search, following `next`; the bundles in order. */
  const pages = async (path: string, token: string): Promise<Bundle[]> => {
    const bundles: Bundle[] = [];
    let next: string | undefined = path;
    while (next !== undefined) {
      const page: ApiAnswer<Bundle> = await get<Bundle>(next, token);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      bundles.push(page.body);
      next = page.body.link?.find((l) => l.relation === 'next')?.url;
      assert.ok(bundles.length <= 1000, 'the next links never end');
    }
    return bundles;
  };

  return { get, pages };
}

/** The resources a searchset matched (not its OperationOutcome). */
export const matches = <T extends Resource = Resource>(bundle: Bundle): T[] =>
  (bundle.entry ?? []).filter((e) => e.search?.mode === 'match').map((e) => e.resource as T);

export const idsOf = (bundle: Bundle) => matches(bundle).map((r) => r.id);

/**
 * Every reference in `resources` that does not resolve among them: a relative `Type/id` naming none of them, and any
 * other form (absolute, versioned, a contained `#id` with no such contained resource), which a self-contained set
 * never needs. What a self-contained set lacks; none when it is.
 */
export function danglingReferences(resources: readonly Resource[]): string[] {
  const present = new Set(resources.map((r) => `${r.resourceType}/${r.id}`));
  const dangling = new Set<string>();
  for (const resource of resources) {
    const relative = new Set(referencesIn(resource).map(({ type, id }) => `${type}/${id}`));
    const contained = new Set((('contained' in resource && resource.contained) || []).map((c) => `#${c.id}`));
    for (const reference of referenceValues(resource))
      if (relative.has(reference) ? !present.has(reference) : !contained.has(reference)) dangling.add(reference);
  }
  return [...dangling].sort();
}

/** Every `reference` string anywhere in a resource. */
function referenceValues(value: unknown, key?: string): string[] {
  if (typeof value === 'string') return key === 'reference' ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => referenceValues(item));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => referenceValues(v, k));
  return [];
}
