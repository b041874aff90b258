import type { Actor, Role } from '../shared/actor.ts';
import { DomainError } from '../shared/errors.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';

export interface AuditEntry {
  actor: Actor | null;
  action: string; // e.g. login, login_failed, create, update, delete, read_records, read_receipt, list, refused, pay
  entity: string; // e.g. user, appointment, medical_record, billing
  entityId?: number | string | null;
  patientId?: number | null;
  requestId?: string;
  details?: Record<string, unknown>;
}

/** Append-only: the application writes and reads audit rows, never changes them. */
export interface AuditLog {
  /** Writes the entries, several of one change in one statement. */
  record(...entries: AuditEntry[]): Promise<void>;
}

/** One audit row as an admin reads it. */
export interface AuditRow {
  id: number;
  at: Date;
  actor: { id: number; name: string | null; role: Role | null } | null;
  action: string;
  entity: string;
  entityId: string | null;
  patientId: number | null;
  requestId: string | null;
  details: Record<string, unknown> | null;
}

/** Which rows an admin asks for; every condition given must hold. */
export interface AuditFilter {
  userId?: number;
  patientId?: number;
  action?: string;
  /** At or after this instant. */
  since?: Date;
  /** Before this instant. */
  until?: Date;
}

export interface AuditReader {
  /** Newest first. */
  list(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRow>>;
  /** Newest first, at most `limit` rows. */
  rows(filter: AuditFilter, limit: number): Promise<AuditRow[]>;
}

/** A stranger's failed sign-ins help spot an attack for a season, then say nothing more (AUDIT_ANONYMOUS_RETENTION_DAYS). */
export const DEFAULT_ANONYMOUS_RETENTION_DAYS = 90;

/** What `verify` found: the chain intact over `rows` rows, or the first row where it breaks and why. */
export type ChainCheck =
  | { intact: true; rows: number }
  | { intact: false; rows: number; brokenAt: number | null; reason: string };

/** Rows written but not yet sealed into the chain: how many, and for how long the oldest has waited (null: none). */
export interface SealBacklog {
  rows: number;
  oldestAgeSeconds: number | null;
}

/** Rows sealed per turn of the sealer, which takes a turn every SEAL_INTERVAL_MS. */
export const SEAL_BATCH_ROWS = 5000;
export const SEAL_INTERVAL_MS = 100;

/**
 * How long a row may wait to be sealed before `verify` says no sealer is at work. Generous: a transaction still
 * running holds back the rows committed after it began, and the command line's statements may run for minutes.
 */
export const DEFAULT_MAX_UNSEALED_SECONDS = 300;

/** The trail's integrity, sealing and retention, as the database keeps them. */
export interface AuditTrail {
  /** Recomputes every sealed row's hash from its contents and its predecessor's, in chain order. */
  verify(): Promise<ChainCheck>;
  /**
   * Seals up to `maxRows` committed rows into the chain; answers how many, or null when another sealer (of this or
   * another instance) has the turn.
   */
  seal(maxRows: number): Promise<number | null>;
  backlog(): Promise<SealBacklog>;
  /** Deletes anonymous sign-in failures written before `before`; answers how many. */
  pruneAnonymous(before: Date): Promise<number>;
}

/**
 * Another user's resource, answered exactly as a missing one so its existence is not revealed; `entry` is the
 * attempt, recorded by `recordingRefusals` once any transaction it was thrown in has rolled back.
 */
export class Refusal extends DomainError {
  constructor(
    what: string,
    readonly entry: AuditEntry,
  ) {
    super('not_found', 'not_found', `${what} not found`);
  }
}

/** A refused attempt by `actor` on `entity` `entityId` (whether or not it exists: both are refused alike). */
export function refusal(
  what: string,
  actor: Actor,
  target: { entity: string; entityId: number; patientId?: number; attempt: string },
): Refusal {
  return new Refusal(what, {
    actor,
    action: 'refused',
    entity: target.entity,
    entityId: target.entityId,
    patientId: target.patientId ?? null,
    details: { attempt: target.attempt },
  });
}

/** `refusal`, once recorded in `audit`: to throw where no transaction would roll the record back. */
export async function recorded(audit: AuditLog, refusal: Refusal): Promise<Refusal> {
  await audit.record(refusal.entry);
  return refusal;
}

/** Runs `fn`; a refusal it throws is recorded in `audit`, outside any transaction `fn` ran, and thrown on. */
export async function recordingRefusals<T>(audit: AuditLog, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof Refusal) await audit.record(error.entry);
    throw error;
  }
}

/** The entry for a staff member's list of `entity`, with what they searched. */
export function listEntry(
  actor: Actor,
  entity: string,
  page: PageRequest,
  extra: Record<string, unknown> = {},
): AuditEntry {
  const details = { ...(page.q ? { q: page.q } : {}), page: page.page, per_page: page.perPage, ...extra };
  return { actor, action: 'list', entity, details };
}
