import type { Static, TObject, TSchema } from 'typebox';
import { centsToDecimal } from './money.ts';
import { Validator, asRecord } from './validate.ts';
import {
  AMOUNT_RULE,
  MESSAGE_RULE,
  TEXT_RULE,
  type AmountRule,
  TIME_PATTERN,
  keywords,
  refTarget,
  type JsonSchema,
} from './wire-schema.ts';

/**
 * Reads a request against its one description (a closed object of wire-schema.ts): each field as the Validator
 * reads its kind, so the messages are Validator's and every bad field is named, and the result has the schema's
 * static type. Fields the schema does not name are ignored, as they always were. Rules the schema cannot state (a
 * date in the booking window, a common password) add their problems to `v` before `v.done()`.
 */
export function readFields<S extends TObject>(v: Validator, schema: S): Static<S> {
  const { properties, required = [] } = keywords(schema) as {
    properties: Record<string, TSchema>;
    required?: string[];
  };
  const value: Record<string, unknown> = {};
  for (const [field, property] of Object.entries(properties)) {
    const read = readField(v, field, property, { optional: !required.includes(field) });
    if (read !== undefined) value[field] = read;
  }
  // Each property was read as its schema says (readField), so the object is what Static<S> describes.
  return value as Static<S>;
}

/** `readFields` for a request with no rules beyond its schema: throws one `invalid` error naming every bad field. */
export function readInput<S extends TObject>(schema: S, input: unknown): Static<S> {
  const v = new Validator(asRecord(input));
  const value = readFields(v, schema);
  v.done();
  return value;
}

/**
 * One field; undefined when optional and absent (or blank). A required field that fails reads as Validator's
 * placeholder, which `v.done()` never lets through.
 */
export function readField<S extends TSchema>(
  v: Validator,
  field: string,
  property: S,
  { optional }: { optional: boolean },
): Static<S> | undefined {
  const schema = keywords(refTarget(property) ?? property);
  const read = () => readKind(v, field, schema, optional);
  const message = schema[MESSAGE_RULE];
  // Each kind below is read as the schema says, so the value is what Static<S> describes.
  return (typeof message === 'string' ? v.worded(field, message, read) : read()) as Static<S> | undefined;
}

function readKind(v: Validator, field: string, schema: JsonSchema, optional: boolean): unknown {
  const amountRule = schema[AMOUNT_RULE] as AmountRule | undefined;
  if (amountRule) {
    const cents = v.amount(field, { optional, max: amountRule.maxCents, zero: amountRule.zero });
    return cents === undefined ? undefined : centsToDecimal(cents);
  }
  // `nullable(x)`: null is absent, as Validator reads it.
  const nonNull =
    Array.isArray(schema.anyOf) && schema.anyOf.length === 2 && keywords(schema.anyOf[1]).type === 'null'
      ? keywords(schema.anyOf[0])
      : undefined;
  if (nonNull) return readKind(v, field, keywords(refTarget(nonNull) ?? nonNull), optional);
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.map(String);
    return optional ? v.oneOf(field, values, { optional: true }) : v.oneOf(field, values as [string, ...string[]]);
  }
  if (schema.type === 'boolean') return v.boolean(field);
  if (
    schema.type === 'integer' &&
    typeof schema.minimum === 'number' &&
    schema.minimum >= 1 &&
    typeof schema.maximum === 'number'
  )
    return readCount(v, field, { min: schema.minimum, max: schema.maximum }, optional);
  if (schema.type === 'string') return readString(v, field, schema, optional);
  if (schema.type === 'number') return readNumber(v, field, schema, optional);
  if (schema.type === 'array' && keywords(schema.items as TSchema).type === 'integer')
    return v.ids(field, { optional, ...bounds(schema.minItems, schema.maxItems) });
  if (schema.type === 'array') {
    const items = keywords(schema.items as TSchema);
    // A required list of fixed values (the events a receiver takes) is read whole, as one choice of values.
    if (Array.isArray(items.enum) && !optional)
      return v.values(field, items.enum.map(String), bounds(schema.minItems, undefined));
    if (items.type === 'string' || Array.isArray(items.enum))
      return v.strings(field, {
        optional,
        ...(Array.isArray(items.enum) ? { options: items.enum.map(String) } : {}),
        ...(typeof items.pattern === 'string' ? { pattern: items.pattern } : {}),
        ...bounds(schema.minItems, schema.maxItems),
      });
  }
  throw new Error(`read-fields.ts has no reading for ${field}: ${JSON.stringify(schema)}`);
}

/** A positive whole number as Validator reads an id (numeric text too), from `min` to `max`. */
function readCount(
  v: Validator,
  field: string,
  { min, max }: { min: number; max: number },
  optional: boolean,
): number | undefined {
  const value = optional ? v.id(field, { optional: true }) : v.id(field);
  if (value === undefined || v.failed(field)) return value;
  if (min === 1 && value > max) v.fail(field, `must be at most ${max}`);
  else if (value < min || value > max) v.fail(field, `must be between ${min} and ${max}`);
  return value;
}

function readString(v: Validator, field: string, schema: JsonSchema, optional: boolean): string | undefined {
  if (schema.format === 'date') return optional ? v.date(field, { optional: true }) : v.date(field);
  if (schema.pattern === TIME_PATTERN) return optional ? v.time(field, { optional }) || undefined : v.time(field);
  if (schema.format === 'email') return (optional ? v.email(field, { optional: true }) : v.email(field)) ?? undefined;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const value =
    schema[TEXT_RULE] === 'untrimmed'
      ? v.untrimmed(field, { optional, max: max ?? 255 })
      : v.text(field, { optional, max, line: schema[TEXT_RULE] === 'line' });
  if (optional && value === '') return undefined;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  if (min > 1 && value && !v.failed(field) && [...value].length < min)
    v.fail(field, `must be at least ${min} characters`);
  return value;
}

const bounds = (min: unknown, max: unknown) => ({
  ...(typeof min === 'number' ? { min } : {}),
  ...(typeof max === 'number' ? { max } : {}),
});

/** A number (JSON or numeric text) within the schema's `minimum` and `maximum`. */
function readNumber(v: Validator, field: string, schema: JsonSchema, optional: boolean): number | undefined {
  return v.number(field, { optional, ...bounds(schema.minimum, schema.maximum) });
}
