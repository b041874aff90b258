import type { AuditLog } from '../domain/audit/audit.ts';
import type { Queryable } from './db.ts';

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
