import { requireAdmin, type Actor } from '../shared/actor.ts';

import { pageRequest, type Page } from '../shared/pagination.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import type { AuditReader, AuditRow } from './audit.ts';

export interface AuditDeps {
  auditRows: AuditReader;
}

export interface AuditEntryJson {
  id: number;
  at: string;
  actor: { id: number; name: string | null; role: string | null } | null;
  action: string;
  entity: string;
  entity_id: string | null;
  patient_id: number | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
}

/** Admins see who read or changed data, newest first, optionally only about one patient. */
export async function listAuditEntries(deps: AuditDeps, query: unknown, actor: Actor): Promise<Page<AuditEntryJson>> {
  requireAdmin(actor);
  const input = asRecord(query);
  const v = new Validator(input);
  const patientId = v.id('patient_id', { optional: true });
  v.done();
  const page = await deps.auditRows.list({ patientId }, pageRequest(input));
  return { ...page, items: page.items.map(auditEntryJson) };
}

function auditEntryJson(row: AuditRow): AuditEntryJson {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    entity: row.entity,
    entity_id: row.entityId,
    patient_id: row.patientId,
    request_id: row.requestId,
    details: row.details,
  };
}
