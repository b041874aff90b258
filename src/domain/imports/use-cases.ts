import { LAB_TEST_COLUMNS } from '../lab/catalogue-import.ts';
import type { Actor } from '../shared/actor.ts';
import { NameAndDescriptionRequest, NewDoctorRequest } from '../catalogue/catalogue-shapes.ts';
import { DomainError, invalid, type FieldErrors } from '../shared/errors.ts';
import { parseImport, type ImportFormat, type ImportRow } from './parse.ts';
import type { ImportDeps, ImportLookup, ImportTx } from './ports.ts';

export interface ImportFile {
  text: string;
  format: ImportFormat;
}

export interface ImportOptions {
  /** Checks every row exactly as a real import would, in a transaction that is then rolled back. */
  dryRun: boolean;
  onProgress?: (step: string, done: number, total: number) => void;
}

export interface ImportResult {
  dryRun: boolean;
  imported: number;
  /** Rows naming a record that already exists: reported, never doubled. */
  skipped: { where: string; reason: string }[];
}

export interface DoctorImportOptions extends ImportOptions {
  /** Departments and specializations named in the file but not yet in the catalogue are created instead of refused. */
  createMissing: boolean;
  /** Receives the generated passwords before the transaction commits, so failing to keep them writes nothing. */
  saveCredentials(credentials: ImportedCredential[]): Promise<void>;
}

export interface DoctorImportResult extends ImportResult {
  createdDepartments: string[];
  createdSpecializations: string[];
}

export interface ImportedCredential {
  name: string;
  email: string;
  password: string;
}

/** A department's columns: the fields of its form. */
export const DEPARTMENT_COLUMNS = Object.keys(NameAndDescriptionRequest.properties);
/**
 * A doctor's columns: the fields of the new doctor's form but the password (each doctor gets one generated), the
 * specialization and department by name rather than id.
 */
export const DOCTOR_COLUMNS = Object.keys(NewDoctorRequest.properties)
  .filter((field) => field !== 'password')
  .map((field) => field.replace(/_id$/, ''));

// argon2 hashes run on libuv's thread pool (4 threads by default); a few more in flight keep it busy.
const HASH_CONCURRENCY = 8;

/** Creates departments from a file (columns name, description); those whose name exists already are skipped. */
export async function importDepartments(
  deps: ImportDeps,
  file: ImportFile,
  options: ImportOptions,
  actor: Actor,
): Promise<ImportResult> {
  const rows = parseImport(file.text, file.format, DEPARTMENT_COLUMNS);
  const problems = new RowProblems();
  const unique = withoutRepeats(rows, 'name', problems);
  const existing = await deps.lookup.departmentIds(unique.map((row) => key(row.fields.name)).filter(Boolean));
  const skipped = unique
    .filter((row) => existing.has(key(row.fields.name)))
    .map((row) => ({ where: row.where, reason: `department "${trimmed(row.fields.name)}" already exists` }));
  const fresh = unique.filter((row) => !existing.has(key(row.fields.name)));
  problems.throwIfAny();

  await inOneTransaction(deps, options.dryRun, async (tx) => {
    for (const [i, row] of fresh.entries()) {
      await tx.createDepartment(row.fields, actor).catch((error) => problems.addRefusal(row.where, error));
      options.onProgress?.('importing departments', i + 1, fresh.length);
    }
    problems.throwIfAny();
  });
  return { dryRun: options.dryRun, imported: fresh.length, skipped };
}

/**
 * Creates doctor accounts from a staff list naming each doctor's specialization and department.
 * Every doctor gets a generated password, handed to `saveCredentials` and nowhere else; a doctor whose email
 * already has a doctor account is skipped.
 */
