import type { Actor } from '../shared/actor.ts';

/** Set-based look-ups of what already exists, keyed by the lower-cased name or email. */
export interface ImportLookup {
  departmentIds(names: string[]): Promise<Map<string, number>>;
  specializationIds(names: string[]): Promise<Map<string, number>>;
  /** The role of each account that already uses one of `emails`. */
  accountRoles(emails: string[]): Promise<Map<string, string>>;
}

/** The catalogue's own use cases, bound to the import's one transaction. */
export interface ImportTx {
  createDepartment(body: Record<string, unknown>, actor: Actor): Promise<{ id: number }>;
  createSpecialization(body: Record<string, unknown>, actor: Actor): Promise<{ id: number }>;
  /** Creates the doctor exactly as the admin's form does, storing `passwordHash` (computed beforehand) for `body.password`. */
  createDoctor(body: Record<string, unknown>, passwordHash: string, actor: Actor): Promise<{ id: number }>;
  /** Adds a lab test or panel from a file row (domain/lab/catalogue-import.ts); undefined when its code exists. */
  createLabTest(fields: Record<string, string>, actor: Actor): Promise<{ id: number } | undefined>;
}

export interface ImportDeps {
  lookup: ImportLookup;
  hasher: { hash(password: string): Promise<string> };
  passwords: { generate(): string };
  /** All or nothing: every row of one import is written in one transaction. */
  transaction<T>(fn: (tx: ImportTx) => Promise<T>): Promise<T>;
}
