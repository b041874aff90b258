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
  let hearing = false;
  // Moves on with every forgetting, so a lookup can tell whether one happened while it waited.
  let generation = 0;

  const forget = (drop: (entry: Entry) => boolean) => {
    generation++;
    for (const [tokenHash, entry] of entries) if (drop(entry)) entries.delete(tokenHash);
  };
  const forgetAll = () => forget(() => true);
  const forgetUser = (userId: number) => forget((entry) => entry.user.id === userId);
  const keep = (tokenHash: string, lookup: SessionLookup, now: Date) => {
    const oldest = entries.keys().next();
    if (entries.size >= options.maxEntries && !oldest.done) entries.delete(oldest.value);
    entries.set(tokenHash, { ...lookup, cachedAt: now.getTime() });
  };

  return {
    create: store.create,
    findUser: async (tokenHash, now) => {
      const entry = entries.get(tokenHash);
      if (entry && entry.expiresAt > now && now.getTime() - entry.cachedAt < options.maxAgeMs) return entry.user;
      entries.delete(tokenHash);
      const seen = generation;
      const lookup = await store.findSession(tokenHash, now);
      if (lookup && hearing && seen === generation) keep(tokenHash, lookup, now);
      return lookup?.user;
    },
    findSession: store.findSession,
    revoke: async (tokenHash, now) => {
      await store.revoke(tokenHash, now);
      generation++;
      entries.delete(tokenHash);
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
