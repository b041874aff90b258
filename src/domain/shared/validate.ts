import { invalid, notFound, type FieldErrors } from './errors.ts';
import { centsToDecimal, parseCents } from './money.ts';

/**
 * Collects field problems so one answer names every bad field:
 *   const v = new Validator(input); const name = v.text('name', { max: 100 }); v.done();
 */
export class Validator {
  readonly errors: FieldErrors = {};
  constructor(private readonly input: Record<string, unknown>) {}

  fail(field: string, message: string): void {
    this.errors[field] = [...(this.errors[field] ?? []), message];
  }

  /**
   * A required trimmed string (or optional with `optional: true`, then '' when absent). Control characters are
   * refused but for tabs and line breaks, and those too with `line: true` (a name, which goes into headers,
   * calendar files and one-line lists where a line break would start a line of its own).
   */
  text(field: string, opts: { optional?: boolean; max?: number; line?: boolean } = {}): string {
    const raw = this.input[field];
    if (raw === undefined || raw === null || raw === '') {
      if (!opts.optional) this.fail(field, 'is required');
      return '';
    }
    if (typeof raw !== 'string' && typeof raw !== 'number') {
      this.fail(field, 'must be text');
      return '';
    }
    const value = String(raw).trim();
    if (!isStorableText(value)) {
      this.fail(field, UNSTORABLE);
      return '';
    }
    if ((opts.line ? LINE_CONTROL : CONTROL).test(value)) {
      this.fail(
        field,
        opts.line ? 'must be one line, without control characters' : 'must not contain control characters',
      );
      return '';
    }
    if (!value && !opts.optional) this.fail(field, 'is required');
    if (value.length > (opts.max ?? 255)) this.fail(field, `must be at most ${opts.max ?? 255} characters`);
    return value;
  }

  /** Text exactly as given, spaces included (a password); '' when absent and optional. */
  untrimmed(field: string, opts: { optional?: boolean; max: number }): string {
    const raw = this.input[field];
    if (raw === undefined || raw === null || raw === '') {
      if (!opts.optional) this.fail(field, 'is required');
      return '';
    }
    if (typeof raw !== 'string') {
      this.fail(field, 'must be text');
      return '';
    }
    if (!isStorableText(raw)) this.fail(field, UNSTORABLE);
    else if ([...raw].length > opts.max) this.fail(field, `must be at most ${opts.max} characters`);
    return raw;
  }

  /** A required e-mail address, or with `optional: true` null when absent or blank. */
  email(field: string): string;
  email(field: string, opts: { optional: true }): string | null;
  email(field: string, opts: { optional?: boolean } = {}): string | null {
    const value = this.text(field, { max: 254, optional: opts.optional });
    if (!value && opts.optional) return null;
    if (value && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) this.fail(field, 'must be a valid email address');
    return value;
  }

  // A required field that fails returns a placeholder of its type: `done()` throws before anyone can use it, so
  // callers get plain typed values rather than `T | undefined` to assert away.

  oneOf<T extends string>(field: string, options: readonly [T, ...T[]]): T;
  oneOf<T extends string>(field: string, options: readonly T[], opts: { optional: true }): T | undefined;
  oneOf<T extends string>(
    field: string,
    options: readonly [T, ...T[]] | readonly T[],
    opts: { optional?: boolean } = {},
  ): T | undefined {
    const value = this.text(field, opts);
    const placeholder = opts.optional ? undefined : options[0];
    if (!value) return placeholder;
    if (!(options as readonly string[]).includes(value)) {
      this.fail(field, `must be one of ${options.join(', ')}`);
      return placeholder;
    }
    return value as T;
  }

