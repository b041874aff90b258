import type {
  AccountStore,
  NewPatientAccount,
  StaffRole,
  ChallengeStore,
  MfaStore,
  PasswordResetStore,
  SessionLookup,
  SessionStore,
  SessionUser,
  Throttle,
  UserRecord,
} from '../domain/auth/ports.ts';
import { inNewWindow } from '../domain/auth/throttle.ts';
import type { Role } from '../domain/shared/actor.ts';
import type { Db, Queryable } from './db.ts';
import { onlyRow } from './rows.ts';
import { onUnique } from './sql-errors.ts';
import { conflict, invalid } from '../domain/shared/errors.ts';
import { pageWithTotal } from './list-page.ts';
import { containsPattern } from '../domain/shared/pagination.ts';

const SESSION_USER_COLUMNS =
  'u.id, u.name, u.email, u.role, u.active, u.profile_image_id, p.id as patient_id, d.id as doctor_id, n.department_id as ward_id';
const USER_COLUMNS = `${SESSION_USER_COLUMNS}, u.password_hash`;
const USER_FROM = `users u left join patients p on p.user_id = u.id left join doctors d on d.user_id = u.id
  left join nurses n on n.user_id = u.id`;

const TAKEN = { code: 'email_taken', field: 'email', message: 'This email is already registered' };
const EMAIL_TAKEN = { users_email_key: TAKEN, users_pending_email_key: TAKEN };

/** A row of SESSION_USER_COLUMNS; patient_id, doctor_id and ward_id are null but for that role. */
interface SessionUserRow {
  id: number;
  name: string;
  email: string;
  role: Role;
  active: boolean;
  profile_image_id: number | null;
  patient_id: number | null;
  doctor_id: number | null;
  ward_id: number | null;
}

/** A row of USER_COLUMNS. */
interface UserRow extends SessionUserRow {
  password_hash: string;
}

export function toUser(row: UserRow): UserRecord {
  return { ...toSessionUser(row), passwordHash: row.password_hash };
}

function toSessionUser(row: SessionUserRow): SessionUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    active: row.active,
    profileImageId: row.profile_image_id,
    patientId: row.patient_id,
    doctorId: row.doctor_id,
    wardId: row.ward_id,
  };
}

