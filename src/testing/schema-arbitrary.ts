import fc from 'fast-check';
import type { Schema } from '../http/openapi/schema.ts';

/** Values that have answered 500 before, or that a careless parser trips on. */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\ud83d',
    '\u001b[31m',
    '\r\n',
    '%ZZ',
    '%',
    '../../etc/passwd',
    "'; drop table users; --",
    ' ',
    '',
    '2026-02-30',
    '24:61',
  ),
  fc.string({ unit: 'binary' }),
  fc.string({ minLength: 300, maxLength: 2000 }),
);
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 2147483647, 2147483648, -2147483649, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 0.5, 1e-9),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document: `valid` builds what a schema accepts (its
 * types, formats, patterns and bounds), `wrong` what it refuses (other types, lengths past its bounds, control
 * characters, huge numbers), `mixed` mostly the first with the second here and there, field by field.
 */
export class SchemaArbitraries {
  constructor(
    private readonly resolve: (ref: string) => Schema,
    /** Dates are drawn around this one (yyyy-MM-dd), where bookings and filters find something. */
    private readonly today: Date,
  ) {}

  valid(schema: Schema): fc.Arbitrary<unknown> {
    const s = this.deref(schema);
    if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf))
      return fc.oneof(...((s.anyOf ?? s.oneOf) as Schema[]).map((option) => this.valid(option)));
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    if ('const' in s) return fc.constant(s.const);
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string | undefined];
    return fc.oneof(...types.map((type) => this.validOfType(type, s)));
  }

  wrong(schema: Schema): fc.Arbitrary<unknown> {
    const s = this.deref(schema);
    const tooLong =
      typeof s.maxLength === 'number' ? [fc.string({ minLength: s.maxLength + 1, maxLength: s.maxLength + 40 })] : [];
    const outOfRange =
      typeof s.maximum === 'number' ? [fc.constant(s.maximum + 1), fc.constant(Number(s.minimum ?? 0) - 1)] : [];
    return fc.oneof(
      nastyText,
      nastyNumber,
      fc.constantFrom(null, true, false, [], {}, [1, 'a'], { nested: '\u0000' }),
      ...tooLong,
      ...outOfRange,
    );
  }

  mixed(schema: Schema): fc.Arbitrary<unknown> {
    const s = this.deref(schema);
    if (!isObjectWithProperties(s))
      return fc.oneof({ weight: 4, arbitrary: this.valid(s) }, { weight: 1, arbitrary: this.wrong(s) });
    return fc
      .tuple(
        // Now and then a required field is missing, or one the schema does not know is there.
        fc.oneof(
          { weight: 5, arbitrary: this.fields(s, (property) => this.mixed(property), true) },
          { weight: 1, arbitrary: this.fields(s, (property) => this.mixed(property), false) },
        ),
        fc.option(fc.dictionary(fc.string({ maxLength: 12 }), this.wrong({}), { maxKeys: 2 }), { freq: 6 }),
      )
      .map(([known, unknown]) => ({ ...unknown, ...known }));
  }

  private fields(
    s: Schema & { properties: Record<string, Schema> },
    field: (property: Schema) => fc.Arbitrary<unknown>,
    withRequired: boolean,
  ) {
    const fields = Object.fromEntries(Object.entries(s.properties).map(([name, property]) => [name, field(property)]));
    return fc.record(fields, { requiredKeys: withRequired ? ((s.required as string[] | undefined) ?? []) : [] });
  }

  private validOfType(type: string | undefined, s: Schema): fc.Arbitrary<unknown> {
    const min = typeof s.minimum === 'number' ? s.minimum : undefined;
    const max = typeof s.maximum === 'number' ? s.maximum : undefined;
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        // Ids and counts: mostly small, where the rows of a test's database are.
        const low = min ?? -10;
        return fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: low, max: Math.min(max ?? low + 30, low + 30) }) },
          fc.integer({ min: low, max: max ?? low + 1_000_000 }),
        );
      }
      case 'number':
        return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true });
      case 'string':
        return this.validString(s);
      case 'array':
        return fc.array(this.valid((s.items as Schema | undefined) ?? {}), {
          minLength: Number(s.minItems ?? 0),
          maxLength: Math.min(Number(s.maxItems ?? 4), 4),
        });
      case 'object':
        return isObjectWithProperties(s)
          ? this.fields(s, (property) => this.valid(property), true)
          : fc.dictionary(
              fc.string({ maxLength: 12 }),
              typeof s.additionalProperties === 'object'
                ? this.valid(s.additionalProperties as Schema)
                : fc.jsonValue({ maxDepth: 1 }),
              { maxKeys: 3 },
            );
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private validString(s: Schema): fc.Arbitrary<string> {
    if (s.format === 'date') return this.day().map((day) => day.toISOString().slice(0, 10));
    if (s.format === 'date-time') return this.day().map((day) => day.toISOString());
    if (s.format === 'email') return fc.stringMatching(/^[a-z]{1,12}\.[0-9]{1,4}@example\.test$/);
    if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern));
    const minLength = Number(s.minLength ?? 0);
    return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(Number(s.maxLength ?? 40), 40)) });
  }

  private day(): fc.Arbitrary<Date> {
    const DAY = 86_400_000;
    return fc.integer({ min: -90, max: 90 }).map((offset) => new Date(this.today.getTime() + offset * DAY));
  }

  private deref(schema: Schema): Schema {
    return typeof schema.$ref === 'string' ? this.deref(this.resolve(schema.$ref)) : schema;
  }
}

const isObjectWithProperties = (s: Schema): s is Schema & { properties: Record<string, Schema> } =>
  s.type === 'object' && typeof s.properties === 'object' && s.properties !== null;
