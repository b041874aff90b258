/** The database as a server's health check, read requests and shutdown meet it; the Db adapter implements it. */
export interface DatabaseLifecycle {
  /** Whether the database answers within `withinMs`. */
  ready(withinMs: number): Promise<boolean>;
  /** Runs a read request's work under read requests' short lock wait. */
  reading<T>(work: () => Promise<T>): Promise<T>;
  /** Cancels the statements in flight and refuses new ones: a shutdown past its grace period. */
  interrupt(): Promise<void>;
}
