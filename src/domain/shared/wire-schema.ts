import Type, {
  type Static,
  type TArray,
  type TBoolean,
  type TInteger,
  type TNull,
  type TNumber,
  type TObject,
  type TOptional,
  type TSchema,
  type TString,
  type TUnion,
  type TUnsafe,
} from 'typebox';

/**
 * The wire's one description (docs/architecture.md "The wire contract"): TypeBox schemas, so each shape is at once
 * JSON Schema 2020-12 for the OpenAPI document, a static type (`Static<typeof Shape>`) for the server and the UI,
 * and what `readFields` (read-fields.ts) checks a request against. Every object is closed (`additionalProperties:
 * false`, every property required unless named optional), so an answer with a renamed, missing or extra field
 * fails the contract test.
 */
export type Schema = TSchema;
export type ObjectShape = TObject;
export type { Static };

/** A schema read keyword by keyword, as the request reader and the document's walkers read it. */
export interface JsonSchema {
  [keyword: string | symbol]: unknown;
}

/** A TypeBox schema is a plain JSON Schema object: its keywords, to read. */
export const keywords = (schema: TSchema): JsonSchema => schema as JsonSchema;

type Options = Record<string, unknown>;
const describe = (description?: string): Options => (description ? { description } : {});

export const string = (extra: Options = {}): TString => Type.String(extra);
export const integer = (extra: Options = {}): TInteger => Type.Integer(extra);
export const number = (extra: Options = {}): TNumber => Type.Number(extra);
export const boolean = (extra: Options = {}): TBoolean => Type.Boolean(extra);
export const id = (description?: string): TInteger =>
  integer({ minimum: 1, maximum: 2147483647, ...describe(description) });
export const date = (description?: string): TString => string({ format: 'date', ...describe(description) });
/** HH:mm, as `Validator.time` reads it. */
export const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
export const time = (description?: string): TString => string({ pattern: TIME_PATTERN, ...describe(description) });
export const dateTime = (description?: string): TString => string({ format: 'date-time', ...describe(description) });
export const email = (extra: Options = {}): TString => string({ format: 'email', ...extra });
export const uri = (): TString => string({ format: 'uri-reference' });
export const array = <Items extends TSchema>(items: Items, extra: Options = {}): TArray<Items> =>
  Type.Array(items, extra);
/** A field that is null for now (a walk-in's e-mail before it is confirmed). */
export const alwaysNull = (description?: string): TNull => Type.Null(describe(description));
export const nullable = <S extends TSchema>(schema: S): TUnion<[S, TNull]> => Type.Union([schema, Type.Null()]);
export const anyOf = <const Schemas extends TSchema[]>(...schemas: Schemas): TUnion<Schemas> =>
  Type.Union(schemas) as TUnion<Schemas>;

/** A JSON object of any fields (what an audit entry's details hold). */
export const anyObject = (description?: string): TUnsafe<Record<string, unknown>> =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', ...describe(description) });

/** One of a few values, written as JSON Schema's `enum`; its type is their union. */
export const oneOfValues = <const Value extends string | number>(
  values: readonly Value[],
  description?: string,
): TUnsafe<Value> => Type.Unsafe<Value>({ enum: [...values], ...describe(description) });

/** How a request's text is read (read-fields.ts); the document does not carry it. */
export const TEXT_RULE = Symbol('text rule');
export type TextRule = 'line' | 'untrimmed';

/**
 * Request text, trimmed and without control characters but tabs and line breaks; `line`: a name, one line without
 * them; `untrimmed`: exactly as typed (a password). `min: 0` for an optional one that may be sent blank.
 */
export const text = (
  max: number,
  { rule, min = 1, description }: { rule?: TextRule; min?: number; description?: string } = {},
): TString =>
  string({
    ...(min > 0 ? { minLength: min } : {}),
    maxLength: max,
    ...describe(description),
    ...(rule ? { [TEXT_RULE]: rule } : {}),
  });

/** How a request's field is refused when its problems are told in one message of its own (read-fields.ts). */
export const MESSAGE_RULE = Symbol('message rule');

/**
 * A request field refused with `message` whatever is wrong with it (a count of nights read as an id would say
 * "must be a valid id"); the document does not carry it.
 */
export const refusedAs = <S extends TSchema>(schema: S, message: string): S =>
  Object.assign(schema, { [MESSAGE_RULE]: message });

/** How a request's amount of money is read (read-fields.ts): its largest value in cents, and whether 0 is one. */
export const AMOUNT_RULE = Symbol('amount rule');
export interface AmountRule {
  maxCents: number;
  zero: boolean;
}