export function accountStore(db: Queryable): AccountStore {
  const findOne = async (where: string, param: unknown) => {
    const [row] = await db.query<UserRow>(`select ${USER_COLUMNS} from ${USER_FROM} where ${where}`, [param]);
    return row ? toUser(row) : undefined;
  };
  return {
    findByEmail: (email) => findOne('lower(u.email) = lower($1)', email),
    findById: (id) => findOne('u.id = $1', id),
    createPatient: async (a) => toUser(await insertPatient(db, { ...a, pendingEmail: null })),
    createWalkIn: async (a) => {
      if (a.pendingEmail !== null && (await findOne('lower(u.email) = lower($1)', a.pendingEmail)))
        throw conflict(TAKEN.code, TAKEN.message, { email: [TAKEN.message] });
      const row = await insertPatient(db, { ...a, email: null });
      return { userId: row.id, patientId: row.patient_id };
    },
    createAdmin: (a) => insertStaff(db, { ...a, role: 'admin' }),
    createStaff: (a) => insertStaff(db, a),
    createNurse: async (a) => {
      const user = await insertStaff(db, { ...a, role: 'nurse' });
      const [department] = await db.query<{ id: number; name: string }>(
        `with n as (insert into nurses (user_id, department_id) select $1, id from departments where id = $2 returning department_id)
         select d.id, d.name from n join departments d on d.id = n.department_id`,
        [user.id, a.departmentId],
      );
      if (!department) throw invalid({ department_id: ['is not a department'] });
      return { user: { ...user, wardId: department.id }, department };
    },
    listStaff: (role, req) =>
      pageWithTotal(
        db,
        req,
        {
          columns:
            'u.id, u.name, u.email, u.active, u.created_at, dep.id as department_id, dep.name as department_name',
          rowsOf: `from users u left join nurses n on n.user_id = u.id left join departments dep on dep.id = n.department_id
                   where u.role = $1 ${req.q ? 'and (lower(u.name) like $2 or lower(u.email) like $2)' : ''}`,
          countOf: `from users u where u.role = $1 ${req.q ? 'and (lower(u.name) like $2 or lower(u.email) like $2)' : ''}`,
          orderBy: 'u.active desc, lower(u.name), u.id',
          params: req.q ? [role, containsPattern(req.q)] : [role],
        },
        (row: {
          id: number;
          name: string;
          email: string;
          active: boolean;
          created_at: Date;
          department_id: number | null;
          department_name: string | null;
        }) => ({
          id: row.id,
          name: row.name,
          email: row.email,
          active: row.active,
          createdAt: row.created_at,
          department:
            row.department_id === null || row.department_name === null
              ? null
              : { id: row.department_id, name: row.department_name },
        }),
      ),
    deactivateStaff: async (userId, role) => {
      // Its sessions end with it: every session lookup asks for an active user (and 0004 tells the caches).
      const rows = await db.query<{ id: number }>(
        'update users set active = false, updated_at = now() where id = $1 and role = $2 returning id',
        [userId, role],
      );
      return rows.length > 0;
    },
    markVerified: async (userId, email, at) => {
      const rows = await db.query(
        'update users set email_verified_at = $3 where id = $1 and lower(email) = lower($2) returning id',
        [userId, email, at],
      );
      return rows.length > 0;
    },
    emailChange: async (userId) => {
      const [row] = await db.query<{ email: string | null; pending_email: string }>(
        'select email, pending_email from users where id = $1 and pending_email is not null',
        [userId],
      );
      return row && { current: row.email, pending: row.pending_email };
    },
    confirmEmailChange: async (userId, email, at) => {
      const rows = await onUnique(
        () =>
          db.query(
            `update users set email = pending_email, pending_email = null, email_verified_at = $3, updated_at = now()
             where id = $1 and lower(pending_email) = lower($2) returning id`,
            [userId, email, at],
          ),
        EMAIL_TAKEN,
      );
      return rows.length > 0;
    },
    setPassword: async (userId, passwordHash) => {
      // Migration 0009's trigger ends the user's sessions in the same statement.
      await db.query('update users set password_hash = $2, updated_at = now() where id = $1', [userId, passwordHash]);
    },
  };
}

/** The user and its patient row in one statement, so the user never exists without it. */
async function insertPatient(
  db: Queryable,
  a: Omit<NewPatientAccount, 'email'> & { email: string | null; pendingEmail: string | null },
): Promise<UserRow & { patient_id: number }> {
  const rows = await onUnique(
    () =>
      db.query<UserRow & { patient_id: number }>(
        `with u as (
           insert into users (name, email, pending_email, password_hash, role) values ($1, $2, $7, $3, 'patient')
           returning id, name, email, role, password_hash, active, profile_image_id
         ), p as (
           insert into patients (user_id, phone, birthdate, gender) select id, $4, $5, $6 from u returning id, user_id
         )
         select u.*, p.id as patient_id, null::integer as doctor_id, null::integer as ward_id from u join p on p.user_id = u.id`,
        [a.name, a.email, a.passwordHash, a.phone, a.birthdate, a.gender, a.pendingEmail],
      ),
    EMAIL_TAKEN,
  );
  return onlyRow(rows);
}

/** An admin or a receptionist: staff sign in with the address an admin gave, so it counts as verified. */
async function insertStaff(
  db: Queryable,
  a: { name: string; email: string; passwordHash: string; role: StaffRole },
): Promise<UserRecord> {
  const rows = await onUnique(
    () =>
      db.query<UserRow>(
        `insert into users (name, email, password_hash, role, email_verified_at) values ($1, $2, $3, $4, now())
         returning id, name, email, role, password_hash, active, profile_image_id,
           null::integer as patient_id, null::integer as doctor_id, null::integer as ward_id`,
        [a.name, a.email, a.passwordHash, a.role],
      ),
    EMAIL_TAKEN,
  );
  return toUser(onlyRow(rows));
}

