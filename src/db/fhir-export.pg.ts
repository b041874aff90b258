import type { ExportJob, ExportJobs, NewExportJob } from '../domain/fhir/ports.ts';
import type { Claimed, LeaseQueue } from '../outbox/lease-worker.ts';
import type { Queryable } from './db.ts';

interface JobRow {
  id: string | number;
  requested_by: number;
  request: string;
  base: string;
  systems: string;
  types: string[];
  since: Date | null;
  transaction_time: Date;
  status: ExportJob['status'];
  error: string | null;
  expires_at: Date | null;
}

/** The system exports' jobs and their files, in chunks of NDJSON (migration 0054). */
export function exportJobStore(db: Queryable): ExportJobs {
  return {
    create: async (job: NewExportJob) => {
      const [row] = await db.query<{ id: string | number }>(
        `insert into fhir_export_jobs (requested_by, request, base, systems, types, since, transaction_time)
         values ($1, $2, $3, $4, $5, $6, $7) returning id`,
        [job.requestedBy, job.request, job.base, job.systems, job.types, job.since, job.transactionTime],
      );
      return Number(row?.id);
    },
    find: async (id) => {
      const [row] = await db.query<JobRow>(
        `select id, requested_by, request, base, systems, types, since, transaction_time, status, error, expires_at
         from fhir_export_jobs where id = $1`,
        [id],
      );
      if (!row) return undefined;
      const files = await db.query<{ type: string; count: number }>(
        'select type, count from fhir_export_files where job_id = $1',
        [id],
      );
      const order = (type: string) => row.types.indexOf(type);
      return {
        id: Number(row.id),
        requestedBy: row.requested_by,
        request: row.request,
        base: row.base,
        systems: row.systems,
        types: row.types,
        since: row.since,
        transactionTime: row.transaction_time,
        status: row.status,
        error: row.error,
        expiresAt: row.expires_at,
        files: files.sort((a, b) => order(a.type) - order(b.type)),
      };
    },
    remove: async (id) => (await db.query('delete from fhir_export_jobs where id = $1 returning id', [id])).length > 0,
    clearFile: async (holder, id, type) =>
      (
        await db.query(
          `with held as (select id from fhir_export_jobs where id = $1 and locked_by = $2 and status = 'running'),
                cleared as (delete from fhir_export_chunks where job_id in (select id from held) and type = $3)
           select id from held`,
          [id, holder, type],
        )
      ).length > 0,
    saveChunk: async (holder, id, type, seq, lines) =>
      (
        await db.query(
          `insert into fhir_export_chunks (job_id, type, seq, lines)
           select id, $3, $4, $5 from fhir_export_jobs where id = $1 and locked_by = $2 and status = 'running'
           returning seq`,
          [id, holder, type, seq, lines],
        )
      ).length > 0,
    saveFile: async (holder, id, type, count) =>
      (
        await db.query(
          `insert into fhir_export_files (job_id, type, count)
           select id, $3, $4 from fhir_export_jobs where id = $1 and locked_by = $2 and status = 'running'
           returning type`,
          [id, holder, type, count],
        )
      ).length > 0,
    finish: async (holder, id, outcome) => {
      await db.query(
        `update fhir_export_jobs
         set status = $3, error = $4, finished_at = $5, expires_at = $6, locked_by = null, lease_until = null
         where id = $1 and locked_by = $2 and status = 'running'`,
        [id, holder, outcome.status, outcome.status === 'failed' ? outcome.error : null, outcome.at, outcome.expiresAt],
      );
    },
    expire: async (now) => {
      const rows = await db.query<{ id: string | number }>(
        `with expired as (
           update fhir_export_jobs set status = 'expired'
           where status in ('done', 'failed') and expires_at <= $1 returning id),
         files as (delete from fhir_export_files where job_id in (select id from expired)),
         chunks as (delete from fhir_export_chunks where job_id in (select id from expired))
         select id from expired order by id`,
        [now],
      );
      return rows.map((r) => Number(r.id));
    },
    chunks: async function* (id, type) {
      // One chunk a query: a file is never held whole in memory.
      for (let seq = 0; ; seq++) {
        const [chunk] = await db.query<{ lines: string }>(
          'select lines from fhir_export_chunks where job_id = $1 and type = $2 and seq = $3',
          [id, type, seq],
        );
        if (!chunk) return;
        yield chunk.lines;
      }
    },
  };
}

/** The jobs as the lease worker claims them: pending ones, and running ones whose worker's lease ran out. */
export function exportJobQueue(db: Queryable): LeaseQueue<Claimed> {
  return {
    claim: async (holder, now, leaseUntil, limit, sending) => {
      const rows = await db.query<{ id: string | number; attempts: number }>(
        `update fhir_export_jobs set status = 'running', locked_by = $1, lease_until = $3, attempts = attempts + 1
         where id in (
           select id from fhir_export_jobs
           where (status = 'pending' or (status = 'running' and lease_until <= $2)) and id <> all($5::bigint[])
           order by id limit $4 for update skip locked)
         returning id, attempts`,
        [holder, now, leaseUntil, limit, sending],
      );
      return rows.map((r) => ({ id: Number(r.id), attempts: r.attempts }));
    },
    renew: async (holder, ids, leaseUntil) => {
      if (ids.length === 0) return [];
      const rows = await db.query<{ id: string | number }>(
        `update fhir_export_jobs set lease_until = $3
         where id = any($2::bigint[]) and locked_by = $1 and status = 'running' returning id`,
        [holder, ids, leaseUntil],
      );
      return rows.map((r) => Number(r.id));
    },
  };
}