/**
 * An amount of money as a request gives it: dollars with at most two decimals, as text ("12.50") or a number, at
 * most `maxCents`, positive unless `zero` (a free visit). `readFields` reads it as `Validator.amount` does and
 * gives it as a decimal with two places ("12.50"), which `parseCents` turns into cents.
 */
export const amount = (
  maxCents: number,
  { zero = false, description }: { zero?: boolean; description?: string } = {},
): TUnsafe<string> => {
  const rule: AmountRule = { maxCents, zero };
  return Type.Unsafe<string>(
    Type.Union(
      [
        string({ pattern: '^[0-9]{1,9}(\\.[0-9]{1,2})?$' }),
        number({ ...(zero ? { minimum: 0 } : { exclusiveMinimum: 0 }), maximum: maxCents / 100 }),
      ],
      { ...describe(description), [AMOUNT_RULE]: rule },
    ),
  );
};

type Closed<Properties extends Record<string, TSchema>, Optional extends keyof Properties> = {
  [Name in keyof Properties]: Name extends Optional ? TOptional<Properties[Name]> : Properties[Name];
};

/** A closed object: every property required except those named in `optional`. */
export function object<Properties extends Record<string, TSchema>, Optional extends string = never>(
  properties: Properties,
  { optional = [], description }: { optional?: readonly Optional[]; description?: string } = {},
): TObject<Closed<Properties, Optional>> {
  const unknown = optional.filter((name) => !(name in properties));
  if (unknown.length > 0) throw new Error(`optional names no property: ${unknown.join(', ')}`);
  const marked = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [
      name,
      (optional as readonly string[]).includes(name) ? Type.Optional(schema) : schema,
    ]),
  );
  // Type.Object builds what `Closed` says: the optional ones wrapped, the others as given.
  return Type.Object(marked, { additionalProperties: false, ...describe(description) }) as TObject<
    Closed<Properties, Optional>
  >;
}

/** A request's query: every parameter optional, read by `readFields` like a body. */
export function queryOf<Properties extends Record<string, TSchema>>(
  properties: Properties,
): TObject<Closed<Properties, keyof Properties & string>> {
  return object(properties, { optional: Object.keys(properties) as (keyof Properties & string)[] });
}

/** The properties of an object shape, to spread into another: a query's beside the page parameters. */
export const propertiesOf = <Properties extends Record<string, TSchema>>(shape: TObject<Properties>): Properties =>
  shape.properties;

/** Whether a schema is an object shape (`object`, `queryOf`) rather than a record of parameters. */
export const isObjectShape = (schema: unknown): schema is TObject => Type.IsObject(schema);

/** The API's one list shape (docs/api.md "Lists"): a page of items under their own name and the counts. */
export function listOf<const Name extends string, Items extends TSchema>(name: Name, items: Items) {
  const counts = {
    total: integer({ minimum: 0 }),
    total_is_lower_bound: boolean(),
    page: integer({ minimum: 1 }),
    per_page: integer({ minimum: 1 }),
  };
  return object({ [name]: array(items), ...counts } as { [Key in Name]: TArray<Items> } & typeof counts);
}

const componentNames = new WeakMap<TSchema, string>();
const refTargets = new WeakMap<TSchema, TSchema>();

/** A shape the document lists once under `components.schemas[name]`; `ref(shape)` refers to it there. */
export function component<S extends TSchema>(name: string, schema: S): S {
  componentNames.set(schema, name);
  return schema;
}

export const componentName = (schema: TSchema): string | undefined => componentNames.get(schema);

/** Where a `ref(shape)` keeps its shape: a symbol survives the copy `Type.Optional` makes, a WeakMap key does not. */
const REF_TARGET = Symbol('ref target');

/** The shape a `ref(shape)` stands for, so a request can be checked through it (an optional field's too). */
export const refTarget = (schema: TSchema): TSchema | undefined =>
  refTargets.get(schema) ?? (keywords(schema)[REF_TARGET] as TSchema | undefined);

/** `#/components/schemas/<name>`: of a `component(…)` shape, typed as it; by name only, untyped. */
export function ref<S extends TSchema>(target: S): TUnsafe<Static<S>>;
export function ref(target: string): TUnsafe<unknown>;
export function ref(target: TSchema | string): TSchema {
  const name = typeof target === 'string' ? target : componentNames.get(target);
  if (name === undefined) throw new Error('ref() of a shape that is not a component');
  const schema = Type.Unsafe({
    $ref: `#/components/schemas/${name}`,
    ...(typeof target === 'string' ? {} : { [REF_TARGET]: target }),
  });
  if (typeof target !== 'string') refTargets.set(schema, target);
  return schema;
}
