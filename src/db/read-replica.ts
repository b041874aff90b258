import type { Db, Queryable } from './db.ts';
import { DomainError } from '../domain/shared/errors.ts';

/** How often the replica's lag is asked, at most; the reads in between go where the last answer sent them. */
const LAG_CHECK_MS = 1000;

/** Where lag-tolerant reads go now, for a test or a log. */
export interface LagTolerantReads extends Queryable {
  /** Whether the next read goes to the replica (it answered and was within the allowed lag when last asked). */
  onReplica(): Promise<boolean>;
}

/**
 * The reads that tolerate seconds of lag (reports, statistics, the census, exports, FHIR search, the audit screen),
 * on a streaming replica while it answers and is at most `maxLagS` behind, else on the primary. Never for a read that
 * guards a write or reads what the same request or user just wrote: those stay on the primary (app.ts chooses).
 * A read the replica fails with an outage (or cancels for a conflict with its recovery) runs on the primary at
 * once; after an outage the replica is asked again a second later.
 */
export function replicaReads(primary: Db, replica: Db, maxLagS: number): LagTolerantReads {
  let usable = false;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<void> | undefined;
  const check = () => {
    checking ??= replica
      .query<{ lag: number | null }>(
        // Caught up (all received WAL replayed) is no lag, however long ago the primary last wrote; a replica that
        // is not one (promoted, or the primary itself) is none either.
        `select case when not pg_is_in_recovery() then 0
                     when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
                     else extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 end as lag`,
      )
      .then(
        ([row]) => {
          const lag = row?.lag ?? Number.POSITIVE_INFINITY;
          if (usable && lag > maxLagS)
            console.error(`database: the replica is ${lag} s behind; reading from the primary`);
          usable = lag <= maxLagS;
        },
        () => {
          if (usable) console.error('database: the replica does not answer; reading from the primary');
          usable = false;
        },
      )
      .finally(() => {
        checkedAt = performance.now();
        checking = undefined;
      });
    return checking;
  };
  const onReplica = async () => {
    if (performance.now() - checkedAt >= LAG_CHECK_MS) await check();
    return usable;
  };
  return {
    onReplica,
    query: async <T extends object>(sql: string, params?: unknown[]) => {
      if (!(await onReplica())) return primary.query<T>(sql, params);
      try {
        return await replica.query<T>(sql, params);
      } catch (error) {
        // Away, or the read cancelled by a conflict with the replica's recovery (a vacuum replayed under it).
        const code = error instanceof DomainError ? error.code : '';
        if (code !== 'database_unavailable' && code !== 'database_conflict') throw error;
        if (code === 'database_unavailable') {
          usable = false;
          checkedAt = performance.now();
        }
        return primary.query<T>(sql, params);
      }
    },
    exec: (sql) => primary.exec(sql),
  };
}
