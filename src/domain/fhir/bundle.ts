import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import { ignoredOutcome } from './outcome.ts';

export interface SearchsetPage {
  base: string;
  type: string;
  resources: Resource[];
  /** What the matches refer to (or are referred by) that the query asked to have alongside them. */
  included?: Resource[];
  /** The query as asked, for the self link. */
  params: readonly (readonly [string, string])[];
  next?: string;
  total?: number;
  ignored: string[];
}

const link = (base: string, type: string, params: readonly (readonly [string, string])[]) => {
  const query = new URLSearchParams(params.map(([k, v]) => [k, v])).toString();
  return `${base}/${type}${query ? `?${query}` : ''}`;
};

/** A searchset: each match with its fullUrl, the total when counted, `next` carrying the keyset cursor. */
export function searchset(page: SearchsetPage): Bundle {
  const entries: BundleEntry[] = page.resources.map((resource) => ({
    fullUrl: `${page.base}/${resource.resourceType}/${resource.id}`,
    resource,
    search: { mode: 'match' },
  }));
  for (const resource of page.included ?? [])
    entries.push({
      fullUrl: `${page.base}/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: 'include' },
    });
  if (page.ignored.length) entries.push({ resource: ignoredOutcome(page.ignored), search: { mode: 'outcome' } });
  const links = [{ relation: 'self', url: link(page.base, page.type, page.params) }];
  if (page.next !== undefined) {
    const rest = page.params.filter(([name]) => name !== '_cursor');
    links.push({ relation: 'next', url: link(page.base, page.type, [...rest, ['_cursor', page.next]]) });
  }
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    ...(page.total === undefined ? {} : { total: page.total }),
    link: links,
    ...(entries.length ? { entry: entries } : {}),
  };
}
