import type { AuditEvent, AuditEventAgent, AuditEventEntity } from '@medplum/fhirtypes';
import { codeSystemUrl } from './code-systems.ts';
import { meta, ref } from './fhir.ts';
import { ID_PARAM, LAST_UPDATED_PARAM, numericId, type ResourceDef } from './resource-def.ts';

/** An audit row, with the patient or doctor row of its actor when they have one. */
export interface AuditEventRow {
  id: number;
  at: Date;
  actor: {
    userId: number;
    name: string | null;
    role: string | null;
    patientId: number | null;
    doctorId: number | null;
  } | null;
  action: string;
  entity: string;
  entityId: string | null;
  patientId: number | null;
}

/** Medora's audit actions on FHIR's audit-event-action (C R U D E, required binding). */
function actionCode(action: string): AuditEvent['action'] {
  if (/^(create|register|book|import)/.test(action)) return 'C';
  if (/^(read|list|export|view)/.test(action)) return 'R';
  if (/^(update|.*_changed|reschedul|check_in|pay|cancel)/.test(action)) return 'U';
  if (/^(delete|deactivat)/.test(action)) return 'D';
  return 'E';
}

function agent(row: AuditEventRow): AuditEventAgent {
  const actor = row.actor;
  if (!actor) return { requestor: true, who: { display: 'anonymous' } };
  const who =
    actor.doctorId !== null
      ? ref('Practitioner', actor.doctorId, actor.name ?? undefined)
      : actor.patientId !== null
        ? ref('Patient', actor.patientId, actor.name ?? undefined)
        : { display: actor.name ?? `user ${actor.userId}` };
  return {
    requestor: true,
    who,
    altId: String(actor.userId),
    name: actor.name ?? undefined,
    role: actor.role ? [{ text: actor.role }] : undefined,
  };
}

const PERSON = { system: 'http://terminology.hl7.org/CodeSystem/audit-entity-type', code: '1', display: 'Person' };

function entities(row: AuditEventRow): AuditEventEntity[] {
  const subject: AuditEventEntity =
    row.entityId !== null ? { what: { identifier: { value: row.entityId } }, name: row.entity } : { name: row.entity };
  return row.patientId !== null ? [{ what: ref('Patient', row.patientId), type: PERSON }, subject] : [subject];
}

/** Audit rows are never changed, so each has one version, written when it happened. */
export const auditEventResource: ResourceDef<AuditEventRow, AuditEvent> = {
  type: 'AuditEvent',
  params: [
    ID_PARAM,
    LAST_UPDATED_PARAM,
    { name: 'date', type: 'date', documentation: 'When it happened' },
    { name: 'patient', type: 'reference', target: 'Patient', documentation: 'The patient it concerned' },
  ],
  sortDate: 'date',
  isId: numericId,
  toFhir: (row, ctx) => ({
    resourceType: 'AuditEvent',
    id: String(row.id),
    meta: meta({ updatedAt: row.at, version: 1 }),
    type: { system: codeSystemUrl(ctx, 'audit-action'), code: row.action },
    action: actionCode(row.action),
    recorded: row.at.toISOString(),
    outcome: row.action === 'refused' || row.action.endsWith('_failed') ? '4' : '0',
    agent: [agent(row)],
    source: { observer: { display: 'Medora' } },
    entity: entities(row),
  }),
};
