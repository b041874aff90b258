import type { AuditEntry, AuditLog } from '../domain/audit/audit.ts';
import type { Message } from '../domain/notifications/message.ts';
import type { AuthDeps, AuthStores, NewSession, SignInChallenge, UserRecord } from '../domain/auth/ports.ts';
import { inNewWindow, type Bucket } from '../domain/auth/throttle.ts';
import { conflict } from '../domain/shared/errors.ts';
import type { Clock } from '../domain/shared/clock.ts';

/** In-memory auth ports: a fast hasher, predictable tokens, and everything kept in arrays to inspect. */
export function fakeAuthDeps(clock: Clock) {
  const users: UserRecord[] = [];
  const sessions: (NewSession & { revoked: boolean })[] = [];
  const resets: { userId: number; tokenHash: string | null; expiresAt: Date; used: boolean }[] = [];
  const factors = new Map<number, { secret: string; confirmed: boolean; lastStep: number }>();
  const recoveryCodes: { userId: number; codeHash: string; used: boolean }[] = [];
  const messages: Message[] = [];
  const verified = new Set<number>();
  /** Addresses staff entered, by user id, waiting for confirmation. */
  const pending = new Map<number, string>();
  const challenges: (SignInChallenge & { tokenHash: string; expiresAt: Date; used: boolean })[] = [];
  const buckets = new Map<string, Bucket>();
  const audit: AuditEntry[] = [];
  let tokenCount = 0;

  const addUser = (
    u: Omit<UserRecord, 'id' | 'active' | 'profileImageId' | 'patientId' | 'doctorId' | 'wardId'> & Partial<UserRecord>,
  ) => {
    if (users.some((x) => x.email.toLowerCase() === u.email.toLowerCase()))
      throw conflict('email_taken', 'This email is already registered');
    const id = users.length + 1;
    const user: UserRecord = {
      active: true,
      profileImageId: null,
      patientId: null,
      doctorId: null,
      wardId: null,
      ...u,
      id,
    };
    users.push(user);
    return user;
  };
  const auditLog: AuditLog = { record: async (...e) => void audit.push(...e) };

  const findSession = async (tokenHash: string, now: Date) => {
    const s = sessions.find((x) => x.tokenHash === tokenHash && !x.revoked && x.expiresAt > now);
    const user = s && users.find((u) => u.id === s.userId);
    return s && user?.active ? { user, expiresAt: s.expiresAt, persistent: s.persistent } : undefined;
  };
  const revokeAll = (userId: number) => {
    for (const s of sessions) if (s.userId === userId) s.revoked = true;
  };
  const replaceCodes = (userId: number, codeHashes: string[]) => {
    for (let i = recoveryCodes.length - 1; i >= 0; i--)
      if (recoveryCodes[i]?.userId === userId) recoveryCodes.splice(i, 1);
    recoveryCodes.push(...codeHashes.map((codeHash) => ({ userId, codeHash, used: false })));
  };
  const links: {
    id: number;
    kind: string;
    token: string | null;
    userId: number | null;
    appointmentId: number | null;
    email: string | null;
    expiresAt: Date;
    used: boolean;
  }[] = [];
  const findLink = (kind: string, token: string, now: Date) =>
    links.find((l) => l.kind === kind && l.token === token && !l.used && l.expiresAt > now);
  /** What the mail worker does when it sends a message: a new token for its link (action links and resets), the earlier one void. */
  const mintLink = (message: Message): string | undefined => {
    const token = `link-${++tokenCount}`;
    const reset = message.kind === 'password_reset' ? resets[(message.linkId ?? 0) - 1] : undefined;
    const link = links.find((l) => l.id === message.linkId);
    if (reset) reset.tokenHash = `digest:${token}`;
    else if (link) link.token = token;
    else return undefined;
    return token;
  };
  const stores: AuthStores = {
    audit: auditLog,
    hl7: { queue: async () => {} },
    outbox: { enqueue: async (...m) => void messages.push(...m), withdraw: async () => {} },
    links: {
      prepare: async (link) => links.push({ ...link, id: links.length + 1, token: null, used: false }),
      use: async (kind, token, now) => {
        const link = findLink(kind, token, now);
        if (link) link.used = true;
        return link;
      },
      peek: async (kind, token, now) => findLink(kind, token, now),
    },
    accounts: {
      findByEmail: async (email) => users.find((u) => u.email.toLowerCase() === email.toLowerCase()),
      findById: async (id) => users.find((u) => u.id === id),
      createPatient: async (a) => addUser({ ...a, role: 'patient', patientId: users.length + 100 }),
      createAdmin: async (a) => addUser({ ...a, role: 'admin' }),
      createStaff: async (a) => addUser(a),
      createNurse: async ({ departmentId, ...a }) => ({
        user: addUser({ ...a, role: 'nurse', wardId: departmentId }),
        department: { id: departmentId, name: `Department ${departmentId}` },
      }),
      // A walk-in without an e-mail has no user a sign-in could find, so the fake keeps none.
      createWalkIn: async () => ({ userId: 0, patientId: 0 }),
      listStaff: async (role, req) => {
        const items = users
          .filter((u) => u.role === role)
          .map((u) => ({
            id: u.id,
            name: u.name,
            email: u.email,
            active: u.active,
            createdAt: new Date(0),
            department: null,
          }));
        return { items, total: items.length, totalIsLowerBound: false, page: req.page, perPage: req.perPage };
      },
      deactivateStaff: async (userId, role) => {
        const user = users.find((u) => u.id === userId && u.role === role);
        if (user) user.active = false;
        return user !== undefined;
      },
      markVerified: async (userId, email) => {
        const user = users.find((u) => u.id === userId && u.email.toLowerCase() === email.toLowerCase());
        if (user) verified.add(user.id);
        return user !== undefined;
      },
      emailChange: async (userId) => {
        const waiting = pending.get(userId);
        const user = users.find((u) => u.id === userId);
        return waiting === undefined || !user ? undefined : { current: user.email, pending: waiting };
      },
      confirmEmailChange: async (userId, email) => {
        const user = users.find((u) => u.id === userId);
        if (!user || pending.get(userId)?.toLowerCase() !== email.toLowerCase()) return false;
        if (users.some((u) => u.id !== userId && u.email.toLowerCase() === email.toLowerCase()))
          throw conflict('email_taken', 'This email is already registered');
        user.email = email;
        pending.delete(userId);
        verified.add(userId);
        return true;
      },
      setPassword: async (userId, passwordHash) => {
        const user = users.find((u) => u.id === userId);
        if (user) user.passwordHash = passwordHash;
        revokeAll(userId); // as migration 0009's trigger does
      },
    },
    sessions: {
      create: async (s) => void sessions.push({ ...s, revoked: false }),
      findSession,
      findUser: async (tokenHash, now) => (await findSession(tokenHash, now))?.user,
      revoke: async (tokenHash) => {
        for (const s of sessions) if (s.tokenHash === tokenHash) s.revoked = true;
      },
      revokeAll: async (userId) => revokeAll(userId),
    },
    resets: {
      issue: async (r) => {
        for (const x of resets) if (x.userId === r.userId) x.used = true;
        return resets.push({ ...r, used: false });
      },
      use: async (tokenHash, now) => {
        const reset = resets.find((x) => x.tokenHash === tokenHash && !x.used && x.expiresAt > now);
        if (reset) reset.used = true;
        return reset?.userId;
      },
    },
    mfa: {
      find: async (userId) => factors.get(userId),
      begin: async (userId, secret) => {
        if (factors.get(userId)?.confirmed) return false;
        factors.set(userId, { secret, confirmed: false, lastStep: -1 });
        return true;
      },
      confirm: async (userId, step, codeHashes) => {
        const factor = factors.get(userId);
        if (factor) factors.set(userId, { ...factor, confirmed: true, lastStep: step });
        replaceCodes(userId, codeHashes);
      },
      acceptStep: async (userId, step) => {
        const factor = factors.get(userId);
        if (!factor?.confirmed || factor.lastStep >= step) return false;
        factor.lastStep = step;
        return true;
      },
      useRecoveryCode: async (userId, codeHash) => {
        const code = recoveryCodes.find((c) => c.userId === userId && c.codeHash === codeHash && !c.used);
        if (code) code.used = true;
        return code !== undefined;
      },
      replaceRecoveryCodes: async (userId, codeHashes) => replaceCodes(userId, codeHashes),
      recoveryCodesLeft: async (userId) => recoveryCodes.filter((c) => c.userId === userId && !c.used).length,
      remove: async (userId) => {
        replaceCodes(userId, []);
        return factors.delete(userId);
      },
    },
    challenges: {
      create: async (c) => void challenges.push({ ...c, used: false }),
      find: async (tokenHash, now) => challenges.find((c) => c.tokenHash === tokenHash && !c.used && c.expiresAt > now),
      finish: async (tokenHash, now) => {
        const challenge = challenges.find((c) => c.tokenHash === tokenHash && !c.used && c.expiresAt > now);
        if (challenge) challenge.used = true;
        return challenge !== undefined;
      },
    },
  };

  const deps: AuthDeps & { timeZone: string } = {
    ...stores,
    // In memory there is nothing to roll back; the tests that need rollback run against a database.
    transaction: (fn) => fn(stores),
    clock,
    timeZone: 'Europe/Berlin',
    clinic: { name: 'Test Clinic', timeZone: 'Europe/Berlin', locale: 'en-US', mailFrom: 'desk@clinic.test' },
    requireMfa: [],
    hasher: { hash: async (p) => `hashed:${p}`, verify: async (h, p) => h === `hashed:${p}` },
    tokens: {
      issue: () => `token-${++tokenCount}`,
      digest: (t) => `digest:${t}`,
      recoveryCode: () => `code-${++tokenCount}`,
    },
    // A code is the secret's name and the step: "secret-1:123" is right at step 123 only.
    totp: {
      newSecret: () => `secret-${++tokenCount}`,
      uri: (secret, account, issuer) => `otpauth://totp/${issuer}:${account}?secret=${secret}`,
      qrSvg: async (uri) => `<svg>${uri}</svg>`,
      stepOf: (secret, code, now) => {
        const step = Math.floor(now.getTime() / 30_000);
        return [step - 1, step, step + 1].find((s) => code === fakeTotpCode(secret, s));
      },
    },
    throttle: {
      reserve: async (keys, now, wait) => {
        const seconds = wait(
          new Map(keys.flatMap((k) => (buckets.has(k.key) ? [[k.key, buckets.get(k.key) as Bucket]] : []))),
        );
        if (seconds > 0) return seconds;
        for (const k of keys) {
          const bucket = buckets.get(k.key) ?? { failures: 0, lastFailureAt: null };
          buckets.set(k.key, {
            failures: inNewWindow(bucket, k.rule, now) ? 1 : bucket.failures + 1,
            lastFailureAt: now,
          });
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
  return {
    deps,
    users,
    sessions,
    buckets,
    audit,
    resets,
    factors,
    recoveryCodes,
    messages,
    verified,
    pending,
    links,
    mintLink,
  };
}

/** What the fake authenticator shows for `secret` at time step `step`: six digits, as a real one. */
export function fakeTotpCode(secret: string, step: number): string {
  let n = step;
  for (const ch of secret) n = (n * 31 + ch.charCodeAt(0)) % 1_000_000;
  return String(n).padStart(6, '0');
}

/** A clock the test moves forward by hand. */
export function movableClock(iso: string): Clock & { advance(ms: number): void } {
  let now = new Date(iso).getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
  };
}
