import type { Resource } from '@medplum/fhirtypes';
import type { AuditLog } from '../audit/audit.ts';
import type { Actor } from '../shared/actor.ts';
import { requireAdmin } from '../shared/actor.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import type { BulkManifest } from './bulk-files.ts';
import { ndjsonName } from './bulk-files.ts';
import { EXPORTED_TYPES, parseCompartmentFilter } from './compartment.ts';
import type { FhirContext } from './fhir.ts';
import type { ExportJob, ExportJobs, FhirDeps } from './ports.ts';
import { closureOf } from './referenced.ts';
import { referencesIn, type RefKey } from './references.ts';
import { rowsOf, type FhirCall, type Params } from './reading.ts';
import { isFhirType, type FhirType, type ResourceDef } from './resource-def.ts';
import { RESOURCES } from './resources.ts';
import { MAX_COUNT, type SearchRequest } from './search-request.ts';

/** What one transaction writes: a job and its audit rows. */
export interface ExportJobsTx {
  jobs: ExportJobs;
  audit: AuditLog;
}

export interface SystemExportDeps extends FhirDeps, ExportJobsTx {
  /** EXPORT_RETENTION_HOURS: how long a finished job's manifest and files are kept. */
  retentionHours: number;
  transaction<T>(fn: (tx: ExportJobsTx) => Promise<T>): Promise<T>;
}

/** A job's state as its status URL answers it (Bulk Data Access 2.0, "Status Request"), with when it expires. */
export type ExportStatus =
  | { state: 'running'; progress: string }
  | { state: 'done'; manifest: BulkManifest; expires: Date }
  | { state: 'failed'; error: string; expires: Date };

/** Where a job's files are read: absolute, under the FHIR base the export was asked for at (Bulk Data's manifest). */
const exportFileUrl = (base: string, id: number, type: string) => `${base}/$export-file/${id}/${ndjsonName(type)}`;

/**
 * `GET [base]/$export`: every resource of the clinic the types `_type` names (all a patient's record holds and the
 * directory it refers to, by default) changed at or after `_since`, written by a background job as one NDJSON file per
 * type. Admins only; the kick-off is audited, and answers the job's id.
 */
export async function startSystemExport(
  deps: SystemExportDeps,
  input: FhirCall & { params: Params; request: string },
  actor: Actor,
): Promise<number> {
  requireAdmin(actor);
  const filter = parseCompartmentFilter(
    input.params.filter(([name]) => name === '_type' || name === '_since'),
    deps.timeZone,
  );
  const types = EXPORTED_TYPES.filter((type) => filter.types?.has(type) ?? true);
  return deps.transaction(async (tx) => {
    const id = await tx.jobs.create({
      requestedBy: actor.userId,
      request: input.request,
      base: input.base,
      systems: input.systems,
      types,
      since: filter.since ?? null,
      transactionTime: deps.clock.now(),
    });
    await tx.audit.record({
      actor,
      action: 'export_system',
      entity: 'fhir_export',
      entityId: id,
      requestId: actor.requestId,
      details: { types, since: filter.since?.toISOString() ?? null },
    });
    return id;
  });
}

/**
 * The admin's own job; another's, or one cancelled, is missing. One past its expiry is missing too, saying so,
 * from the moment it expires (the worker deletes its files at its next round).
 */
async function ownJob(deps: SystemExportDeps, id: string, actor: Actor): Promise<ExportJob> {
  requireAdmin(actor);
  const job = /^[1-9]\d{0,15}$/.test(id) ? await deps.jobs.find(Number(id)) : undefined;
  if (!job || job.requestedBy !== actor.userId) throw notFound('Export');
  if (job.status === 'expired' || (job.expiresAt !== null && job.expiresAt <= deps.clock.now()))
    throw new DomainError(
      'not_found',
      'export_expired',
      `Export ${job.id} expired at ${job.expiresAt?.toISOString() ?? 'its end'} and its files were deleted: ` +
        'they are kept EXPORT_RETENTION_HOURS after the export finishes. Start a new export.',
    );
  return job;
}

export async function systemExportStatus(
  deps: SystemExportDeps,
  input: { id: string },
  actor: Actor,
): Promise<ExportStatus> {
  const job = await ownJob(deps, input.id, actor);
  if ((job.status !== 'done' && job.status !== 'failed') || job.expiresAt === null)
    return { state: 'running', progress: `${job.files.length} of ${job.types.length} types` };
  if (job.status === 'failed')
    return { state: 'failed', error: job.error ?? 'The export failed', expires: job.expiresAt };
  return {
    state: 'done',
    expires: job.expiresAt,
    manifest: {
      transactionTime: job.transactionTime.toISOString(),
      request: job.request,
      requiresAccessToken: true,
      output: job.files.map(({ type, count }) => ({ type, url: exportFileUrl(job.base, job.id, type), count })),
      error: [],
    },
  };
}

/**
 * DELETE on the status URL: a running job stops (its worker finds it gone), a finished one is deleted; either way
 * its files are deleted.
 */
export async function cancelSystemExport(deps: SystemExportDeps, input: { id: string }, actor: Actor): Promise<void> {
  const job = await ownJob(deps, input.id, actor);
  await deps.transaction(async (tx) => {
    if (!(await tx.jobs.remove(job.id))) throw notFound('Export');
    await tx.audit.record({
      actor,
      action: 'export_system_cancel',
      entity: 'fhir_export',
      entityId: job.id,
      requestId: actor.requestId,
      details: { status: job.status },
    });
  });
}

