import type { AuditLog, AuditReader, AuditRow } from '../domain/audit/audit.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';

export function auditLog(db: Queryable): AuditLog {
  return {
    record: async (e) => {
      await db.query(
        `insert into audit_log (actor_user_id, actor_role, action, entity, entity_id, patient_id, request_id, details)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          e.actor?.userId || null,
          e.actor?.role ?? null,
          e.action,
          e.entity,
          e.entityId == null ? null : String(e.entityId),
          e.patientId ?? null,
          e.requestId ?? e.actor?.requestId ?? null,
          e.details ? JSON.stringify(e.details) : null,
        ],
      );
    },
  };
}

/** A row of the audit list: the entry and its actor's current name (null once the account is gone). */
interface AuditLogRow {
  id: number;
  at: Date;
  actor_user_id: number | null;
  actor_name: string | null;
  actor_role: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  patient_id: number | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
}

export function toAuditRow(row: AuditLogRow): AuditRow {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor_user_id == null ? null : { id: row.actor_user_id, name: row.actor_name, role: row.actor_role },
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    patientId: row.patient_id,
    requestId: row.request_id,
    details: row.details,
  };
}

export function auditReader(db: Queryable): AuditReader {
  return {
    list: async ({ patientId }, page) => {
      const [where, filter] = patientId === undefined ? ['', []] : ['where a.patient_id = $1', [patientId]];
      return pageWithTotal(
        db,
        page,
        {
          columns: `a.id, a.at, a.actor_user_id, u.name as actor_name, a.actor_role, a.action, a.entity, a.entity_id,
                    a.patient_id, a.request_id, a.details`,
          rowsOf: `from audit_log a left join users u on u.id = a.actor_user_id ${where}`,
          countOf: `from audit_log a ${where}`,
          orderBy: 'a.at desc, a.id desc',
          params: filter,
        },
        toAuditRow,
      );
    },
  };
}
