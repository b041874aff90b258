import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { SessionUser } from '../domain/auth/ports.ts';
import type { SessionLookup } from '../domain/auth/ports.ts';
import type { Db, NoticeListener } from './db.ts';
import { AUTH_CHANNEL, cachedSessionStore } from './session-cache.ts';

const NOW = new Date('2026-06-01T10:00:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

const user = (id: number): SessionUser => ({
  id,
  name: `User ${id}`,
  email: `user${id}@example.test`,
  role: 'patient',
  active: true,
  profileImageId: null,
  patientId: id,
  doctorId: null,
  wardId: null,
});

/** A session table in memory that counts its lookups; `hold()` keeps the next lookup waiting until released. */
function fakeSessions() {
  const sessions = new Map<string, SessionLookup>([
    ['token-a', { user: user(1), expiresAt: later(3_600_000), persistent: false }],
    ['token-b', { user: user(2), expiresAt: later(3_600_000), persistent: false }],
  ]);
  let lookups = 0;
  let held: Promise<void> | undefined;
  const store = {
    create: async () => {},
    findSession: async (tokenHash: string, now: Date) => {
      lookups++;
      await held;
      const session = sessions.get(tokenHash);
      return session && session.expiresAt > now ? session : undefined;
    },
    findUser: async () => assert.fail('the cache asks for the session, with its end'),
    revoke: async (tokenHash: string) => void sessions.delete(tokenHash),
    revokeAll: async (userId: number) => {
      for (const [tokenHash, session] of sessions) if (session.user.id === userId) sessions.delete(tokenHash);
    },
  };
  return {
    store,
    sessions,
    lookups: () => lookups,
    hold() {
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
  };
}

/** A Db whose only use here is `listen`: the test plays the database's notices. */
function fakeNotices() {
  let listener: NoticeListener | undefined;
  const db = {
    listen: async (channel: string, l: NoticeListener) => {
      assert.equal(channel, AUTH_CHANNEL);
      listener = l;
    },
  } as unknown as Db;
  return {
    db,
    get listener() {
      assert.ok(listener, 'watch() has not listened');
      return listener;
    },
  };
}

async function watchedCache(options?: { maxEntries: number; maxAgeMs: number }) {
  const fake = fakeSessions();
  const notices = fakeNotices();
  const cache = cachedSessionStore(fake.store, options);
  await cache.watch(notices.db);
  notices.listener.live();
  return { ...fake, cache, notices };
}

describe('cached session lookups', () => {
  it('asks the database every time until it hears its notices', async () => {
    const fake = fakeSessions();
    const cache = cachedSessionStore(fake.store);
    assert.equal((await cache.findUser('token-a', NOW))?.id, 1);
    assert.equal((await cache.findUser('token-a', NOW))?.id, 1);
    assert.equal(fake.lookups(), 2);
  });

  it('answers a repeated lookup from memory once it hears them', async () => {
    const { cache, lookups } = await watchedCache();
    await cache.findUser('token-a', NOW);
    assert.equal((await cache.findUser('token-a', later(1000)))?.id, 1);
    assert.equal(lookups(), 1);
  });

  it('never remembers a token that has no session', async () => {
    const { cache, lookups, sessions } = await watchedCache();
    assert.equal(await cache.findUser('token-new', NOW), undefined);
    sessions.set('token-new', { user: user(3), expiresAt: later(60_000), persistent: false });
    assert.equal((await cache.findUser('token-new', NOW))?.id, 3);
    assert.equal(lookups(), 2);
  });

  it("forgets a user's sessions when the database says the user changed, and only theirs", async () => {
    const { cache, lookups, sessions, notices } = await watchedCache();
    await cache.findUser('token-a', NOW);
    await cache.findUser('token-b', NOW);
    sessions.delete('token-a'); // e.g. the doctor was deactivated
    notices.listener.notice('1');
    assert.equal(await cache.findUser('token-a', NOW), undefined);
    assert.equal((await cache.findUser('token-b', NOW))?.id, 2);
    assert.equal(lookups(), 3);
  });

  it("forgets everyone's sessions when the database says a table was emptied", async () => {
    const { cache, lookups, notices } = await watchedCache();
    await cache.findUser('token-a', NOW);
    await cache.findUser('token-b', NOW);
    notices.listener.notice('*');
    await cache.findUser('token-a', NOW);
    await cache.findUser('token-b', NOW);
    assert.equal(lookups(), 4);
  });

  it("does not keep a lookup that was under way when a notice of its user's change arrived", async () => {
    const { cache, lookups, notices, hold } = await watchedCache();
    const release = hold();
    const racing = cache.findUser('token-a', NOW);
    notices.listener.notice('1'); // the lookup may have read user 1 from before the change
    release();
    assert.equal((await racing)?.id, 1);
    await cache.findUser('token-a', NOW);
    assert.equal(lookups(), 2);
  });

  it("keeps a lookup that was under way when another user's notice or write came", async () => {
    const { cache, lookups, notices, hold } = await watchedCache();
    const release = hold();
    const racing = cache.findUser('token-a', NOW);
    notices.listener.notice('7');
    cache.forgetAfterWriteBy({ role: 'doctor', userId: 8 });
    release();
    assert.equal((await racing)?.id, 1);
    await cache.findUser('token-a', NOW);
    assert.equal(lookups(), 1, "user 1's lookup was remembered");
  });

  it('does not keep a lookup that was under way when a session was revoked or a table emptied', async () => {
    for (const meanwhile of [
      (c: Awaited<ReturnType<typeof watchedCache>>) => c.cache.revoke('token-b', NOW),
      (c: Awaited<ReturnType<typeof watchedCache>>) => c.notices.listener.notice('*'),
    ]) {
      const c = await watchedCache();
      const release = c.hold();
      const racing = c.cache.findUser('token-a', NOW);
      await meanwhile(c);
      release();
      await racing;
      await c.cache.findUser('token-a', NOW);
      assert.equal(c.lookups(), 2);
    }
  });

  it('does not keep a lookup that was under way when listening began', async () => {
    const fake = fakeSessions();
    const notices = fakeNotices();
    const cache = cachedSessionStore(fake.store);
    await cache.watch(notices.db);
    const release = fake.hold();
    const racing = cache.findUser('token-a', NOW);
    notices.listener.live(); // a notice sent before this was never heard
    release();
    await racing;
    await cache.findUser('token-a', NOW);
    assert.equal(fake.lookups(), 2);
  });

  it('forgets everything and stops remembering while the listening connection is down', async () => {
    const { cache, lookups, notices } = await watchedCache();
    await cache.findUser('token-a', NOW);
    notices.listener.lost();
    await cache.findUser('token-a', NOW);
    await cache.findUser('token-a', NOW);
    assert.equal(lookups(), 3);
    notices.listener.live();
    await cache.findUser('token-a', NOW);
    await cache.findUser('token-a', NOW);
    assert.equal(lookups(), 4);
  });

  it('does not answer for a session past its end', async () => {
    const { cache, sessions } = await watchedCache();
    sessions.set('token-short', { user: user(3), expiresAt: later(5_000), persistent: false });
    assert.equal((await cache.findUser('token-short', NOW))?.id, 3);
    assert.equal(await cache.findUser('token-short', later(5_000)), undefined);
  });

  it('asks again once a remembered lookup is older than its bound', async () => {
    const { cache, lookups } = await watchedCache({ maxEntries: 10, maxAgeMs: 30_000 });
    await cache.findUser('token-a', NOW);
    await cache.findUser('token-a', later(29_999));
    await cache.findUser('token-a', later(30_000));
    assert.equal(lookups(), 2);
  });

  it('forgets a token it revokes', async () => {
    const { cache, lookups } = await watchedCache();
    await cache.findUser('token-a', NOW);
    await cache.revoke('token-a', NOW);
    assert.equal(await cache.findUser('token-a', NOW), undefined);
    assert.equal(lookups(), 2);
  });

  it("after a write forgets the writer's own sessions, and an admin's write everyone's", async () => {
    const { cache, lookups } = await watchedCache();
    const both = () => Promise.all([cache.findUser('token-a', NOW), cache.findUser('token-b', NOW)]);
    await both();
    cache.forgetAfterWriteBy({ role: 'patient', userId: 1 });
    await both();
    assert.equal(lookups(), 3, "only user 1's session was looked up again");
    cache.forgetAfterWriteBy({ role: 'admin', userId: 99 });
    await both();
    assert.equal(lookups(), 5);
  });

  it('keeps at most maxEntries lookups, dropping the oldest', async () => {
    const { cache, lookups } = await watchedCache({ maxEntries: 1, maxAgeMs: 60_000 });
    await cache.findUser('token-a', NOW);
    await cache.findUser('token-b', NOW);
    await cache.findUser('token-b', NOW);
    await cache.findUser('token-a', NOW);
    assert.equal(lookups(), 3);
  });
});
