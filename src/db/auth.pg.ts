import type { AccountStore, SessionStore, SessionUser, Throttle, UserRecord } from '../domain/auth/ports.ts';
import { inNewWindow } from '../domain/auth/throttle.ts';
import type { Db, Queryable, Row } from './db.ts';
import { onUnique } from './sql-errors.ts';

const SESSION_USER_COLUMNS = 'u.id, u.name, u.email, u.role, u.active, u.profile_image_id, p.id as patient_id, d.id as doctor_id';
const USER_COLUMNS = `${SESSION_USER_COLUMNS}, u.password_hash`;
const USER_FROM = `users u left join patients p on p.user_id = u.id left join doctors d on d.user_id = u.id`;

const EMAIL_TAKEN = { users_email_key: { code: 'email_taken', field: 'email', message: 'This email is already registered' } };

export function toUser(row: Row): UserRecord {
  return { ...toSessionUser(row), passwordHash: row.password_hash };
}

function toSessionUser(row: Row): SessionUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    active: row.active,
    profileImageId: row.profile_image_id,
    patientId: row.patient_id ?? null,
    doctorId: row.doctor_id ?? null,
  };
}

export function accountStore(db: Queryable): AccountStore {
  const findOne = async (where: string, param: unknown) => {
    const [row] = await db.query(`select ${USER_COLUMNS} from ${USER_FROM} where ${where}`, [param]);
    return row ? toUser(row) : undefined;
  };
  return {
    findByEmail: (email) => findOne('lower(u.email) = lower($1)', email),
    findById: (id) => findOne('u.id = $1', id),
    createPatient: async (a) => {
      // One statement, so the user never exists without its patient row.
      const [row] = await onUnique(
        () =>
          db.query(
            `with u as (
               insert into users (name, email, password_hash, role) values ($1, $2, $3, 'patient')
               returning id, name, email, role, password_hash, active, profile_image_id
             ), p as (
               insert into patients (user_id, phone, birthdate, gender) select id, $4, $5, $6 from u returning id, user_id
             )
             select u.*, p.id as patient_id, null::integer as doctor_id from u join p on p.user_id = u.id`,
            [a.name, a.email, a.passwordHash, a.phone, a.birthdate, a.gender],
          ),
        EMAIL_TAKEN,
      );
      return toUser(row);
    },
    createAdmin: async (a) => {
      const [row] = await onUnique(
        () =>
          db.query(
            `insert into users (name, email, password_hash, role) values ($1, $2, $3, 'admin')
             returning id, name, email, role, password_hash, active, profile_image_id`,
            [a.name, a.email, a.passwordHash],
          ),
        EMAIL_TAKEN,
      );
      return toUser(row);
    },
  };
}

/** A session's user with the session's end, which a cache of lookups must respect. */
export interface SessionLookup {
  user: SessionUser;
  expiresAt: Date;
}

/** The sessions table: the port, and the lookup with the session's end that a cache needs. */
export interface SessionTable extends SessionStore {
  findSession(tokenHash: string, now: Date): Promise<SessionLookup | undefined>;
}

export function sessionStore(db: Queryable): SessionTable {
  const findSession = async (tokenHash: string, now: Date) => {
    const [row] = await db.query(
      `select ${SESSION_USER_COLUMNS}, s.expires_at from sessions s join ${USER_FROM} on u.id = s.user_id
       where s.token_hash = $1 and s.revoked_at is null and s.expires_at > $2 and u.active`,
      [tokenHash, now],
    );
    return row ? { user: toSessionUser(row), expiresAt: row.expires_at as Date } : undefined;
  };
  return {
    create: async (s) => {
      await db.query('insert into sessions (user_id, token_hash, expires_at) values ($1, $2, $3)', [s.userId, s.tokenHash, s.expiresAt]);
    },
    findSession,
    findUser: async (tokenHash, now) => (await findSession(tokenHash, now))?.user,
    revoke: async (tokenHash, now) => {
      await db.query('update sessions set revoked_at = $2 where token_hash = $1 and revoked_at is null', [tokenHash, now]);
    },
  };
}

/** Throttle counts, one row a key, locked while an attempt is reserved so racing attempts count one by one. */
export function throttleStore(db: Db): Throttle {
  return {
    reserve: (keys, now, wait) =>
      db.transaction(async (tx) => {
        // Sorted, so two attempts locking the same keys take them in one order and never deadlock.
        const names = keys.map((k) => k.key).sort();
        await tx.query('insert into throttle (key) select unnest($1::text[]) order by 1 on conflict (key) do nothing', [names]);
        const rows = await tx.query<{ key: string; failures: number; last_failure_at: Date | null }>(
          'select key, failures, last_failure_at from throttle where key = any($1) order by key for update',
          [names],
        );
        const buckets = new Map(rows.map((row) => [row.key, { failures: row.failures, lastFailureAt: row.last_failure_at }]));
        const seconds = wait(buckets);
        if (seconds > 0) return seconds;
        const restarting = keys.filter((k) => inNewWindow(buckets.get(k.key) ?? { failures: 0, lastFailureAt: null }, k.rule, now)).map((k) => k.key);
        await tx.query(
          `update throttle set failures = case when key = any($2) then 1 else failures + 1 end, last_failure_at = $3 where key = any($1)`,
          [names, restarting, now],
        );
        // Keys nobody has tried for a day say nothing any more; a scan of made-up e-mails must not grow the table forever.
        if (Math.random() < PRUNE_ONE_IN) await tx.query(`delete from throttle where last_failure_at < $1`, [new Date(now.getTime() - 86_400_000)]);
        return 0;
      }),
    succeeded: async (cleared, forgiven) => {
      await db.query('delete from throttle where key = any($1)', [cleared]);
      await db.query('update throttle set failures = greatest(failures - 1, 0) where key = any($1)', [forgiven]);
    },
  };
}
const PRUNE_ONE_IN = 0.01;
