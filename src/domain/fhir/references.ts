import type { Resource } from '@medplum/fhirtypes';

/** A relative reference `Type/id` taken apart. */
export interface RefKey {
  type: string;
  id: string;
}

export const keyOf = (type: string, id: string) => `${type}/${id}`;

const RELATIVE = /^([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/;

/** Every relative reference (`Type/id`) anywhere in a resource, in the order they appear. */
export function referencesIn(resource: Resource): RefKey[] {
  const found: RefKey[] = [];
  const walk = (value: unknown, key?: string) => {
    if (typeof value === 'string') {
      const m = key === 'reference' ? RELATIVE.exec(value) : null;
      if (m?.[1] && m[2]) found.push({ type: m[1], id: m[2] });
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(resource);
  return found;
}