export function sessionStore(db: Queryable): SessionStore {
  const findSession = async (tokenHash: string, now: Date, forWrite = false): Promise<SessionLookup | undefined> => {
    const [row] = await db.query<SessionUserRow & { expires_at: Date; persistent: boolean }>(
      `select ${SESSION_USER_COLUMNS}, s.expires_at, s.persistent from sessions s join ${USER_FROM} on u.id = s.user_id
       where s.token_hash = $1 and s.revoked_at is null and s.expires_at > $2 and u.active`,
      [tokenHash, now],
      { waitsAsWrite: forWrite },
    );
    return row ? { user: toSessionUser(row), expiresAt: row.expires_at, persistent: row.persistent } : undefined;
  };
  return {
    create: async (s) => {
      await db.query('insert into sessions (user_id, token_hash, expires_at, persistent) values ($1, $2, $3, $4)', [
        s.userId,
        s.tokenHash,
        s.expiresAt,
        s.persistent,
      ]);
    },
    findSession,
    findUser: async (tokenHash, now, forWrite) => (await findSession(tokenHash, now, forWrite))?.user,
    revoke: async (tokenHash, now) => {
      await db.query('update sessions set revoked_at = $2 where token_hash = $1 and revoked_at is null', [
        tokenHash,
        now,
      ]);
    },
    revokeAll: async (userId, now) => {
      await db.query('update sessions set revoked_at = $2 where user_id = $1 and revoked_at is null', [userId, now]);
    },
  };
}

export function passwordResetStore(db: Queryable): PasswordResetStore {
  return {
    issue: async (r) => {
      await db.query('update password_resets set used_at = now() where user_id = $1 and used_at is null', [r.userId]);
      const [row] = await db.query<{ id: number }>(
        'insert into password_resets (user_id, token_hash, expires_at, created_by) values ($1, $2, $3, $4) returning id',
        [r.userId, r.tokenHash, r.expiresAt, r.createdBy],
      );
      if (!row) throw new Error('insert returned no row');
      return row.id;
    },
    use: async (tokenHash, now) => {
      const [row] = await db.query<{ user_id: number }>(
        'update password_resets set used_at = $2 where token_hash = $1 and used_at is null and expires_at > $2 returning user_id',
        [tokenHash, now],
      );
      return row?.user_id;
    },
  };
}

export function mfaStore(db: Queryable): MfaStore {
  return {
    find: async (userId) => {
      const [row] = await db.query<{ secret: string; confirmed_at: Date | null }>(
        'select secret, confirmed_at from mfa_totp where user_id = $1',
        [userId],
      );
      return row && { secret: row.secret, confirmed: row.confirmed_at !== null };
    },
    begin: async (userId, secret) => {
      const rows = await db.query(
        `insert into mfa_totp (user_id, secret) values ($1, $2)
         on conflict (user_id) do update set secret = excluded.secret, created_at = now() where mfa_totp.confirmed_at is null
         returning user_id`,
        [userId, secret],
      );
      return rows.length > 0;
    },
    confirm: async (userId, step, codeHashes, now) => {
      await db.query('update mfa_totp set confirmed_at = $3, last_step = $2 where user_id = $1', [userId, step, now]);
      await replaceCodes(db, userId, codeHashes);
    },
    acceptStep: async (userId, step) => {
      const rows = await db.query(
        'update mfa_totp set last_step = $2 where user_id = $1 and confirmed_at is not null and (last_step is null or last_step < $2) returning user_id',
        [userId, step],
      );
      return rows.length > 0;
    },
    useRecoveryCode: async (userId, codeHash, now) => {
      const rows = await db.query(
        `update mfa_recovery_codes set used_at = $3
         where id = (select id from mfa_recovery_codes where user_id = $1 and code_hash = $2 and used_at is null limit 1 for update)
         returning id`,
        [userId, codeHash, now],
      );
      return rows.length > 0;
    },
    replaceRecoveryCodes: (userId, codeHashes) => replaceCodes(db, userId, codeHashes),
    recoveryCodesLeft: async (userId) => {
      const [row] = await db.query<{ left: number }>(
        'select count(*)::int as left from mfa_recovery_codes where user_id = $1 and used_at is null',
        [userId],
      );
      return row?.left ?? 0;
    },
    remove: async (userId) => {
      await db.query('delete from mfa_recovery_codes where user_id = $1', [userId]);
      const rows = await db.query('delete from mfa_totp where user_id = $1 returning user_id', [userId]);
      return rows.length > 0;
    },
  };
}

