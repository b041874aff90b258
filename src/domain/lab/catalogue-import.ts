import type { Actor } from '../shared/actor.ts';
import { ensure, invalid, type FieldErrors } from '../shared/errors.ts';
import { parseCents } from '../shared/money.ts';
import { requireAdmin } from '../shared/actor.ts';
import {
  CATALOGUE_KINDS,
  CATEGORIES,
  CODE_SYSTEMS,
  RESULT_TYPES,
  SPECIMEN_TYPES,
  type CatalogueKind,
  type ResultType,
} from './catalogue.ts';
import type { LabDeps, NewTest } from './ports.ts';
import type { Units } from './units.ts';

/**
 * The columns of `medora lab-tests import`: a test or a panel a row, the adult range and critical limits for anyone
 * (bands by sex and age are kept in the admin catalogue). `answers` (a coded test's) and `members` (a panel's test
 * codes, in their order) are separated by `|`.
 */
export const LAB_TEST_COLUMNS = [
  'kind',
  'category',
  'code_system',
  'code',
  'name',
  'specimen_type',
  'result_type',
  'unit',
  'answers',
  'members',
  'physical_low',
  'physical_high',
  'range_low',
  'range_high',
  'critical_low',
  'critical_high',
  'price',
  'turnaround_minutes',
] as const;
type Column = (typeof LAB_TEST_COLUMNS)[number];

/** A row read: the test to add, less its time, with its panel members still named by code. */
export interface ImportedTest {
  test: Omit<NewTest, 'at' | 'memberIds'>;
  memberCodes: string[];
}

const list = (raw: string) =>
  raw
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean);

/** One file row as a test or panel; every problem of the row at once, each under its column. */
export function readImportedTest(fields: Partial<Record<Column, string>>, units: Units): ImportedTest {
  const errors: FieldErrors = {};
  const fail = (field: Column, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const text = (field: Column) => (fields[field] ?? '').trim();
  const oneOf = <T extends string>(field: Column, values: readonly T[], fallback?: T): T => {
    const raw = text(field);
    if (raw === '' && fallback !== undefined) return fallback;
    if ((values as readonly string[]).includes(raw)) return raw as T;
    fail(field, raw === '' ? 'is required' : `must be one of ${values.join(', ')}`);
    return values[0] as T;
  };
  const line = (field: Column, max: number) => {
    const raw = text(field);
    if (raw === '') fail(field, 'is required');
    else if (raw.length > max) fail(field, `must be at most ${max} characters`);
    return raw;
  };
  const num = (field: Column): number | null => {
    const raw = text(field);
    if (raw === '') return null;
    const value = Number(raw);
    if (!Number.isFinite(value)) fail(field, `"${raw}" is not a number`);
    return value;
  };
  const pair = (low: Column, high: Column, strict: boolean) => {
    const [l, h] = [num(low), num(high)];
    if (l !== null && h !== null && (strict ? l >= h : l > h)) fail(high, `must be above ${low}`);
    return l === null && h === null ? null : { low: l, high: h };
  };

  const kind: CatalogueKind = oneOf('kind', CATALOGUE_KINDS, 'test');
  const category = oneOf('category', CATEGORIES, 'laboratory');
  const codeSystem = oneOf('code_system', CODE_SYSTEMS);
  const code = line('code', 40);
  const name = line('name', 200);
  const specimenType = oneOf('specimen_type', SPECIMEN_TYPES, category === 'imaging' ? 'none' : undefined);
  let resultType: ResultType | null = null;
  if (kind === 'panel') {
    if (text('result_type')) fail('result_type', 'a panel has none: its members are resulted');
  } else resultType = oneOf('result_type', RESULT_TYPES);
  const unit = text('unit') || null;
  if (resultType === 'quantity') {
    if (unit === null) fail('unit', 'is required for a quantity');
    else if (!units.isValid(unit)) fail('unit', `${unit} is not a UCUM unit`);
  } else if (unit !== null) fail('unit', 'is only for a quantity');
  const answers = list(text('answers'));
  if (resultType === 'coded' && answers.length === 0) fail('answers', 'a coded test needs its answers, separated by |');
  if (resultType !== 'coded' && answers.length > 0) fail('answers', 'are only for a coded test');
  const memberCodes = list(text('members'));
  if (kind === 'panel' && memberCodes.length === 0) fail('members', 'a panel needs its tests’ codes, separated by |');
  if (kind === 'test' && memberCodes.length > 0) fail('members', 'are only for a panel');
  const physical = pair('physical_low', 'physical_high', true);
  const range = pair('range_low', 'range_high', false);
  const critical = pair('critical_low', 'critical_high', true);
  if (resultType !== 'quantity')
    for (const field of ['physical_low', 'range_low', 'critical_low'] as const)
      if (text(field) || text(field.replace('low', 'high') as Column)) fail(field, 'is only for a quantity');
  const priceCents = parseCents(text('price'));
  if (priceCents === undefined) fail('price', 'must be an amount such as 12.50');
  const minutes = Number(text('turnaround_minutes'));
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 525600)
    fail('turnaround_minutes', 'must be whole minutes from 1 to 525600');
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return {
    test: {
      kind,
      category,
      codeSystem,
      code,
      name,
      specimenType,
      resultType,
      unit: resultType === 'quantity' ? unit : null,
      answers,
      physicalLow: physical?.low ?? null,
      physicalHigh: physical?.high ?? null,
      range,
      critical,
      priceCents: priceCents ?? 0,
      turnaroundMinutes: minutes,
    },
    memberCodes,
  };
}

/**
 * An admin's import adds one test or panel of a file (in the import's one transaction, rows in file order: a panel
 * names tests of the catalogue or of earlier rows); undefined when its code is in the catalogue already. Audited.
 */
export async function importTest(
  deps: LabDeps,
  fields: Record<string, string>,
  actor: Actor,
): Promise<{ id: number } | undefined> {
  requireAdmin(actor);
  const { test, memberCodes } = readImportedTest(fields, deps.units);
  const members = await deps.lab.testIdsByCode(memberCodes);
  const unknown = memberCodes.filter((code) => members.get(code) === undefined);
  if (unknown.length > 0) throw invalid({ members: [`${unknown.join(', ')}: no such test in the catalogue or above`] });
  const id = await deps.lab.createTest({
    ...test,
    memberIds: memberCodes.map((code) => ensure(members.get(code), () => invalid({ members: [code] }))),
    at: deps.clock.now(),
  });
  if (id === undefined) return undefined;
  await deps.audit.record({
    actor,
    action: 'create',
    entity: 'lab_test',
    entityId: id,
    requestId: actor.requestId,
    details: { source: 'import', code_system: test.codeSystem, code: test.code },
  });
  return { id };
}