/**
 * The worker's round: deletes the files of every finished job whose retention ran out and marks it expired, each
 * audited in the same transaction; answers how many expired.
 */
export async function expireSystemExports(deps: SystemExportDeps): Promise<number> {
  return deps.transaction(async (tx) => {
    const ids = await tx.jobs.expire(deps.clock.now());
    if (ids.length > 0)
      await tx.audit.record(
        ...ids.map((id) => ({
          actor: null,
          action: 'export_system_expire',
          entity: 'fhir_export',
          entityId: id,
          details: { retentionHours: deps.retentionHours },
        })),
      );
    return ids.length;
  });
}

/** One finished file's NDJSON, a chunk at a time; a file not (yet) written is missing. */
export async function systemExportFile(
  deps: SystemExportDeps,
  input: { id: string; file: string },
  actor: Actor,
): Promise<AsyncGenerator<string>> {
  const job = await ownJob(deps, input.id, actor);
  const file = job.files.find(({ type }) => ndjsonName(type) === input.file);
  if (!file) throw notFound('Export file');
  return deps.jobs.chunks(job.id, file.type);
}

/** Lines per stored chunk: a few hundred kilobytes, all of a file that is held in memory at once. */
const CHUNK_LINES = 200;

/**
 * Works a claimed job to its end as `holder`: each type not written yet is written chunk by chunk and then marked
 * written, so a job taken over after a restart writes again only the types left. Stops quietly when the job is no
 * longer ours (cancelled, or its lease lost); `between` runs after each type and answers false to stop there (the
 * worker stopping: the job's lease runs out and a worker takes it over).
 */
export async function runSystemExport(
  deps: SystemExportDeps,
  input: { id: number; holder: string; between?: () => Promise<boolean> },
): Promise<void> {
  const job = await deps.jobs.find(input.id);
  if (!job || job.status === 'done' || job.status === 'failed') return;
  const { holder } = input;
  // The admin who asked: the job reads what they read, as they read it.
  const actor: Actor = { userId: job.requestedBy, role: 'admin', name: 'export', requestId: `export-${job.id}` };
  const ctx: FhirContext = { base: job.base, systems: job.systems, clinic: deps.clinic, clinical: true };
  const written = new Set(job.files.map((f) => f.type));
  try {
    for (const type of job.types) {
      if (written.has(type)) continue;
      if (!(await deps.jobs.clearFile(holder, job.id, type))) return;
      let lines: string[] = [];
      let seq = 0;
      let count = 0;
      const flush = async () => {
        const held = await deps.jobs.saveChunk(holder, job.id, type, seq++, lines.join(''));
        lines = [];
        return held;
      };
      for await (const resource of typeResources(deps, actor, ctx, job, type)) {
        lines.push(`${JSON.stringify(resource)}\n`);
        count += 1;
        if (lines.length === CHUNK_LINES && !(await flush())) return;
      }
      if (lines.length > 0 && !(await flush())) return;
      // A type with no resources gets no file (Bulk Data lists only files with resources).
      if (count > 0 && !(await deps.jobs.saveFile(holder, job.id, type, count))) return;
      if (input.between && !(await input.between())) return;
    }
  } catch (error) {
    await deps.jobs.finish(holder, job.id, {
      status: 'failed',
      error: error instanceof Error ? error.message : String(error),
      ...finishedNow(deps),
    });
    return;
  }
  await deps.jobs.finish(holder, job.id, { status: 'done', ...finishedNow(deps) });
}

const HOUR_MS = 3_600_000;

/** A job finishing now, and when its files go. */
function finishedNow(deps: SystemExportDeps): { at: Date; expiresAt: Date } {
  const at = deps.clock.now();
  return { at, expiresAt: new Date(at.getTime() + deps.retentionHours * HOUR_MS) };
}

const changedSince = (resource: Resource, since: Date | null) => {
  const updated = resource.meta?.lastUpdated;
  return since === null || updated === undefined || Date.parse(updated) >= since.getTime();
};

/**
 * Every resource of `type` changed since the job's `_since`. Slots are made from schedules rather than stored, so
 * only those the exported appointments take are written: the export stays self-contained without endless slots.
 */
async function* typeResources(
  deps: FhirDeps,
  actor: Actor,
  ctx: FhirContext,
  job: ExportJob,
  type: string,
): AsyncGenerator<Resource> {
  if (!isFhirType(type)) return;
  if (type === 'Slot') {
    const refs: RefKey[] = [];
    for await (const appointment of allOf(deps, ctx, 'Appointment'))
      if (changedSince(appointment, job.since)) refs.push(...referencesIn(appointment));
    const slots = await closureOf(deps, actor, ctx, new Set(), refs, (t) => t === 'Slot');
    for (const { resource } of slots) yield resource;
    return;
  }
  for await (const resource of allOf(deps, ctx, type)) if (changedSince(resource, job.since)) yield resource;
}

async function* allOf(deps: FhirDeps, ctx: FhirContext, type: Exclude<FhirType, 'Slot'>): AsyncGenerator<Resource> {
  const def = RESOURCES[type] as ResourceDef<unknown>;
  const everything: SearchRequest = {
    criteria: [],
    matchesNothing: false,
    count: MAX_COUNT,
    sort: { key: '_id', descending: false },
    total: false,
    ignored: [],
  };
  let cursor: string | undefined;
  do {
    const page = await rowsOf(deps, type, { ...everything, cursor }, { kind: 'all' });
    for (const row of page.rows) yield def.toFhir(row, ctx);
    cursor = page.next;
  } while (cursor !== undefined);
}