async function replaceCodes(db: Queryable, userId: number, codeHashes: string[]): Promise<void> {
  await db.query('delete from mfa_recovery_codes where user_id = $1', [userId]);
  await db.query('insert into mfa_recovery_codes (user_id, code_hash) select $1, unnest($2::text[])', [
    userId,
    codeHashes,
  ]);
}

export function challengeStore(db: Queryable): ChallengeStore {
  return {
    create: async (c) => {
      await db.query(
        'insert into sign_in_challenges (token_hash, user_id, persistent, expires_at) values ($1, $2, $3, $4)',
        [c.tokenHash, c.userId, c.persistent, c.expiresAt],
      );
      // Challenges a day past their end say nothing any more.
      await db.query(`delete from sign_in_challenges where expires_at < now() - interval '1 day'`);
    },
    find: async (tokenHash, now) => {
      const [row] = await db.query<{ user_id: number; persistent: boolean }>(
        'select user_id, persistent from sign_in_challenges where token_hash = $1 and used_at is null and expires_at > $2',
        [tokenHash, now],
      );
      return row && { userId: row.user_id, persistent: row.persistent };
    },
    finish: async (tokenHash, now) => {
      const rows = await db.query(
        'update sign_in_challenges set used_at = $2 where token_hash = $1 and used_at is null and expires_at > $2 returning user_id',
        [tokenHash, now],
      );
      return rows.length > 0;
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
        await tx.query('insert into throttle (key) select unnest($1::text[]) order by 1 on conflict (key) do nothing', [
          names,
        ]);
        const rows = await tx.query<{ key: string; failures: number; last_failure_at: Date | null }>(
          'select key, failures, last_failure_at from throttle where key = any($1) order by key for update',
          [names],
        );
        const buckets = new Map(
          rows.map((row) => [row.key, { failures: row.failures, lastFailureAt: row.last_failure_at }]),
        );
        const seconds = wait(buckets);
        if (seconds > 0) return seconds;
        const restarting = keys
          .filter((k) => inNewWindow(buckets.get(k.key) ?? { failures: 0, lastFailureAt: null }, k.rule, now))
          .map((k) => k.key);
        await tx.query(
          `update throttle set failures = case when key = any($2) then 1 else failures + 1 end, last_failure_at = $3 where key = any($1)`,
          [names, restarting, now],
        );
        // Keys nobody has tried for a day say nothing any more; a scan of made-up e-mails must not grow the table forever.
        if (Math.random() < PRUNE_ONE_IN)
          await tx.query(`delete from throttle where last_failure_at < $1`, [new Date(now.getTime() - 86_400_000)]);
        return 0;
      }),
    succeeded: async (cleared, forgiven) => {
      await db.query('delete from throttle where key = any($1)', [cleared]);
      await db.query('update throttle set failures = greatest(failures - 1, 0) where key = any($1)', [forgiven]);
    },
  };
}
const PRUNE_ONE_IN = 0.01;
