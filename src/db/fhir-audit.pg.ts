import type { AuditEventRow } from '../domain/fhir/audit-event.ts';
import type { FhirTable } from './fhir-search.pg.ts';

interface AuditSql {
  id: number;
  at: Date;
  actor_user_id: number | null;
  actor_name: string | null;
  actor_role: string | null;
  actor_patient_id: number | null;
  actor_doctor_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  patient_id: number | null;
}

export const auditEventTable: FhirTable<AuditEventRow> = {
  sql: `select l.id, l.at, l.actor_user_id, u.name as actor_name, l.actor_role, ap.id as actor_patient_id, ad.id as actor_doctor_id,
               l.action, l.entity, l.entity_id, l.patient_id
        from audit_log l left join users u on u.id = l.actor_user_id
        left join patients ap on ap.user_id = l.actor_user_id left join doctors ad on ad.user_id = l.actor_user_id`,
  columns: { _id: 'id::bigint', _lastUpdated: 'at::timestamptz', date: 'at::timestamptz', patient: 'patient_id::int' },
  patientColumn: 'patient_id',
  toRow: (raw) => {
    const r = raw as unknown as AuditSql;
    return {
      id: Number(r.id),
      at: r.at,
      actor:
        r.actor_user_id === null
          ? null
          : {
              userId: r.actor_user_id,
              name: r.actor_name,
              role: r.actor_role,
              patientId: r.actor_patient_id,
              doctorId: r.actor_doctor_id,
            },
      action: r.action,
      entity: r.entity,
      entityId: r.entity_id,
      patientId: r.patient_id,
    };
  },
};
