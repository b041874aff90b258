/** The database as a server's health check and shutdown meet it; the Db adapter implements it. */
export interface DatabaseLifecycle {
  /** Whether the database answers within `withinMs`. */
  ready(withinMs: number): Promise<boolean>;
  /** Cancels the statements in flight and refuses new ones: a shutdown past its grace period. */
  interrupt(): Promise<void>;
}
