import { requireAdmin, type Actor } from '../shared/actor.ts';
import { addDays, clinicInstant, clinicToday, type Clock } from '../shared/clock.ts';
import { MAX_EXPORT_ROWS, checkExportSize, csvRecord } from '../shared/csv.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { AuditFilterQuery, type AuditEntryJson } from './audit-shapes.ts';
import {
  DEFAULT_MAX_UNSEALED_SECONDS,
  SEAL_BATCH_ROWS,
  type AuditFilter,
  type AuditLog,
  type AuditReader,
  type AuditRow,
  type AuditTrail,
  type ChainCheck,
  type SealBacklog,
} from './audit.ts';

export interface AuditDeps {
  auditRows: AuditReader;
  audit: AuditLog;
  trail: AuditTrail;
  clock: Clock;
  timeZone: string;
  anonymousRetentionDays: number;
}

/** Filters as the query names them, for the audit entry of reading the trail. */
type FilterJson = Record<string, string | number>;

/** `user_id`, `patient_id`, `action` and the clinic dates `from`–`to` (both included); a bad one is a 422 naming it. */
function readFilter(query: Record<string, unknown>, timeZone: string): { filter: AuditFilter; asGiven: FilterJson } {
  const v = new Validator(query);
  const { user_id: userId, patient_id: patientId, action, from, to } = readFields(v, AuditFilterQuery);
  if (action && !v.failed('action') && !/^[a-z_]+$/.test(action))
    v.fail('action', 'must be an action such as read_records');
  if (from && to && to < from) v.fail('to', 'must not be before from');
  v.done();
  const filter: AuditFilter = {
    userId,
    patientId,
    action,
    since: from ? clinicInstant(from, '00:00', timeZone) : undefined,
    until: to ? clinicInstant(addDays(to, 1), '00:00', timeZone) : undefined,
  };
  const given = { user_id: userId, patient_id: patientId, action, from, to };
  const asGiven = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as FilterJson;
  return { filter, asGiven };
}

/** Admins see who read or changed data, newest first, filtered; reading the trail is itself audited. */
export async function listAuditEntries(deps: AuditDeps, query: unknown, actor: Actor): Promise<Page<AuditEntryJson>> {
  requireAdmin(actor);
  const input = asRecord(query);
  const { filter, asGiven } = readFilter(input, deps.timeZone);
  const request = pageRequest(input);
  const page = await deps.auditRows.list(filter, request);
  await deps.audit.record({
    actor,
    action: 'list',
    entity: 'audit_log',
    details: { ...asGiven, page: request.page, per_page: request.perPage },
  });
  return { ...page, items: page.items.map(auditEntryJson) };
}

const CSV_COLUMNS = [
  'id',
  'at',
  'actor_id',
  'actor_name',
  'actor_role',
  'action',
  'entity',
  'entity_id',
  'patient_id',
  'request_id',
  'details',
];

/** The filtered trail as a CSV file, newest first; the export is audited with its filters and size. */
export async function exportAuditCsv(
  deps: AuditDeps,
  query: unknown,
  actor: Actor,
): Promise<{ filename: string; csv: string }> {
  requireAdmin(actor);
  const { filter, asGiven } = readFilter(asRecord(query), deps.timeZone);
  const rows = await deps.auditRows.rows(filter, MAX_EXPORT_ROWS + 1);
  checkExportSize(rows.length, 'entries');
  await deps.audit.record({ actor, action: 'export', entity: 'audit_log', details: { ...asGiven, rows: rows.length } });
  const csv = csvRecord(CSV_COLUMNS) + rows.map(csvRow).join('');
  return { filename: `medora-audit-${clinicToday(deps.clock, deps.timeZone)}.csv`, csv };
}

const csvRow = (row: AuditRow) =>
  csvRecord([
    row.id,
    row.at.toISOString(),
    row.actor?.id,
    row.actor?.name,
    row.actor?.role,
    row.action,
    row.entity,
    row.entityId,
    row.patientId,
    row.requestId,
    row.details ? JSON.stringify(row.details) : null,
  ]);

/** What `medora audit verify` found: the sealed chain, the rows waiting to be sealed, and whether they wait too long. */
export interface TrailCheck {
  chain: ChainCheck;
  backlog: SealBacklog;
  /** A row has waited longer than allowed: no sealer is at work. */
  stalled: boolean;
}

/** `medora audit verify`: whether every sealed row is as written and none is missing or slipped in, and sealing goes on. */
export async function verifyTrail(
  deps: AuditDeps,
  maxUnsealedSeconds = DEFAULT_MAX_UNSEALED_SECONDS,
): Promise<TrailCheck> {
  const chain = await deps.trail.verify();
  const backlog = await deps.trail.backlog();
  return { chain, backlog, stalled: (backlog.oldestAgeSeconds ?? 0) > maxUnsealedSeconds };
}

/** One turn of the sealer: the committed rows waiting, up to a batch, sealed into the chain (null: another's turn). */
export const sealTrail = (deps: AuditDeps): Promise<number | null> => deps.trail.seal(SEAL_BATCH_ROWS);

/** Failed sign-ins that named no account are kept `anonymousRetentionDays`; deletes the older ones. */
/** A signed-in user asking for a part of Medora their role may not use (`attempt`: the method and route), recorded. */
export async function recordWrongRole(deps: Pick<AuditDeps, 'audit'>, actor: Actor, attempt: string): Promise<void> {
  await deps.audit.record({
    actor,
    action: 'refused',
    entity: 'route',
    requestId: actor.requestId,
    details: { attempt, reason: 'role' },
  });
}

export async function pruneAnonymousFailures(deps: AuditDeps): Promise<{ removed: number; olderThanDays: number }> {
  const days = deps.anonymousRetentionDays;
  return {
    removed: await deps.trail.pruneAnonymous(new Date(deps.clock.now().getTime() - days * 86_400_000)),
    olderThanDays: days,
  };
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
