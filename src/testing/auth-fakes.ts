import type { AuditEntry, AuditLog } from '../domain/audit/audit.ts';
import type { AuthDeps, UserRecord } from '../domain/auth/ports.ts';
import { inNewWindow, type Bucket } from '../domain/auth/throttle.ts';
import { conflict } from '../domain/shared/errors.ts';
import type { Clock } from '../domain/shared/clock.ts';

/** In-memory auth ports: a fast hasher, predictable tokens, and everything kept in arrays to inspect. */
export function fakeAuthDeps(clock: Clock) {
  const users: UserRecord[] = [];
  const sessions: { userId: number; tokenHash: string; expiresAt: Date; revoked: boolean }[] = [];
  const buckets = new Map<string, Bucket>();
  const audit: AuditEntry[] = [];
  let tokenCount = 0;

  const addUser = (u: Omit<UserRecord, 'id' | 'active' | 'profileImageId' | 'patientId' | 'doctorId'> & Partial<UserRecord>) => {
    if (users.some((x) => x.email.toLowerCase() === u.email.toLowerCase())) throw conflict('email_taken', 'This email is already registered');
    const id = users.length + 1;
    const user: UserRecord = { active: true, profileImageId: null, patientId: null, doctorId: null, ...u, id };
    users.push(user);
    return user;
  };
  const auditLog: AuditLog = { record: async (e) => void audit.push(e) };

  const deps: AuthDeps & { timeZone: string } = {
    clock,
    timeZone: 'Europe/Berlin',
    audit: auditLog,
    hasher: { hash: async (p) => `hashed:${p}`, verify: async (h, p) => h === `hashed:${p}` },
    tokens: { issue: () => `token-${++tokenCount}`, digest: (t) => `digest:${t}` },
    accounts: {
      findByEmail: async (email) => users.find((u) => u.email.toLowerCase() === email.toLowerCase()),
      findById: async (id) => users.find((u) => u.id === id),
      createPatient: async (a) => addUser({ ...a, role: 'patient', patientId: users.length + 100 }),
      createAdmin: async (a) => addUser({ ...a, role: 'admin' }),
    },
    sessions: {
      create: async (s) => void sessions.push({ ...s, revoked: false }),
      findUser: async (tokenHash, now) => {
        const s = sessions.find((x) => x.tokenHash === tokenHash && !x.revoked && x.expiresAt > now);
        const user = s && users.find((u) => u.id === s.userId);
        return user?.active ? user : undefined;
      },
      revoke: async (tokenHash) => sessions.filter((s) => s.tokenHash === tokenHash).forEach((s) => (s.revoked = true)),
    },
    throttle: {
      reserve: async (keys, now, wait) => {
        const seconds = wait(new Map(keys.flatMap((k) => (buckets.has(k.key) ? [[k.key, buckets.get(k.key) as Bucket]] : []))));
        if (seconds > 0) return seconds;
        for (const k of keys) {
          const bucket = buckets.get(k.key) ?? { failures: 0, lastFailureAt: null };
          buckets.set(k.key, { failures: inNewWindow(bucket, k.rule, now) ? 1 : bucket.failures + 1, lastFailureAt: now });
        }
        return 0;
      },
      succeeded: async (cleared, forgiven) => {
        for (const key of cleared) buckets.delete(key);
        for (const key of forgiven) {
          const bucket = buckets.get(key);
          if (bucket) buckets.set(key, { ...bucket, failures: Math.max(0, bucket.failures - 1) });
        }
      },
    },
  };
  return { deps, users, sessions, buckets, audit };
}

/** A clock the test moves forward by hand. */
export function movableClock(iso: string): Clock & { advance(ms: number): void } {
  let now = new Date(iso).getTime();
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
}