export async function importDoctors(
  deps: ImportDeps,
  file: ImportFile,
  options: DoctorImportOptions,
  actor: Actor,
): Promise<DoctorImportResult> {
  const rows = parseImport(file.text, file.format, DOCTOR_COLUMNS);
  const problems = new RowProblems();
  const unique = withoutRepeats(rows, 'email', problems);
  const roles = await deps.lookup.accountRoles(unique.map((row) => key(row.fields.email)).filter(Boolean));
  const skipped: ImportResult['skipped'] = [];
  const fresh: ImportRow[] = [];
  for (const row of unique) {
    const role = roles.get(key(row.fields.email));
    if (role === 'doctor')
      skipped.push({ where: row.where, reason: `${trimmed(row.fields.email)} is already a doctor` });
    else if (role) problems.add(row.where, 'email', `already belongs to a ${role} account`);
    else fresh.push(row);
  }
  const specializations = await resolveNames(
    fresh,
    'specialization',
    deps.lookup.specializationIds,
    options.createMissing,
    problems,
  );
  const departments = await resolveNames(
    fresh,
    'department',
    deps.lookup.departmentIds,
    options.createMissing,
    problems,
  );
  problems.throwIfAny();

  const accounts: NewAccount[] = fresh.map((row) => ({
    row,
    credential: {
      name: trimmed(row.fields.name),
      email: trimmed(row.fields.email),
      password: deps.passwords.generate(),
    },
    passwordHash: '',
  }));
  const writeAll = (accounts: NewAccount[], dryRun: boolean) =>
    inOneTransaction(deps, dryRun, async (tx) => {
      const refusals = new RowProblems();
      const specializationIds = await withCreated(
        specializations,
        (name) => tx.createSpecialization({ name }, actor),
        refusals,
      );
      const departmentIds = await withCreated(departments, (name) => tx.createDepartment({ name }, actor), refusals);
      for (const [i, { row, credential, passwordHash }] of accounts.entries()) {
        const { specialization, department, ...profile } = row.fields;
        const body = {
          ...profile,
          password: credential.password,
          specialization_id: specialization && specializationIds.get(key(specialization)),
          department_id: department && departmentIds.get(key(department)),
        };
        await tx
          .createDoctor(body, passwordHash, actor)
          .catch((error) =>
            refusals.addRefusal(row.where, error, { specialization_id: 'specialization', department_id: 'department' }),
          );
        options.onProgress?.(dryRun ? 'checking doctors' : 'importing doctors', i + 1, accounts.length);
      }
      refusals.throwIfAny();
      if (!dryRun) await options.saveCredentials(accounts.map((account) => account.credential));
      return {
        dryRun,
        imported: accounts.length,
        skipped,
        createdSpecializations: [...specializations.missing.values()].map((m) => m.name),
        createdDepartments: [...departments.missing.values()].map((m) => m.name),
      };
    });

  // Every row is checked in a rolled-back transaction before any password is hashed: hashing is slow on purpose
  // (tens of ms each), so a typo on line 480 is reported in seconds, and the real transaction is not held open
  // while hashing. The check stores no real hash, as it is never committed.
  const checked = await writeAll(accounts, true);
  if (options.dryRun) return checked;
  const hashed = await mapConcurrently(
    accounts,
    HASH_CONCURRENCY,
    async (account) => ({ ...account, passwordHash: await deps.hasher.hash(account.credential.password) }),
    (done) => options.onProgress?.('hashing passwords', done, accounts.length),
  );
  return writeAll(hashed, false);
}

/** A doctor about to be created: its row, the password handed out, and that password's hash once computed. */
interface NewAccount {
  row: ImportRow;
  credential: ImportedCredential;
  passwordHash: string;
}

const trimmed = (value: string | undefined) => (value ?? '').trim();
const key = (value: string | undefined) => trimmed(value).toLowerCase();

/** Every problem of every row, thrown together as one error whose fields read "line 7: email". */
export class RowProblems {
  private readonly fields: FieldErrors = {};
  private count = 0;

  add(where: string, field: string | undefined, message: string): void {
    const key = field ? `${where}: ${field}` : where;
    this.fields[key] = [...(this.fields[key] ?? []), message];
    this.count++;
  }

  /** A use case's refusal of a row's values; any other failure ends the import. */
  addRefusal(where: string, error: unknown, fieldNames: Record<string, string> = {}): void {
    if (!(error instanceof DomainError) || error.kind !== 'invalid') throw error;
    const fields = Object.entries(error.fields ?? {});
    if (fields.length === 0) this.add(where, undefined, error.message);
    for (const [field, messages] of fields)
      for (const message of messages) this.add(where, fieldNames[field] ?? field, message);
  }

  /** Whether a row has a problem already. */
  has(where: string): boolean {
    return Object.keys(this.fields).some((key) => key === where || key.startsWith(`${where}: `));
  }

