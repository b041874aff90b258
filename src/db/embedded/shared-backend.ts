import { protocol, type PGlite } from '@electric-sql/pglite';

// Other clients wait behind the server's requests and each other's transactions, which the idle limit bounds.
const TURN_WAIT_MS = 60_000;

/** What one client of the shared backend changed in it, to be put back before its next turn and undone after. */
export interface Session {
  /** Session-level settings (SET, set_config) the client made, as name and value. */
  settings: [string, string][];
  /** Prepared statements the client made with SQL PREPARE. */
  sqlPrepared: Set<string>;
}

/** The line the server's own statements wait in (`pgliteDb`), which every other client joins. */
export interface TurnLine {
  /** Resolves once the caller may use the backend alone; call the returned function to let others in. */
  takeTurn(timeoutMs: number): Promise<() => void>;
  /** Told as a client's statement starts, with its time limit; the returned function is called when it ends. */
  watch?(limitMs: number): () => void;
}

/**
 * PGlite is one PostgreSQL backend. The server's own statements and transactions already take turns on it
 * (`pgliteDb`); other clients — socket connections and pg_dump — take their turns in the same line, for as long
 * as their transaction lasts, so no statement ever runs inside another client's transaction. Session state is per backend, not per client: what a client
 * sets (pg_dump sets `search_path = ''`, which would break every unqualified query of the server) is undone
 * at the end of each of its turns and set again at the start of the next.
 */
export class SharedBackend {
  private readonly preparedBy = new Map<string, Session>();

  /** `line` is the one the server's own statements on `pglite` wait in. */
  constructor(
    readonly pglite: PGlite,
    private readonly line: TurnLine,
  ) {}

  /** Resolves once this client may use the backend alone; call the returned function to let others in. */
  takeTurn(): Promise<() => void> {
    return this.line.takeTurn(TURN_WAIT_MS);
  }

  /**
   * Raw protocol messages in, raw backend messages out; only during the caller's turn. A client's statements name
   * their time limit, which the line watches (PGlite itself has no statement_timeout).
   */
  async exchange(message: Uint8Array, limitMs?: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const ended = limitMs === undefined ? undefined : this.line.watch?.(limitMs);
    try {
      await this.pglite.runExclusive(() =>
        this.pglite.execProtocolRawStream(message, { onRawData: (data) => chunks.push(Buffer.from(data)) }),
      );
    } finally {
      ended?.();
    }
    return Buffer.concat(chunks);
  }

  /** One simple-protocol statement as rows of text (`C` names its columns); only during the caller's turn. */
  async query<C extends string = string>(sql: string): Promise<Record<C, string | null>[]> {
    const { messages } = await this.pglite.runExclusive(() => this.pglite.execProtocol(protocol.serialize.query(sql)));
    let columns: string[] = [];
    const rows: Record<C, string | null>[] = [];
    for (const message of messages) {
      if (message instanceof protocol.messages.RowDescriptionMessage)
        columns = message.fields.map((field) => field.name);
      if (message instanceof protocol.messages.DataRowMessage) {
        rows.push(
          Object.fromEntries(columns.map((name, i) => [name, message.fields[i] ?? null])) as Record<C, string | null>,
        );
      }
    }
    return rows;
  }

  newSession(): Session {
    return { settings: [], sqlPrepared: new Set() };
  }

  /** At the start of a turn: the client's own settings again. */
  async resume(session: Session): Promise<void> {
    if (session.settings.length === 0) return;
    const values = session.settings.map(([name, value]) => `(${literal(name)}, ${literal(value)})`).join(', ');
    await this.query(`select set_config(n, v, false) from (values ${values}) as s(n, v)`);
  }

  /**
   * At the end of a turn, with no transaction open: remembers what the client may have changed (`changed` says
   * whether it ran a statement that can) and gives the backend back as the server expects it.
   */
  async pause(session: Session, changed: boolean): Promise<void> {
    if (changed) await this.remember(session);
    if (session.settings.length > 0) await this.query('reset all');
  }

  /** When a client goes: its transaction rolled back, its statements and settings gone. Call during a turn. */
  async end(session: Session, protocolStatements: Iterable<string>, changed: boolean): Promise<void> {
    if (this.pglite.isInTransaction()) await this.query('rollback');
    if (changed) await this.remember(session);
    const existing = new Set(
      (await this.query<'name'>('select name from pg_prepared_statements')).flatMap((row) => row.name ?? []),
    );
    const names = [...protocolStatements, ...session.sqlPrepared].filter((name) => existing.has(name));
    if (names.length > 0) await this.query(names.map((name) => `deallocate ${identifier(name)}`).join('; '));
    for (const name of session.sqlPrepared) this.forget(session, name);
    session.settings = [];
    await this.query('reset all');
  }

  private async remember(session: Session): Promise<void> {
    session.settings = settingPairs(
      await this.query<'name' | 'setting'>(
        `select name, setting from pg_settings where source = 'session' and name not like 'transaction\\_%'`,
      ),
    );
    const prepared = new Set(
      (await this.query<'name'>('select name from pg_prepared_statements where from_sql')).flatMap(
        (row) => row.name ?? [],
      ),
    );
    for (const name of session.sqlPrepared) if (!prepared.has(name)) this.forget(session, name);
    for (const name of prepared) {
      if (!this.preparedBy.has(name)) {
        this.preparedBy.set(name, session);
        session.sqlPrepared.add(name);
      }
    }
  }

  private forget(session: Session, name: string): void {
    session.sqlPrepared.delete(name);
    if (this.preparedBy.get(name) === session) this.preparedBy.delete(name);
  }
}

/** Whether SQL text may change session state: SET, RESET, DISCARD, PREPARE, DEALLOCATE or set_config(). */
export function mayChangeSession(sql: string): boolean {
  return /(^|;)\s*(set|reset|discard|prepare|deallocate)\b/i.test(sql) || /set_config/i.test(sql);
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** `name, setting` rows of pg_settings as pairs; pg_settings names every row, so none is dropped in practice. */
export const settingPairs = (rows: Record<'name' | 'setting', string | null>[]): [string, string][] =>
  rows.flatMap((row): [string, string][] => (row.name === null ? [] : [[row.name, row.setting ?? '']]));