  /** A positive integer id, given as a number or a numeric string. */
  id(field: string): number;
  id(field: string, opts: { optional: true }): number | undefined;
  id(field: string, opts: { optional?: boolean } = {}): number | undefined {
    const placeholder = opts.optional ? undefined : 0;
    const raw = this.input[field];
    if (raw === undefined || raw === null || raw === '') {
      if (!opts.optional) this.fail(field, 'is required');
      return placeholder;
    }
    const value =
      typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value <= 0 || value > 2147483647) {
      this.fail(field, 'must be a valid id');
      return placeholder;
    }
    return value;
  }

  /**
   * An amount of money (dollars with at most 2 decimals, as text or a number) in cents, at most `max` cents and
   * positive unless `zero`; undefined when absent and optional, or when it fails.
   */
  amount(field: string, opts: { optional?: boolean; max: number; zero?: boolean }): number | undefined {
    const raw = this.input[field];
    if (raw === undefined || raw === null || raw === '') {
      if (!opts.optional) this.fail(field, 'is required');
      return undefined;
    }
    const cents = parseCents(raw);
    const most = centsToDecimal(opts.max);
    if (opts.zero && cents === undefined) this.fail(field, 'must be a non-negative amount with at most 2 decimals');
    else if (opts.zero && cents !== undefined && cents > opts.max) this.fail(field, `must be at most ${most}`);
    else if (!opts.zero && (cents === undefined || cents === 0 || cents > opts.max))
      this.fail(field, `must be a positive amount with at most 2 decimals, at most ${most}`);
    else return cents;
    return undefined;
  }

  /** A calendar date as yyyy-MM-dd that really exists. */
  date(field: string): string;
  date(field: string, opts: { optional: true }): string | undefined;
  date(field: string, opts: { optional?: boolean } = {}): string | undefined {
    const value = this.text(field, opts);
    const placeholder = opts.optional ? undefined : '';
    if (!value) return placeholder;
    if (!isCalendarDate(value)) {
      this.fail(field, 'must be a date as yyyy-MM-dd');
      return placeholder;
    }
    return value;
  }

  /** A time of day as HH:mm. */
  time(field: string, opts: { optional?: boolean } = {}): string {
    const value = this.text(field, opts);
    if (value && !TIME.test(value)) this.fail(field, 'must be a time as HH:mm');
    return value;
  }

  /** A date of birth: a real date after 1900 and before the clinic's `today`. */
  birthdate(field: string, today: string): string;
  birthdate(field: string, today: string, opts: { optional: true }): string | undefined;
  birthdate(field: string, today: string, opts: { optional?: boolean } = {}): string | undefined {
    const value = opts.optional ? this.date(field, { optional: true }) : this.date(field);
    this.birthdateRange(field, value, today);
    return value;
  }

  /** A date of birth read already (a schema's `date`): after 1900 and before the clinic's `today`. */
  birthdateRange(field: string, value: string | undefined, today: string): void {
    if (value && (value >= today || value < '1900-01-01')) this.fail(field, 'must be a real date in the past');
  }

  /** A finite number, given as a JSON number or numeric text; undefined when absent and optional. */
  number(field: string, opts: { optional?: boolean; min?: number; max?: number } = {}): number | undefined {
    const raw = this.input[field];
    if (raw === undefined || raw === null || raw === '') {
      if (!opts.optional) this.fail(field, 'is required');
      return opts.optional ? undefined : 0;
    }
    const value =
      typeof raw === 'number'
        ? raw
        : typeof raw === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw.trim())
          ? Number(raw)
          : NaN;
    if (!Number.isFinite(value)) {
      this.fail(field, 'must be a number');
      return opts.optional ? undefined : 0;
    }
    if (opts.min !== undefined && value < opts.min) this.fail(field, `must be at least ${opts.min}`);
    else if (opts.max !== undefined && value > opts.max) this.fail(field, `must be at most ${opts.max}`);
    return value;
  }

  /** A list of distinct positive ids, from `min` to `max` of them; undefined when absent and optional. */
  ids(field: string, opts: { optional?: boolean; min?: number; max?: number } = {}): number[] | undefined {
    const raw = this.input[field];
    if (raw === undefined || raw === null) {
      if (!opts.optional) this.fail(field, 'is required');
      return opts.optional ? undefined : [];
    }
    if (
      !Array.isArray(raw) ||
      raw.some((id) => typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0 || id > 2147483647)
    ) {
      this.fail(field, 'must be a list of ids');
      return [];
    }
    const ids = raw as number[];
    if (opts.min !== undefined && ids.length < opts.min) this.fail(field, `must name at least ${opts.min}`);
    else if (opts.max !== undefined && ids.length > opts.max) this.fail(field, `must name at most ${opts.max}`);
    else if (new Set(ids).size !== ids.length) this.fail(field, 'must not name one id twice');
    return ids;
  }

  /** `read` of `field`, whatever it finds wrong told as the one `message`. */
  worded<T>(field: string, message: string, read: () => T): T {
    const found = this.errors[field];
    const value = read();
    if (this.errors[field] !== found) this.errors[field] = [...(found ?? []), message];
    return value;
  }

  /** A list of distinct values, each one of `options` (the events a receiver takes). */
  values<T extends string>(field: string, options: readonly T[], opts: { min?: number } = {}): T[] {
    const raw = this.input[field];
    if (raw === undefined || raw === null) {
      this.fail(field, 'is required');
      return [];
    }
    if (!Array.isArray(raw) || raw.some((value) => !options.includes(value as T))) {
      this.fail(field, `must be a list of ${options.join(', ')}`);
      return [];
    }
    const values = raw as T[];
    if (opts.min !== undefined && values.length < opts.min) this.fail(field, `must name at least ${opts.min}`);
    else if (new Set(values).size !== values.length) this.fail(field, 'must not name one value twice');
    return values;
  }

  /** Whether a problem was already found with `field`, so a rule that builds on it can stay quiet. */
  /** A list of texts, each one of `options` when given, or matching `pattern`; each given once. */
  strings(
    field: string,
    opts: { optional?: boolean; options?: readonly string[]; pattern?: string; min?: number; max?: number } = {},
  ): string[] | undefined {
    const raw = this.input[field];
    if (raw === undefined || raw === null) {
      if (!opts.optional) this.fail(field, 'is required');
      return opts.optional ? undefined : [];
    }
    const pattern = opts.pattern === undefined ? undefined : new RegExp(opts.pattern);
    const fits = (item: unknown) =>
      typeof item === 'string' &&
      (opts.options === undefined || opts.options.includes(item)) &&
      (pattern === undefined || pattern.test(item));
    if (!Array.isArray(raw) || !raw.every(fits)) {
      this.fail(
        field,
        opts.options ? `must be a list of: ${opts.options.join(', ')}` : 'must be a list of valid values',
      );
      return [];
    }
    const items = raw as string[];
    if (opts.min !== undefined && items.length < opts.min) this.fail(field, `must name at least ${opts.min}`);
    else if (opts.max !== undefined && items.length > opts.max) this.fail(field, `must name at most ${opts.max}`);
    else if (new Set(items).size !== items.length) this.fail(field, 'must not name one value twice');
    return items;
  }

  failed(field: string): boolean {
    return field in this.errors;
  }

  boolean(field: string): boolean {
    const raw = this.input[field];
    return raw === true || raw === 'true' || raw === 'on' || raw === '1' || raw === 1;
  }

  /** Throws one `invalid` error naming every field that failed. */
  done(): void {
    if (Object.keys(this.errors).length > 0) throw invalid(this.errors);
  }
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const UNSTORABLE = 'contains a character that cannot be stored (a NUL or an unpaired surrogate)';

/** PostgreSQL text holds neither NUL nor invalid UTF-16 (what JSON's lone `\ud800` escapes decode to). */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE_CHARACTER.test(value);
}
// C0 controls and DEL, but for tab, line feed and carriage return; on one line, only the tab is left.
const CONTROL = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LINE_CONTROL = /[\u0001-\u0008\u000A-\u001F\u007F]/;
const UNSTORABLE_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses input with text that no column can store, naming the first such field (`items[2].name`), so it is
 * a 422 before anything is hashed or written rather than a database error.
 */
export function refuseUnstorableText(input: Record<string, unknown>): void {
  const found = findUnstorable(input, '');
  if (found !== undefined) throw invalid({ [found || 'body']: [UNSTORABLE] });
}

function findUnstorable(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const keyPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return keyPath;
    const found = findUnstorable(inner, keyPath);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export function asRecord(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** An id as a route's path or a command's argument gives it. */
export type RawId = string | number;

/** An id from the path; anything but a positive integer names nothing, so it is simply not found. */
export function pathId(raw: RawId, what: string): number {
  const id = typeof raw === 'number' ? raw : /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) throw notFound(what);
  return id;
}
