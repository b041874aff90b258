import type { CareTeam } from '../care/ports.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { Clock } from '../shared/clock.ts';
import type { Scope } from './access.ts';
import type { FhirContext } from './fhir.ts';
import type { FhirRows, StoredType } from './resources.ts';
import type { Criterion, SortOrder } from './search-request.ts';

export interface StoreQuery {
  criteria: Criterion[];
  sort: SortOrder;
  count: number;
  /** A `next` link's cursor, as this store made it. */
  cursor?: string;
  total: boolean;
  scope: Scope;
  /** Slots only: the clinic's dates to make them for, both included. */
  dates?: { from: string; to: string };
}

export interface StorePage<Row> {
  rows: Row[];
  /** The cursor of the page after this one, when there is one. */
  next?: string;
  /** Every row the criteria and scope select, when asked for. */
  total?: number;
}

/** The rows behind FHIR's resources, searched in SQL and paged by a keyset cursor. A malformed cursor is `invalid`. */
export interface FhirStore {
  search<T extends StoredType>(type: T, query: StoreQuery): Promise<StorePage<FhirRows[T]>>;
}

export interface FhirDeps {
  store: FhirStore;
  audit: AuditLog;
  /** Whose care team a doctor is in (domain/care): the break-the-glass reason each read of theirs went through. */
  careTeam: CareTeam;
  clock: Clock;
  timeZone: string;
  clinic: FhirContext['clinic'];
}

/** A system export (Bulk Data's `GET [base]/$export`) as stored: asked for by an admin, worked by a background job. */
export interface ExportJob {
  id: number;
  requestedBy: number;
  /** The kick-off URL, as the manifest repeats it. */
  request: string;
  /** The FHIR base and the systems' base of the request, for the resources' links and the files' URLs. */
  base: string;
  systems: string;
  /** The types to write, in order. */
  types: string[];
  since: Date | null;
  transactionTime: Date;
  status: 'pending' | 'running' | 'done' | 'failed' | 'expired';
  error: string | null;
  /** A finished job's: when its files are deleted (EXPORT_RETENTION_HOURS after it finished). */
  expiresAt: Date | null;
  /** The types written so far, each one file. */
  files: { type: string; count: number }[];
}

export type NewExportJob = Omit<ExportJob, 'id' | 'status' | 'error' | 'expiresAt' | 'files'>;

export interface ExportJobs {
  create(job: NewExportJob): Promise<number>;
  find(id: number): Promise<ExportJob | undefined>;
  /** Deletes the job and its files; false when there was none. */
  remove(id: number): Promise<boolean>;
  /**
   * Each answers false when `holder` no longer holds the job (cancelled, taken over), and writes nothing then.
   * `clearFile` deletes what an earlier worker wrote of a type's file without finishing it; `saveChunk` adds the
   * next lines; `saveFile` marks the file written with its count.
   */
  clearFile(holder: string, id: number, type: string): Promise<boolean>;
  saveChunk(holder: string, id: number, type: string, seq: number, lines: string): Promise<boolean>;
  saveFile(holder: string, id: number, type: string, count: number): Promise<boolean>;
  /** Marks the job finished at `at`, its files kept until `expiresAt`. */
  finish(
    holder: string,
    id: number,
    outcome: ({ status: 'done' } | { status: 'failed'; error: string }) & { at: Date; expiresAt: Date },
  ): Promise<void>;
  /** Deletes the files of the finished jobs expired at `now` and marks them expired; answers their ids. */
  expire(now: Date): Promise<number[]>;
  /** A file's NDJSON, a chunk at a time. */
  chunks(id: number, type: string): AsyncGenerator<string>;
}