  throwIfAny(): void {
    if (this.count === 0) return;
    throw invalid(
      this.fields,
      `Nothing was imported: the file has ${this.count === 1 ? '1 problem' : `${this.count} problems`}`,
    );
  }
}

/** The rows whose `column` has not appeared before in the file; a repeat is a problem of its own row. */
function withoutRepeats(rows: ImportRow[], column: string, problems: RowProblems): ImportRow[] {
  const firstSeen = new Map<string, string>();
  return rows.filter((row) => {
    const value = key(row.fields[column]);
    if (!value) return true; // the use case names the missing value
    const first = firstSeen.get(value);
    if (first) problems.add(row.where, column, `repeats ${first}`);
    else firstSeen.set(value, row.where);
    return !first;
  });
}

interface NameResolution {
  column: string;
  ids: Map<string, number>;
  /** Names to create, with the first row naming each (for its error, should creating it fail). */
  missing: Map<string, { name: string; where: string }>;
}

/** Finds the catalogue rows `column` names; a name not found is a problem unless `createMissing`. */
async function resolveNames(
  rows: ImportRow[],
  column: string,
  lookup: ImportLookup['departmentIds'],
  createMissing: boolean,
  problems: RowProblems,
): Promise<NameResolution> {
  const named = rows.filter((row) => key(row.fields[column]));
  const ids = await lookup([...new Set(named.map((row) => key(row.fields[column])))]);
  const missing: NameResolution['missing'] = new Map();
  for (const row of named) {
    const name = trimmed(row.fields[column]);
    if (ids.has(key(name)) || missing.has(key(name))) continue;
    if (createMissing) missing.set(key(name), { name, where: row.where });
    else problems.add(row.where, column, `there is no ${column} named "${name}"`);
  }
  return { column, ids, missing };
}

/** The resolved ids plus those of the missing names, created now. */
async function withCreated(
  names: NameResolution,
  create: (name: string) => Promise<{ id: number }>,
  problems: RowProblems,
): Promise<Map<string, number>> {
  const ids = new Map(names.ids);
  for (const [nameKey, { name, where }] of names.missing) {
    try {
      ids.set(nameKey, (await create(name)).id);
    } catch (error) {
      problems.addRefusal(where, error, { name: names.column });
    }
  }
  return ids;
}

class RolledBack<T> {
  constructor(readonly result: T) {}
}

/** Runs `fn` in one transaction; a dry run rolls it back and still answers what `fn` found. */
async function inOneTransaction<T>(deps: ImportDeps, dryRun: boolean, fn: (tx: ImportTx) => Promise<T>): Promise<T> {
  try {
    return await deps.transaction(async (tx) => {
      const result = await fn(tx);
      if (dryRun) throw new RolledBack(result);
      return result;
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.result as T;
    throw error;
  }
}

async function mapConcurrently<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  onDone: (done: number) => void,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  // One iterator shared by the workers hands each item to exactly one of them.
  const queue = items.entries();
  let done = 0;
  const worker = async () => {
    for (const [i, item] of queue) {
      results[i] = await fn(item);
      onDone(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Adds tests and panels to the lab catalogue from a file (`LAB_TEST_COLUMNS`), in file order so a panel may name
 * the tests above it; a code already in the catalogue is skipped, every bad row is reported by its line, and
 * nothing is written unless every row is good.
 */
export async function importLabTests(
  deps: ImportDeps,
  file: ImportFile,
  options: ImportOptions,
  actor: Actor,
): Promise<ImportResult> {
  const rows = parseImport(file.text, file.format, LAB_TEST_COLUMNS);
  const problems = new RowProblems();
  const unique = withoutRepeats(rows, 'code', problems);
  problems.throwIfAny();
  return inOneTransaction(deps, options.dryRun, async (tx) => {
    const skipped: ImportResult['skipped'] = [];
    for (const [i, row] of unique.entries()) {
      const created = await tx.createLabTest(row.fields, actor).catch((error) => problems.addRefusal(row.where, error));
      if (created === undefined && !problems.has(row.where))
        skipped.push({ where: row.where, reason: `code ${trimmed(row.fields.code)} is in the catalogue already` });
      options.onProgress?.('importing lab tests', i + 1, unique.length);
    }
    problems.throwIfAny();
    return { dryRun: options.dryRun, imported: unique.length - skipped.length, skipped };
  });
}
