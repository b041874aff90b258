/**
 * JSON Schema 2020-12 written once for the OpenAPI document: these few builders keep the paths files short and
 * every object closed (`additionalProperties: false`, every property required unless named optional), so an answer
 * with a renamed, missing or extra field fails the contract test.
 */
export interface Schema {
  [keyword: string]: unknown;
}

export const string = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const integer = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
export const number = (extra: Schema = {}): Schema => ({ type: 'number', ...extra });
export const boolean = (extra: Schema = {}): Schema => ({ type: 'boolean', ...extra });
export const id = (description?: string): Schema =>
  integer({ minimum: 1, maximum: 2147483647, ...(description ? { description } : {}) });
export const date = (description?: string): Schema =>
  string({ format: 'date', ...(description ? { description } : {}) });
export const time = (description?: string): Schema =>
  string({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', ...(description ? { description } : {}) });
export const dateTime = (description?: string): Schema =>
  string({ format: 'date-time', ...(description ? { description } : {}) });
export const email = (): Schema => string({ format: 'email' });
export const uri = (): Schema => string({ format: 'uri-reference' });
export const oneOfValues = (values: readonly (string | number)[], description?: string): Schema => ({
  enum: [...values],
  ...(description ? { description } : {}),
});
export const array = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const anyOf = (...schemas: Schema[]): Schema => ({ anyOf: schemas });

/** A closed object: every property required except those named in `optional`. */
export function object(
  properties: Record<string, Schema>,
  { optional = [], description }: { optional?: string[]; description?: string } = {},
): Schema {
  const required = Object.keys(properties).filter((name) => !optional.includes(name));
  return { type: 'object', properties, required, additionalProperties: false, ...(description ? { description } : {}) };
}

/** The API's one list shape (docs/api.md "Lists"): a page of items under their own name and the counts. */
export function listOf(name: string, items: Schema): Schema {
  return object({
    [name]: array(items),
    total: integer({ minimum: 0 }),
    total_is_lower_bound: boolean(),
    page: integer({ minimum: 1 }),
    per_page: integer({ minimum: 1 }),
  });
}
