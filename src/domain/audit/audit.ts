import type { Actor } from '../shared/actor.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';

export interface AuditEntry {
  actor: Actor | null;
  action: string; // e.g. login, login_failed, create, update, delete, read_records, pay
  entity: string; // e.g. user, appointment, medical_record, billing
  entityId?: number | string | null;
  patientId?: number | null;
  requestId?: string;
  details?: Record<string, unknown>;
}

/** Append-only: the application writes and reads audit rows, never changes them. */
export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
}

/** One audit row as an admin reads it. */
export interface AuditRow {
  id: number;
  at: Date;
  actor: { id: number; name: string | null; role: string | null } | null;
  action: string;
  entity: string;
  entityId: string | null;
  patientId: number | null;
  requestId: string | null;
  details: Record<string, unknown> | null;
}

export interface AuditReader {
  /** Newest first; only rows about `patientId` when given. */
  list(filter: { patientId?: number }, page: PageRequest): Promise<Page<AuditRow>>;
}
