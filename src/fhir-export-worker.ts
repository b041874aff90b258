import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from './app.ts';
import type { Config } from './config.ts';
import type { Queryable } from './db/db.ts';
import { exportJobQueue } from './db/fhir-export.pg.ts';
import { type LeaseWorker, newWorkerId, startLeaseWorker } from './outbox/lease-worker.ts';

/**
 * The system exports' worker of `medora serve` and `medora worker`: claims a job under the outboxes' lease and
 * writes its files; a job whose worker died (a restart) is taken over once its lease runs out, from the types left.
 * Each round first deletes the files of the finished jobs past EXPORT_RETENTION_HOURS.
 */
export function startExportWorker(
  app: App,
  db: Queryable,
  config: Pick<Config, 'outboxPollMs' | 'outboxLeaseMs' | 'exportPauseMs'>,
  log: (line: string) => void,
): LeaseWorker {
  const holder = newWorkerId();
  const stopping = new AbortController();
  const worker = startLeaseWorker({
    name: 'export',
    queue: exportJobQueue(db),
    clock: app.clock,
    pollMs: config.outboxPollMs,
    leaseMs: config.outboxLeaseMs,
    concurrency: 1,
    workerId: holder,
    beforeRound: () => app.fhirExport.expireSystemExports(),
    deliver: (job) =>
      app.fhirExport.runSystemExport({
        id: job.id,
        holder,
        between: async () => {
          if (config.exportPauseMs > 0)
            await sleep(config.exportPauseMs, undefined, { signal: stopping.signal }).catch(() => {});
          return !stopping.signal.aborted;
        },
      }),
    log,
  });
  return {
    runOnce: worker.runOnce,
    stop: () => {
      stopping.abort();
      return worker.stop();
    },
  };
}
