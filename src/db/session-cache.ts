import type { SessionLookup, SessionStore } from '../domain/auth/ports.ts';
import type { Actor } from '../domain/shared/actor.ts';
import type { Db } from './db.ts';

/** The channel migration 0004's triggers notify, with the id of the user whose sign-in may have changed. */
export const AUTH_CHANNEL = 'medora_auth';
/** The notice of a truncated table: every user may have changed. */
const EVERYONE = '*';

export interface SessionCache {
  /** Starts hearing the database's notices; nothing is cached until they are heard. */
  watch(db: Db): Promise<void>;
  /**
   * Forgets what a write this server answered may have changed, so its effect holds for the next request here
   * without waiting for the notice: an admin's write may change anyone's account, anyone else's only their own.
   */
  forgetAfterWriteBy(actor: Pick<Actor, 'role' | 'userId'>): void;
}

export interface SessionCacheOptions {
  maxEntries: number;
  /**
   * How long a lookup is trusted at most, should a notice ever go astray: a listening connection that died
   * without closing is not noticed at once. An active user's session is then looked up once in this time.
   */
  maxAgeMs: number;
}

const DEFAULTS: SessionCacheOptions = { maxEntries: 10_000, maxAgeMs: 10_000 };

interface Entry extends SessionLookup {
  cachedAt: number;
}

/**
 * Every signed-in request looks up its session, and that round trip was the largest part of a cheap read.
 * This remembers lookups, but only while it is sure to hear of changes: the database notifies the user's id
 * when a session or account changes (migration 0004), and while the listening connection is down nothing is
 * kept. A lookup that was under way when a notice arrived is not kept either, as it may have read the state
 * from before the change; one that read it just before and returns just after is dropped by the notice itself.
 */
export function cachedSessionStore(
  store: SessionStore,
  options: SessionCacheOptions = DEFAULTS,
): SessionStore & SessionCache {
  const entries = new Map<string, Entry>();
  // Each user's remembered tokens, so forgetting a user reads only theirs, not every entry.
  const tokensOf = new Map<number, Set<string>>();
  let hearing = false;
  // Moves on with every forgetting, so a lookup can tell whether its own user (or everyone) was forgotten while it
  // waited: one user's write or notice does not cost every other lookup under way its place here.
  let generation = 0;
  let everyoneForgottenAt = 0;
  const userForgottenAt = new Map<number, number>();

  const drop = (tokenHash: string) => {
    const entry = entries.get(tokenHash);
    if (!entry) return;
    entries.delete(tokenHash);
    const tokens = tokensOf.get(entry.user.id);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) tokensOf.delete(entry.user.id);
  };
  const forgetAll = () => {
    everyoneForgottenAt = ++generation;
    userForgottenAt.clear();
    entries.clear();
    tokensOf.clear();
  };
  const forgetUser = (userId: number) => {
    userForgottenAt.set(userId, ++generation);
    for (const tokenHash of tokensOf.get(userId) ?? []) entries.delete(tokenHash);
    tokensOf.delete(userId);
    // Bounded like the entries: past that, forgetting everyone says the same and frees the marks.
    if (userForgottenAt.size > options.maxEntries) forgetAll();
  };
  const forgottenSince = (userId: number, seen: number) =>
    everyoneForgottenAt > seen || (userForgottenAt.get(userId) ?? 0) > seen;
  const keep = (tokenHash: string, lookup: SessionLookup, now: Date) => {
    const oldest = entries.keys().next();
    if (entries.size >= options.maxEntries && !oldest.done) drop(oldest.value);
    entries.set(tokenHash, { ...lookup, cachedAt: now.getTime() });
    const tokens = tokensOf.get(lookup.user.id) ?? new Set<string>();
    tokens.add(tokenHash);
    tokensOf.set(lookup.user.id, tokens);
  };

  return {
    create: store.create,
    findUser: async (tokenHash, now, forWrite) => {
      const entry = entries.get(tokenHash);
      if (entry && entry.expiresAt > now && now.getTime() - entry.cachedAt < options.maxAgeMs) return entry.user;
      drop(tokenHash);
      const seen = generation;
      const lookup = await store.findSession(tokenHash, now, forWrite);
      if (lookup && hearing && !forgottenSince(lookup.user.id, seen)) keep(tokenHash, lookup, now);
      return lookup?.user;
    },
    findSession: store.findSession,
    revoke: async (tokenHash, now) => {
      await store.revoke(tokenHash, now);
      // Whose token it was is not known here: no lookup under way may keep what it read before the revocation.
      everyoneForgottenAt = ++generation;
      drop(tokenHash);
    },
    revokeAll: async (userId, now) => {
      await store.revokeAll(userId, now);
      forgetUser(userId);
    },
    watch: (db) =>
      db.listen(AUTH_CHANNEL, {
        live: () => {
          hearing = true;
          forgetAll(); // a lookup under way may have read a change whose notice came before listening began
        },
        lost: () => {
          hearing = false;
          forgetAll();
        },
        notice: (payload) => (payload === EVERYONE ? forgetAll() : forgetUser(Number(payload))),
      }),
    forgetAfterWriteBy: (actor) => (actor.role === 'admin' ? forgetAll() : forgetUser(actor.userId)),
  };
}
