import type { Actor } from '../shared/actor.ts';

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
