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
