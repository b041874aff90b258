import type { App } from '../app.ts';
import type { Db } from '../db/db.ts';

/** The app over the configured database, opened by the first command that needs it; the same one after. */
export type GetApp = () => Promise<App>;
/** The database that app runs on, for the few commands that work on it directly (its roles, the outbox's worker). */
export type GetDb = () => Promise<Db>;

/** Where the CLI writes: process.stdout and process.stderr in the real process, captured text in tests. */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: Output;
  stderr: Output;
  stdin: AsyncIterable<string | Uint8Array>;
}

/** What each command group registers with. */
export interface Cli {
  getApp: GetApp;
  getDb: GetDb;
  io: CliIo;
}

export const writeLine = (out: Output, text: string): void => void out.write(`${text}\n`);
